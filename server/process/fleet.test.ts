// Fleet mode as a whole (contract, "Fleet mode"): a real redis-server and real server processes (WORKERS=1) sharing
// it, a client spreading requests over them (testing/fleet.ts). The limits are exact across servers, MCP counts
// against the same account, changes made with the CLI or the dashboard reach every server within a second, and the
// faults: Redis killed under load (`local`: answered throughout, counts merged back; `closed`: 503 while away) and
// one server killed under load (the others go on, nothing admitted is missing from Redis).
// No timings are asserted, only bounds: the machine is small and shared.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DashboardBrowser, outboxMail } from '../../testing/dashboardBrowser.js';
import { startFleet, within, type Fleet, type FleetAnswer } from '../../testing/fleet.js';

const API = '/api/v1/qibla?lat=41&lon=29';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const catalogDataDir = () => inject('catalogDataDir');
/** The first instant of the next UTC month, as X-Quota-Reset writes it. */
const nextMonthText = (): string => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().replace('.000Z', 'Z');
};
const header = (a: FleetAnswer, name: string): string | null => a.headers.get(name);
const sorted = (values: number[]): number[] => [...values].sort((a, b) => b - a);
/** n..0 downwards. */
const countdown = (from: number): number[] => Array.from({ length: from + 1 }, (_, i) => from - i);

/** One request with `key` to every living server at once; their statuses in server order. */
async function onEvery(fleet: Fleet, key: string): Promise<FleetAnswer[]> {
  return Promise.all(fleet.alive().map((server) => fleet.request(API, { key, server })));
}

/**
 * Waits until every living server knows the key, asking with what needs a valid key but is not counted (MCP's
 * tools/list; contract, "Keys, plans and limits"), so the account's counts stay untouched.
 */
async function knownEverywhere(fleet: Fleet, key: string): Promise<void> {
  await within(5000, 'the key on every server', async () =>
    (await Promise.all(fleet.alive().map((server) => fleet.mcp(key, 'tools/list', undefined, server)))).every((a) => a.status === 200),
  );
}

