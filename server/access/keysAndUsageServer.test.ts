// Keys made and revoked through the account store's account-scoped methods (as the dashboard makes them) against the
// real server, the day of last use and the daily usage as the running server writes them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountStore } from '../accounts/openStores.js';
import type { LmdbAccountStore } from '../accounts/lmdbAccountStore.js';
import { hashKey } from '../accounts/keys.js';
import { addDays } from '../accounts/usageHistory.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';

const PATH = '/api/v1/qibla?lat=41&lon=29';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const status = async (server: RunningServer, key: string) => {
  const res = await fetch(server.baseUrl + PATH, { headers: { 'X-API-Key': key } });
  await res.arrayBuffer();
  return res.status;
};

async function within<T>(ms: number, check: () => Promise<T | undefined> | T | undefined): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return { value, ms: Date.now() - started };
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(50);
  }
}

describe('keys and usage on a running server', () => {
  let server: RunningServer;
  let store: LmdbAccountStore;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-usage-plans-'));
    const plansFile = path.join(dir, 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
    server = await startServer({ PLANS_FILE: plansFile });
    store = openAccountStore(server.dataDir);
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it('a key made with createKeyFor works within a second, and its revocation gives 403 within a second', async () => {
    const { account } = store.createKey('owner@example.com', 'business');
    const { key, record } = store.createKeyFor(account.id, 'dashboard key');
    const works = await within(1000, async () => ((await status(server, key)) === 200 ? true : undefined));
    expect(works.ms).toBeLessThan(1000);
    // Another account cannot revoke it.
    const stranger = store.createKey('stranger@example.com', 'business').account;
    expect(store.revokeKeyOf(stranger.id, record.hash)).toBeUndefined();
    await sleep(600);
    expect(await status(server, key)).toBe(200);
    expect(store.revokeKeyOf(account.id, record.hash)!.revokedAt).toBeDefined();
    const refused = await within(1000, async () => ((await status(server, key)) === 403 ? true : undefined));
    expect(refused.ms).toBeLessThan(1000);
    const res = await fetch(server.baseUrl + PATH, { headers: { 'X-API-Key': key } });
    expect(((await res.json()) as any).error.code).toBe('api_key_revoked');
  });

  it('the day of last use appears within a few seconds of a request', async () => {
    const { account, key } = store.createKey('used@example.com', 'business');
    await within(1000, async () => ((await status(server, key)) === 200 ? true : undefined));
    for (let i = 0; i < 20; i++) expect(await status(server, key)).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const seen = await within(7000, () => store.keysOf(account.id).find((k) => k.hash === hashKey(key))?.lastUsedDay);
    expect([today, addDays(today, 1)]).toContain(seen.value); // (a run across midnight sees tomorrow)
  });

  it('requests counted on the API show up in dailyUsage for today after the writer’s flush', async () => {
    const { account, key } = store.createKey('daily@example.com', 'business');
    await within(1000, async () => ((await status(server, key)) === 200 ? true : undefined));
    for (let i = 0; i < 24; i++) expect(await status(server, key)).toBe(200);
    await sleep(600);
    const noKey = await fetch(server.baseUrl + PATH);
    expect(noKey.status).toBe(401); // not counted, and not anyone's
    const today = new Date().toISOString().slice(0, 10);
    // Every answered request was counted: 25 (the first 200 above included); 401s and failed attempts never count.
    // Summed over yesterday to tomorrow, so a run across midnight passes as well.
    const counted = await within(3000, () => {
      const days = store.dailyUsage(account.id, addDays(today, -1), addDays(today, 1));
      const total = days.reduce((sum, d) => sum + d.count, 0);
      const month = store.allUsage().get(account.id)?.monthCount;
      return total === 25 && month === 25 ? days : undefined;
    });
    expect(counted.value.find((d) => d.day === today)?.count).toBeGreaterThan(0);
  });
});
