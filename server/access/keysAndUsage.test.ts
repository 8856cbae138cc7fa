// Unit level, with the clock injected: the days of last use (noted in memory, written off the request path once
// per key and day), the daily usage the writer derives from the monthly counts (month boundary, restart,
// pruning), and the current counts the dashboard reads without counting.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAccountStore } from '../accounts/openStores.js';
import type { LmdbAccountStore } from '../accounts/lmdbAccountStore.js';
import { DEFAULT_PLANS } from '../accounts/plans.js';
import { AccessControl } from './access.js';
import { planQuota } from './quota.js';
import { SharedUsage } from './sharedUsage.js';
import { growth, UsageWriter } from './usageWriter.js';

const opened: LmdbAccountStore[] = [];
const freshStore = (): LmdbAccountStore => {
  const store = openAccountStore(mkdtempSync(path.join(tmpdir(), 'access-keys-usage-')));
  opened.push(store);
  return store;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const at = (iso: string): number => Date.parse(iso);
const bigPlan = planQuota({ perMinute: 1e9, perMonth: 1e12 });

describe('the day a key was last used', () => {
  it('is noted in memory per request and written once per key and day, off the request path', async () => {
    const store = freshStore();
    const { key, account } = store.createKey('a@example.com', 'business');
    const other = store.createKeyFor(account.id, 'second').key;
    const access = new AccessControl(store, DEFAULT_PLANS, SharedUsage.create(10));
    const writes = vi.spyOn(store, 'keyUsed');
    const day1 = at('2026-11-22T10:00:00Z');
    for (let i = 0; i < 1000; i++) access.authenticate('', i % 2 ? key : other, day1 + i);
    expect(writes).not.toHaveBeenCalled(); // nothing on the request path
    await access.writeLastUse();
    expect(writes).toHaveBeenCalledTimes(1);
    expect([...writes.mock.calls[0][0]]).toEqual(expect.arrayContaining([[expect.any(String), '2026-11-22']]));
    expect([...writes.mock.calls[0][0]]).toHaveLength(2);
    expect(store.keysOf(account.id).map((k) => k.lastUsedDay)).toEqual(['2026-11-22', '2026-11-22']);

    // The same day again: no write at all.
    for (let i = 0; i < 1000; i++) access.authenticate(`Bearer ${key}`, '', day1 + 60_000 + i);
    await access.writeLastUse();
    expect(writes).toHaveBeenCalledTimes(1);

    // The next UTC day: one more write, for the key that was used.
    access.admit('', key, at('2026-11-23T00:00:01Z'));
    await access.writeLastUse();
    expect(writes).toHaveBeenCalledTimes(2);
    const days = Object.fromEntries(store.keysOf(account.id).map((k) => [k.name, k.lastUsedDay]));
    expect(days).toEqual({ 'CLI key': '2026-11-23', second: '2026-11-22' });
  });

  it('a refused key is not noted; a failed write is retried by the next one', async () => {
    const store = freshStore();
    const { key, account } = store.createKey('a@example.com');
    store.revokeKeyOf(account.id, store.keysOf(account.id)[0].hash);
    const fresh = store.createKeyFor(account.id, 'fresh').key;
    const access = new AccessControl(store, DEFAULT_PLANS, SharedUsage.create(10));
    expect(() => access.authenticate('', key)).toThrow(/revoked/);
    const writes = vi.spyOn(store, 'keyUsed').mockRejectedValueOnce(new Error('disk full'));
    access.authenticate('', fresh, at('2026-11-22T10:00:00Z'));
    await access.writeLastUse();
    await access.writeLastUse();
    expect(writes).toHaveBeenCalledTimes(2);
    expect(store.keysOf(account.id).map((k) => k.lastUsedDay)).toEqual([undefined, '2026-11-22']);
  });
});

describe('daily usage from the writer', () => {
  const setup = (stored = new Map()) => {
    const store = freshStore();
    const table = SharedUsage.create(10);
    table.load(stored);
    let now = 0;
    const writer = new UsageWriter(store, table, stored, () => now);
    const count = (id: string, iso: string, n = 1) => {
      now = at(iso);
      for (let i = 0; i < n; i++) table.count(id, bigPlan, now, 1);
    };
    const flushAt = async (iso: string) => {
      now = at(iso);
      await writer.flush();
    };
    return { store, table, writer, count, flushAt };
  };

  it('adds each second’s growth of the monthly count to today', async () => {
    const { store, count, flushAt } = setup();
    count('acc_a', '2026-11-22T10:00:00Z', 5);
    count('acc_b', '2026-11-22T10:00:00Z', 2);
    await flushAt('2026-11-22T10:00:01Z');
    count('acc_a', '2026-11-22T10:00:01.5Z', 3);
    await flushAt('2026-11-22T10:00:02Z');
    await flushAt('2026-11-22T10:00:03Z'); // nothing changed: nothing added
    expect(store.dailyUsage('acc_a', '2026-11-22', '2026-11-22')).toEqual([{ day: '2026-11-22', count: 8 }]);
    expect(store.dailyUsage('acc_b', '2026-11-22', '2026-11-22')).toEqual([{ day: '2026-11-22', count: 2 }]);
    expect(store.allUsage().get('acc_a')!.monthCount).toBe(8);
  });

  it('carries over a month boundary: the old month’s last counts to its last day, the new month’s from zero', async () => {
    const { store, count, flushAt } = setup();
    count('acc_a', '2026-10-31T23:59:58Z', 5);
    await flushAt('2026-10-31T23:59:59Z');
    count('acc_a', '2026-10-31T23:59:59.5Z', 3);
    // The flush after midnight finds the record still of October: its growth goes to October's last day.
    await flushAt('2026-11-01T00:00:00.2Z');
    count('acc_a', '2026-11-01T00:00:00.5Z', 2);
    await flushAt('2026-11-01T00:00:01Z');
    count('acc_a', '2026-11-01T00:00:01.5Z', 4);
    await flushAt('2026-11-01T00:00:02Z');
    expect(store.dailyUsage('acc_a', '2026-10-31', '2026-11-01').map((d) => d.count)).toEqual([8, 6]);
    expect(store.allUsage().get('acc_a')).toMatchObject({ month: '2026-11', monthCount: 6 });
  });

  it('starts from the stored counts after a restart: nothing counted twice', async () => {
    const first = setup();
    first.count('acc_a', '2026-11-22T10:00:00Z', 5);
    await first.flushAt('2026-11-22T10:00:01Z');
    // A new writer over the same store, loaded as main.ts loads it.
    const stored = first.store.allUsage();
    const table = SharedUsage.create(10);
    table.load(stored);
    const writer = new UsageWriter(first.store, table, stored, () => at('2026-11-22T10:01:00Z'));
    table.count('acc_a', bigPlan, at('2026-11-22T10:00:59Z'), 1);
    await writer.flush();
    expect(first.store.dailyUsage('acc_a', '2026-11-22', '2026-11-22')[0].count).toBe(6);
  });

  it('keeps 400 days: older days are pruned once a day', async () => {
    const { store, count, flushAt } = setup();
    await store.writeUsage([], [['acc_a', '2025-10-17', 1], ['acc_a', '2025-10-18', 2], ['acc_a', '2026-11-21', 3]]);
    count('acc_a', '2026-11-22T10:00:00Z', 1);
    await flushAt('2026-11-22T10:00:01Z');
    expect(store.dailyUsage('acc_a', '2025-10-17', '2025-10-18').map((d) => d.count)).toEqual([0, 2]);
    expect(store.dailyUsage('acc_a', '2026-11-21', '2026-11-22').map((d) => d.count)).toEqual([3, 1]);
    // The next day prunes one more.
    await flushAt('2026-11-23T00:00:01Z');
    expect(store.dailyUsage('acc_a', '2025-10-18', '2025-10-18')[0].count).toBe(0);
  });

  it('growth: within a month, a new month, nothing', () => {
    expect(growth({ month: '2026-11', monthCount: 3 }, { month: '2026-11', monthCount: 5, windowStart: 0, windowCount: 0 })).toBe(2);
    expect(growth({ month: '2026-10', monthCount: 900 }, { month: '2026-11', monthCount: 4, windowStart: 0, windowCount: 0 })).toBe(4);
    expect(growth(undefined, { month: '2026-11', monthCount: 4, windowStart: 0, windowCount: 0 })).toBe(4);
    expect(growth({ month: '2026-11', monthCount: 4 }, { month: '2026-11', monthCount: 4, windowStart: 0, windowCount: 9 })).toBe(0);
  });
});

describe('the current counts, read without counting', () => {
  it('this minute and this month against the plan, an ended window or month reading zero', () => {
    const store = freshStore();
    const { key, account } = store.createKey('a@example.com', 'pro');
    const table = SharedUsage.create(10);
    const access = new AccessControl(store, DEFAULT_PLANS, table);
    const t = at('2026-11-22T10:00:00Z');
    expect(access.usageOf(account, t)).toMatchObject({ minuteCount: 0, monthCount: 0, perMinute: 60, perMonth: 100_000, minuteReset: 0, month: '2026-11' });
    for (let i = 0; i < 7; i++) access.admit('', key, t + i);
    const seen = access.usageOf(account, t + 20_000);
    expect(seen).toMatchObject({ minuteCount: 7, monthCount: 7, minuteReset: 40, monthReset: '2026-12-01T00:00:00Z' });
    expect(access.usageOf(account, t + 20_000)).toEqual(seen); // reading counts nothing
    expect(access.usageOf(account, t + 61_000)).toMatchObject({ minuteCount: 0, monthCount: 7, minuteReset: 0 });
    expect(access.usageOf(account, at('2026-12-01T00:00:00Z'))).toMatchObject({ minuteCount: 0, monthCount: 0, month: '2026-12' });
  });
});