describe('three servers on one Redis: limits, MCP, changes', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({
      catalogDataDir: catalogDataDir(),
      servers: 3,
      // trial keeps its 10 a minute and 1,000 a month; pro gets a small month for the quota test; business is
      // where a plan change goes.
      plans: { pro: { perMinute: 1000, perMonth: 25 }, business: { perMinute: 100_000, perMonth: 1_000_000_000 } },
      // One public origin for all three, as behind a load balancer: the dashboard's forms are posted to any of them.
      env: { PUBLIC_BASE_URL: 'http://fleet.localhost' },
    });
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('200 concurrent trial requests over three servers: exactly ten 200s, Remaining 9…0, the same window and month', async () => {
    const burst = await fleet.createKey('burst@example.com', 'trial');
    await knownEverywhere(fleet, burst.key);
    expect(await fleet.monthCount(burst.accountId)).toBe(0);

    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () => fleet.request(API, { key: burst.key })));
    const burstSeconds = (performance.now() - started) / 1000;

    // Spread evenly: the client went round-robin.
    for (const server of [0, 1, 2]) expect(answers.filter((a) => a.server === server).length).toBeGreaterThanOrEqual(66);
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(190);
    expect(new Set(refused.map((a) => a.server)).size).toBe(3);

    // Every answer renders the same script result: RateLimit-* for the minute, X-Quota-* for the month.
    expect(sorted(admitted.map((a) => Number(header(a, 'ratelimit-remaining'))))).toEqual(countdown(9));
    expect(sorted(admitted.map((a) => Number(header(a, 'x-quota-remaining'))))).toEqual(countdown(999).slice(0, 10));
    for (const a of answers) {
      expect(header(a, 'ratelimit-limit')).toBe('10');
      expect(header(a, 'x-quota-limit')).toBe('1000');
      expect(header(a, 'x-quota-reset')).toBe(nextMonthText());
      const reset = Number(header(a, 'ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    for (const a of refused) {
      expect(a.body.error.code).toBe('rate_limit_exceeded');
      expect(header(a, 'ratelimit-remaining')).toBe('0');
      expect(header(a, 'x-quota-remaining')).toBe('990');
      expect(header(a, 'retry-after')).toBe(header(a, 'ratelimit-reset'));
    }
    // The request that opened the window sees all of it; one window for all: the resets differ by no more than the
    // burst lasted (rounded up, plus one for the rounding of each).
    const opener = admitted.find((a) => header(a, 'ratelimit-remaining') === '9')!;
    expect(header(opener, 'ratelimit-reset')).toBe('60');
    const resets = answers.map((a) => Number(header(a, 'ratelimit-reset')));
    expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(Math.ceil(burstSeconds) + 1);

    expect(await fleet.monthCount(burst.accountId)).toBe(10);
    // And the refusals go on everywhere for the rest of the minute.
    for (const a of await onEvery(fleet, burst.key)) expect(a.status).toBe(429);
  }, 60_000);

  it('the monthly quota is one count over the three servers', async () => {
    // pro here: 1,000 a minute and 25 a month.
    const { key, accountId } = await fleet.createKey('month@example.com', 'pro');
    await knownEverywhere(fleet, key);
    const answers = await Promise.all(Array.from({ length: 60 }, () => fleet.request(API, { key })));
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted).toHaveLength(25);
    expect(refused).toHaveLength(35);
    expect(sorted(admitted.map((a) => Number(header(a, 'x-quota-remaining'))))).toEqual(countdown(24));
    for (const a of refused) {
      expect(a.body.error.code).toBe('quota_exceeded');
      expect(header(a, 'x-quota-remaining')).toBe('0');
      expect(header(a, 'x-quota-limit')).toBe('25');
      expect(header(a, 'x-quota-reset')).toBe(nextMonthText());
      // Retry-After: until the month ends, not the minute.
      expect(Number(header(a, 'retry-after'))).toBeCloseTo((Date.parse(nextMonthText()) - Date.now()) / 1000, -2);
    }
    // (Which servers refused depends on the order the requests reached Redis; after the burst every one does.)
    for (const a of await onEvery(fleet, key)) {
      expect(a.status).toBe(429);
      expect(a.body.error.code).toBe('quota_exceeded');
    }
    expect(await fleet.monthCount(accountId)).toBe(25);
  }, 60_000);

  it('MCP tool calls and API requests on different servers count against one account; initialize and tools/list do not', async () => {
    const { key, accountId } = await fleet.createKey('agent@example.com', 'trial');
    await knownEverywhere(fleet, key);
    for (const server of fleet.alive()) {
      const initialize = await fleet.mcp(key, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fleet', version: '1' } }, server);
      expect(initialize.status).toBe(200);
    }
    expect(await fleet.monthCount(accountId)).toBe(0);

    let used = 0;
    for (let i = 0; i < 5; i++) {
      const api = await fleet.request(API, { key });
      expect(api.status).toBe(200);
      expect(header(api, 'ratelimit-remaining')).toBe(String(10 - ++used));
      const call = await fleet.mcp(key, 'tools/call', { name: 'getQibla', arguments: { lat: 41, lon: 29 } });
      expect(call.status).toBe(200);
      expect(call.body.result.isError).toBeFalsy();
      used++;
      expect(await fleet.monthCount(accountId)).toBe(used);
    }
    // The minute is used up on every server, for tool calls and for the API; tools/list still answers.
    for (const server of fleet.alive()) {
      const call = await fleet.mcp(key, 'tools/call', { name: 'getQibla', arguments: { lat: 41, lon: 29 } }, server);
      expect(call.status).toBe(429);
      expect(call.body.error.code).toBe('rate_limit_exceeded');
      expect(header(call, 'x-quota-remaining')).toBe('990');
      expect((await fleet.request(API, { key, server })).status).toBe(429);
      const list = await fleet.mcp(key, 'tools/list', undefined, server);
      expect(list.status).toBe(200);
      expect(header(list, 'ratelimit-remaining')).toBe('0');
    }
    expect(await fleet.monthCount(accountId)).toBe(10);
  }, 60_000);

  it('a key made, a plan changed and a key revoked with the CLI (REDIS_URL) reach every server within a second', async () => {
    // Each bound runs from the CLI's exit; the change was made before it.
    const made = await fleet.createKey('changes@example.com', 'trial');
    expect(await within(1000, 'the new key everywhere', async () => (await onEvery(fleet, made.key)).every((a) => a.status === 200 || a.status === 429))).toBeLessThanOrEqual(1000);

    const moved = await fleet.cli(['accounts', 'set-plan', '--email', 'changes@example.com', '--plan', 'business']);
    expect(moved.code, moved.stderr).toBe(0);
    // 429s carry the plan's headers too, so the check does not depend on what the checks themselves spent.
    expect(await within(1000, 'the new plan everywhere', async () => (await onEvery(fleet, made.key)).every((a) => header(a, 'ratelimit-limit') === '100000'))).toBeLessThanOrEqual(1000);

    const revoked = await fleet.cli(['keys', 'revoke', made.key]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await within(1000, 'the revocation everywhere', async () => (await onEvery(fleet, made.key)).every((a) => a.status === 403))).toBeLessThanOrEqual(1000);
    for (const a of await onEvery(fleet, made.key)) expect(a.body.error.code).toBe('api_key_revoked');
  }, 60_000);

  it('keys list with REDIS_URL reports the month count the servers made', async () => {
    const { key, accountId } = await fleet.createKey('listed@example.com', 'trial');
    await knownEverywhere(fleet, key);
    for (const a of await onEvery(fleet, key)) expect(a.status).toBe(200);
    expect(await fleet.monthCount(accountId)).toBe(3);
    const listed = await fleet.cli(['keys', 'list', '--email', 'listed@example.com']);
    expect(listed.code, listed.stderr).toBe(0);
    const line = JSON.parse(listed.stdout.trim());
    expect(line).toMatchObject({ accountId, plan: 'trial', revokedAt: null });
    expect(line.accountRequestsThisMonth).toBe(3);
  }, 60_000);

  it('the dashboard: signed in on one server, a key made on another, its usage shown and revoked on a third, all within a second', async () => {
    const newKeyOf = (text: string): string => /<code class="new-key">(mk_[0-9A-Za-z]{32})<\/code>/.exec(text)![1];
    const revokeIds = (text: string): string[] => [...text.matchAll(/action="\/dashboard\/keys\/([0-9a-f]{16})\/revoke"/g)].map((m) => m[1]);
    const origin = 'http://fleet.localhost';
    /** The same browser (cookies, form token, address) sent by the load balancer to another server. */
    const moveTo = (from: DashboardBrowser | undefined, server: number): DashboardBrowser => {
      const next = new DashboardBrowser(fleet.servers[server].baseUrl, origin, from?.clientAddress);
      for (const [name, value] of from?.cookies ?? []) next.cookies.set(name, value);
      next.csrf = from?.csrf ?? '';
      return next;
    };
    // The code is mailed by the server that was asked (outbox mode: its own DATA_DIR/outbox) and entered on another.
    let browser = moveTo(undefined, 0);
    expect((await browser.askCode('dana@example.com')).status).toBe(200);
    const mail = await outboxMail(fleet.servers[0].dataDir, 'dana@example.com');
    browser = moveTo(browser, 1);
    const signedIn = await browser.post('/dashboard/sign-in/code', { code: mail.code });
    expect(signedIn.status).toBe(303);
    // The session is valid on every server.
    for (const server of [2, 0, 1]) {
      browser = moveTo(browser, server);
      const home = await browser.get('/dashboard');
      expect(home.status).toBe(200);
      expect(home.text).toContain('dana@example.com');
    }

    browser = moveTo(browser, 2);
    await browser.get('/dashboard/keys');
    const created = await browser.post('/dashboard/keys', { name: 'fleet key' });
    expect(created.status).toBe(200);
    const key = newKeyOf(created.text);
    // A new account is on trial (10 a minute): the checks' own 200s are counted, and a 429 also says the key is known.
    let admitted = 0;
    const known = async (): Promise<boolean> => {
      const answers = await onEvery(fleet, key);
      admitted += answers.filter((a) => a.status === 200).length;
      return answers.every((a) => a.status === 200 || a.status === 429);
    };
    expect(await within(1000, 'the dashboard key everywhere', known)).toBeLessThanOrEqual(1000);
    expect(admitted).toBeGreaterThanOrEqual(3);

    // The usage page of another server shows the fleet's counts: this minute and this month.
    browser = moveTo(browser, 1);
    const usage = await browser.get('/dashboard/usage');
    expect(usage.status).toBe(200);
    expect(usage.text).toContain(`<span data-count="${admitted}" data-limit="10">`);
    expect(usage.text).toContain(`<span data-count="${admitted}" data-limit="1000">`);

    // Revoked on a third server.
    browser = moveTo(browser, 0);
    const list = await browser.get('/dashboard/keys');
    const id = revokeIds(list.text.split('<tr>').find((r) => r.includes('fleet key'))!)[0];
    expect(id).toBeDefined();
    const revoked = await browser.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes' });
    expect(revoked.status).toBe(303);
    expect(await within(1000, 'the dashboard revocation everywhere', async () => (await onEvery(fleet, key)).every((a) => a.status === 403))).toBeLessThanOrEqual(1000);
  }, 60_000);
});

