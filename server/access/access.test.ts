// Keys, plans, limits and quotas against the real server, with the CLI as a separate process.
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountStore } from '../accounts/accountStore.js';
import { openAccountStore } from '../accounts/openStores.js';
import { hashKey } from '../accounts/keys.js';
import { provisionKey, runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';

const SIX = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-quota-limit', 'x-quota-remaining', 'x-quota-reset'];
const PATH = '/api/v1/qibla?lat=41&lon=29';

async function call(server: RunningServer, key: string | undefined, path = PATH, how: 'bearer' | 'header' = 'header') {
  const headers: Record<string, string> = key === undefined ? {} : how === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key };
  const res = await fetch(server.baseUrl + path, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** The first instant of the next UTC month, as the contract writes it. */
function nextMonth(): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().replace('.000Z', 'Z');
}

function plansFile(plans: object): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'plans-')), 'plans.json');
  writeFileSync(file, JSON.stringify(plans));
  return file;
}

async function storedMonthCount(dataDir: string, email: string): Promise<number> {
  const store = openAccountStore(dataDir);
  try {
    const account = store.accountByEmail(email)!;
    return store.allUsage().get(account.id)?.monthCount ?? 0;
  } finally {
    await store.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('authentication', () => {
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    server = await startServer();
    key = await provisionKey(server.dataDir, 'auth@example.com', 'pro');
    await sleep(600); // the server picks new keys up within a second
  });
  afterAll(async () => {
    await server.stop();
  });

  it('accepts the key as a Bearer token and as X-API-Key', async () => {
    expect((await call(server, key, PATH, 'bearer')).status).toBe(200);
    expect((await call(server, key, PATH, 'header')).status).toBe(200);
  });

  it('both headers with different keys: the Bearer key decides and X-API-Key is ignored, with no falling back', async () => {
    const revoked = await provisionKey(server.dataDir, 'both-headers@example.com', 'pro');
    const store = openAccountStore(server.dataDir);
    try {
      store.revoke(revoked);
    } finally {
      await store.close();
    }
    await sleep(600);
    const send = async (authorization: string, apiKey: string) => {
      const res = await fetch(server.baseUrl + PATH, { headers: { Authorization: authorization, 'X-API-Key': apiKey } });
      return { status: res.status, code: ((await res.json()) as any).error?.code as string | undefined };
    };
    expect(await send(`Bearer ${key}`, revoked)).toEqual({ status: 200, code: undefined });
    expect(await send(`Bearer ${revoked}`, key)).toEqual({ status: 403, code: 'api_key_revoked' });
    expect(await send('Bearer mk_00000000000000000000000000000000', key)).toEqual({ status: 401, code: 'invalid_api_key' });
    // An Authorization header that is not "Bearer <key>" does not count: X-API-Key decides.
    expect(await send('Basic dXNlcjpwYXNz', key)).toEqual({ status: 200, code: undefined });
    expect(await send('Basic dXNlcjpwYXNz', revoked)).toEqual({ status: 403, code: 'api_key_revoked' });
  });

  it('401 missing_api_key without a key, linking the authentication docs, with no quota headers', async () => {
    const { status, headers, body } = await call(server, undefined);
    expect(status).toBe(401);
    expect(body.error.code).toBe('missing_api_key');
    expect(body.error.docs).toMatch(/\/docs\/authentication$/);
    expect(body.error.pricing).toMatch(/\/pricing$/);
    for (const h of SIX) expect(headers.get(h)).toBeNull();
  });

  it('401 invalid_api_key for a key that does not exist', async () => {
    for (const wrong of ['mk_00000000000000000000000000000000', 'nonsense', key + 'x']) {
      const { status, body } = await call(server, wrong);
      expect(status).toBe(401);
      expect(body.error.code).toBe('invalid_api_key');
    }
  });

  it('checks the key before the parameters', async () => {
    expect((await call(server, undefined, '/api/v1/times?lat=999')).body.error.code).toBe('missing_api_key');
    expect((await call(server, key, '/api/v1/times?lat=999')).body.error.code).toBe('invalid_parameter');
  });

  it('needs no key for /healthz, the OpenAPI description and CORS preflight', async () => {
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/v1/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/v1/times`, { method: 'OPTIONS' })).status).toBe(204);
  });

  it('stores only the SHA-256 of a key: the key is nowhere in the store’s files', async () => {
    await sleep(1200); // let a usage flush happen too
    const dir = path.join(server.dataDir, 'accounts');
    const files = readdirSync(dir).map((f) => readFileSync(path.join(dir, f)));
    expect(files.length).toBeGreaterThan(0);
    const body = key.slice(3);
    for (const bytes of files) {
      expect(bytes.includes(Buffer.from(key))).toBe(false);
      expect(bytes.includes(Buffer.from(body))).toBe(false);
    }
    // …while its hash is there, so the search looked in the right place.
    expect(files.some((bytes) => bytes.includes(Buffer.from(hashKey(key))))).toBe(true);
  });
});

describe('CLI changes reach a running server within a second', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });
  const env = () => ({ DATA_DIR: server.dataDir });

  async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < ms) {
      if (await check()) return Date.now() - started;
      await sleep(50);
    }
    throw new Error(`not within ${ms} ms`);
  }

  it('create, re-plan and revoke', async () => {
    const created = await runCli(['keys', 'create', '--email', 'cli@example.com', '--plan', 'trial'], env());
    expect(created.code).toBe(0);
    const { key, accountId, plan } = JSON.parse(created.stdout);
    expect(key).toMatch(/^mk_[0-9A-Za-z]{32}$/);
    expect(accountId).toMatch(/^acc_/);
    expect(plan).toBe('trial');
    await within(1000, async () => (await call(server, key)).status === 200);

    const moved = await runCli(['accounts', 'set-plan', '--email', 'cli@example.com', '--plan', 'business'], env());
    expect(moved.code).toBe(0);
    await within(1000, async () => (await call(server, key)).headers.get('ratelimit-limit') === '300');

    const listed = await runCli(['keys', 'list', '--email', 'cli@example.com'], env());
    const line = JSON.parse(listed.stdout.trim());
    expect(line.prefix).toBe(key.slice(0, 9));
    expect(listed.stdout).not.toContain(key);

    const revoked = await runCli(['keys', 'revoke', line.prefix], env());
    expect(revoked.code).toBe(0);
    await within(1000, async () => (await call(server, key)).status === 403);
    const { body } = await call(server, key);
    expect(body.error.code).toBe('api_key_revoked');
    expect(body.error.docs).toMatch(/\/docs\/authentication$/);
  });

  it('set-plan refuses an unknown plan', async () => {
    const bad = await runCli(['accounts', 'set-plan', '--email', 'cli@example.com', '--plan', 'gold'], env());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--plan must be one of trial, pro, business/);
  });
});

describe('limits', () => {
  it('drives a trial account past its per-minute limit, checking every header, across two keys', async () => {
    const server = await startServer();
    try {
      const first = await provisionKey(server.dataDir, 'minute@example.com', 'trial');
      const second = await provisionKey(server.dataDir, 'minute@example.com', 'trial');
      await sleep(600);
      for (let i = 1; i <= 10; i++) {
        // A 400 counts as well as a 200.
        const r = await call(server, i % 2 ? first : second, i === 5 ? '/api/v1/qibla?lat=95&lon=0' : PATH);
        expect(r.status).toBe(i === 5 ? 400 : 200);
        expect(r.headers.get('ratelimit-limit')).toBe('10');
        expect(r.headers.get('ratelimit-remaining')).toBe(String(10 - i));
        const reset = Number(r.headers.get('ratelimit-reset'));
        expect(reset).toBeGreaterThanOrEqual(1);
        expect(reset).toBeLessThanOrEqual(60);
        expect(r.headers.get('x-quota-limit')).toBe('1000');
        expect(r.headers.get('x-quota-remaining')).toBe(String(1000 - i));
        expect(r.headers.get('x-quota-reset')).toBe(nextMonth());
        expect(r.headers.get('retry-after')).toBeNull();
      }
      for (const key of [first, second]) {
        const refused = await call(server, key);
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe('rate_limit_exceeded');
        const retry = Number(refused.headers.get('retry-after'));
        expect(retry).toBeGreaterThanOrEqual(1);
        expect(retry).toBeLessThanOrEqual(60);
        expect(refused.headers.get('ratelimit-remaining')).toBe('0');
        expect(refused.headers.get('x-quota-remaining')).toBe('990'); // refusals are not counted
        expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
      }
    } finally {
      await server.stop();
    }
  });

  it('drives an account past its monthly quota (a small plan from PLANS_FILE)', async () => {
    const server = await startServer({ PLANS_FILE: plansFile({ trial: { perMinute: 100, perMonth: 5 } }) });
    try {
      const key = await provisionKey(server.dataDir, 'month@example.com', 'trial');
      await sleep(600);
      for (let i = 1; i <= 5; i++) {
        const r = await call(server, key);
        expect(r.status).toBe(200);
        expect(r.headers.get('x-quota-limit')).toBe('5');
        expect(r.headers.get('x-quota-remaining')).toBe(String(5 - i));
        expect(r.headers.get('ratelimit-limit')).toBe('100');
      }
      const refused = await call(server, key);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('quota_exceeded');
      expect(refused.headers.get('x-quota-remaining')).toBe('0');
      expect(refused.headers.get('x-quota-reset')).toBe(nextMonth());
      const retry = Number(refused.headers.get('retry-after'));
      const expected = (Date.parse(nextMonth()) - Date.now()) / 1000;
      expect(Math.abs(retry - expected)).toBeLessThan(5);
    } finally {
      await server.stop();
    }
  });

  it('a malformed PLANS_FILE stops the server at start-up with a clear message', async () => {
    await expect(startServer({ PLANS_FILE: plansFile({ gold: {} }) }, 15_000)).rejects.toThrow(/PLANS_FILE .*unknown plan "gold"/);
  });
});

describe.each([1, 3])('exactness under concurrency, %i serving thread(s)', (workers) => {
  it('200 concurrent requests on a fresh trial account: exactly 10 successes and 190 refusals', async () => {
    const server = await startServer({ WORKERS: String(workers) });
    try {
      const key = await provisionKey(server.dataDir, 'burst@example.com', 'trial');
      await sleep(600);
      const replies = await Promise.all(Array.from({ length: 200 }, () => call(server, key)));
      const ok = replies.filter((r) => r.status === 200);
      const refused = replies.filter((r) => r.status === 429);
      expect(ok).toHaveLength(10);
      expect(refused).toHaveLength(190);
      expect(refused.every((r) => r.body.error.code === 'rate_limit_exceeded')).toBe(true);
      // Each success saw a distinct remaining count, 9 down to 0.
      expect(ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // The request id starts with the answering thread's boot id: with several threads, several answered.
      const threads = new Set(replies.map((r) => r.headers.get('x-request-id')!.split('-')[0]));
      expect(threads.size).toBe(workers);
      await sleep(1300);
      expect(await storedMonthCount(server.dataDir, 'burst@example.com')).toBe(10);
    } finally {
      await server.stop();
    }
  });
});

describe('durability', () => {
  const plans = () => plansFile({ trial: { perMinute: 1000, perMonth: 100_000 } });

  it.each([1, 3])('a clean stop (SIGTERM) loses no count, %i serving thread(s)', async (workers) => {
    const file = plans();
    const server = await startServer({ PLANS_FILE: file, WORKERS: String(workers) });
    const key = await provisionKey(server.dataDir, 'term@example.com', 'trial');
    await sleep(600);
    for (let i = 0; i < 37; i++) expect((await call(server, key)).status).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(0); // at once, inside the one-second flush interval
    const again = await startServer({ PLANS_FILE: file, DATA_DIR: server.dataDir });
    try {
      const r = await call(again, key);
      expect(r.headers.get('x-quota-remaining')).toBe(String(100_000 - 38));
      // The per-minute window survives the restart too.
      expect(r.headers.get('ratelimit-remaining')).toBe(String(1000 - 38));
    } finally {
      await again.stop();
    }
  });

  it('kill -9 loses at most the last second of counts', async () => {
    const file = plans();
    const server = await startServer({ PLANS_FILE: file });
    const key = await provisionKey(server.dataDir, 'kill@example.com', 'trial');
    await sleep(600);
    for (let i = 0; i < 20; i++) await call(server, key);
    await sleep(1300); // more than a second: these are on disk
    for (let i = 0; i < 5; i++) await call(server, key); // the last second: may be lost
    await server.stop('SIGKILL');
    const again = await startServer({ PLANS_FILE: file, DATA_DIR: server.dataDir });
    try {
      const used = 100_000 - Number((await call(again, key)).headers.get('x-quota-remaining')) - 1;
      expect(used).toBeGreaterThanOrEqual(20);
      expect(used).toBeLessThanOrEqual(25);
    } finally {
      await again.stop();
    }
  });
});