/**
 * Requests in a loop on every living server (two at a time each) until stopped, noting each answer's status (0 for
 * none), time and the phase it was sent in.
 */
function steadyLoad(fleet: Fleet, key: string, perServer = 2) {
  let running = true;
  let phase = 'before';
  const seen: Array<{ server: number; status: number; ms: number; phase: string; error?: string }> = [];
  const loops = fleet.alive().flatMap((server) =>
    Array.from({ length: perServer }, async () => {
      while (running) {
        const sentIn = phase;
        const started = performance.now();
        try {
          const a = await fleet.request(API, { key, server });
          seen.push({ server, status: a.status, ms: a.ms, phase: sentIn });
        } catch (error) {
          seen.push({ server, status: 0, ms: performance.now() - started, phase: sentIn, error: String(error) });
          // A dead server is not asked again by this loop (a load balancer takes it out).
          if (!fleet.alive().includes(server)) return;
          await sleep(20);
        }
      }
    }),
  );
  return {
    seen,
    setPhase(name: string) {
      phase = name;
    },
    async stop() {
      running = false;
      await Promise.all(loops);
      return seen;
    },
  };
}

const COMMAND_TIMEOUT_MS = 250;
/** A business plan nobody reaches: the fault tests count, they do not refuse. */
const UNLIMITED = { business: { perMinute: 1_000_000_000, perMonth: 1_000_000_000_000 } };

describe('kill -9 of Redis under load', () => {
  it('LIMITS_ON_REDIS_FAILURE=local: every request answered, none waits past the timeout, the counts merge back', async () => {
    const fleet = await startFleet({
      catalogDataDir: catalogDataDir(),
      plans: UNLIMITED,
      env: { LIMITS_ON_REDIS_FAILURE: 'local', REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) },
    });
    try {
      const { key, accountId } = await fleet.createKey('redis-crash@example.com', 'business');
      await within(5000, 'the key on every server', async () => (await onEvery(fleet, key)).every((a) => a.status === 200));
      const warmUp = await fleet.monthCount(accountId);

      const load = steadyLoad(fleet, key);
      await sleep(1500);
      load.setPhase('away');
      await fleet.killRedis();
      await sleep(2500);
      load.setPhase('back');
      await fleet.restartRedis();
      await sleep(2500);
      const seen = await load.stop();

      const byPhase = (phase: string) => seen.filter((s) => s.phase === phase);
      // Enough requests in each phase for the test to mean something.
      for (const phase of ['before', 'away', 'back']) expect(byPhase(phase).length, phase).toBeGreaterThanOrEqual(20);
      // Answered throughout: every request a 200, on every server.
      expect(seen.filter((s) => s.status !== 200)).toEqual([]);
      // No request waited on the dead Redis longer than the command timeout, beyond what the machine itself added to
      // the slowest request before the kill (a shared 2-core machine running four processes here).
      const slowestBefore = Math.max(...byPhase('before').map((s) => s.ms));
      const slowestSince = Math.max(...seen.filter((s) => s.phase !== 'before').map((s) => s.ms));
      expect(slowestSince).toBeLessThanOrEqual(COMMAND_TIMEOUT_MS + 500 + slowestBefore);

      // Back: what each server counted on its own while Redis was away is merged into Redis, once.
      const admitted = seen.length + warmUp;
      await within(10_000, 'the merged count', async () => (await fleet.monthCount(accountId).catch(() => -1)) >= admitted);
      expect(await fleet.monthCount(accountId)).toBe(admitted);
      await sleep(2000); // a second merge would show here
      expect(await fleet.monthCount(accountId)).toBe(admitted);
      // And Redis counts again: one more request is one more in Redis.
      expect((await fleet.request(API, { key })).status).toBe(200);
      expect(await fleet.monthCount(accountId)).toBe(admitted + 1);
    } finally {
      await fleet.stop();
    }
  }, 120_000);

  it('LIMITS_ON_REDIS_FAILURE=closed: 503 on every server while Redis is away, within the timeout; 200 again after', async () => {
    const fleet = await startFleet({
      catalogDataDir: catalogDataDir(),
      servers: 2,
      plans: UNLIMITED,
      env: { LIMITS_ON_REDIS_FAILURE: 'closed', REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), PUBLIC_BASE_URL: 'http://fleet.localhost' },
    });
    try {
      const { key } = await fleet.createKey('redis-closed@example.com', 'business');
      await within(5000, 'the key on every server', async () => (await onEvery(fleet, key)).every((a) => a.status === 200));
      const slowestBefore = Math.max(...(await Promise.all(Array.from({ length: 20 }, () => fleet.request(API, { key })))).map((a) => a.ms));

      await fleet.killRedis();
      await within(2000, '503 everywhere', async () => (await onEvery(fleet, key)).every((a) => a.status === 503));
      const away = await Promise.all(Array.from({ length: 40 }, () => fleet.request(API, { key })));
      for (const a of away) {
        expect(a.status).toBe(503);
        expect(a.body.error.code).toBe('service_unavailable');
        expect(a.ms).toBeLessThanOrEqual(COMMAND_TIMEOUT_MS + 500 + slowestBefore);
      }
      // What needs no count is still served.
      for (const server of fleet.alive()) expect((await fleet.request('/api/v1/openapi.json', { server })).status).toBe(200);
      // The load balancer's check never asks Redis: a Redis outage must not empty the pool.
      for (const server of fleet.alive()) {
        const ready = await fleet.request('/readyz', { server });
        expect(ready.status).toBe(200);
        expect(ready.body.status).toBe('ready');
      }
      // A dashboard page that needs Redis says so, in a page, with 503 (never a 500), and changes nothing.
      const browser = new DashboardBrowser(fleet.servers[0].baseUrl, 'http://fleet.localhost');
      const asked = await browser.askCode('redis-away@example.com');
      expect(asked.status).toBe(503);
      expect(asked.headers.get('retry-after')).toBe('1');
      expect(asked.text).toContain('Temporarily unavailable');

      await fleet.restartRedis();
      await within(5000, '200 again everywhere', async () => (await onEvery(fleet, key)).every((a) => a.status === 200));
    } finally {
      await fleet.stop();
    }
  }, 120_000);
});

describe('kill -9 of one server under load', () => {
  it('the other two keep answering, and every admitted request is counted in Redis', async () => {
    const fleet = await startFleet({ catalogDataDir: catalogDataDir(), plans: UNLIMITED });
    try {
      const { key, accountId } = await fleet.createKey('server-crash@example.com', 'business');
      await within(5000, 'the key on every server', async () => (await onEvery(fleet, key)).every((a) => a.status === 200));
      const warmUp = await fleet.monthCount(accountId);

      const load = steadyLoad(fleet, key);
      await sleep(1500);
      load.setPhase('after');
      await fleet.killServer(2);
      await sleep(2000);
      const seen = await load.stop();

      const survivors = seen.filter((s) => s.server !== 2);
      expect(survivors.filter((s) => s.phase === 'after').length).toBeGreaterThanOrEqual(20);
      expect(survivors.filter((s) => s.status !== 200)).toEqual([]);
      const onKilled = seen.filter((s) => s.server === 2);
      // Its two loops: answered until the kill, then one failure each at most (they stop asking).
      expect(onKilled.filter((s) => s.status === 0).length).toBeLessThanOrEqual(2);
      expect(onKilled.filter((s) => s.status !== 0 && s.status !== 200)).toEqual([]);

      // Counted in Redis before answered: every 200 is there; at most the requests cut off by the kill are there too.
      const answered = seen.filter((s) => s.status === 200).length + warmUp;
      const cutOff = onKilled.filter((s) => s.status === 0).length;
      const counted = await fleet.monthCount(accountId);
      expect(counted).toBeGreaterThanOrEqual(answered);
      expect(counted).toBeLessThanOrEqual(answered + cutOff);
      // The load balancer's view: round-robin over the two left, all answered.
      for (const a of await Promise.all(Array.from({ length: 10 }, () => fleet.request(API, { key })))) expect(a.status).toBe(200);
    } finally {
      await fleet.stop();
    }
  }, 120_000);
});
