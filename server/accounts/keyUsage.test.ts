// Usage per key, operation and outcome in the account store, over both implementations: added counts sum (also from
// two servers on one Redis), reads by account and range, pruning (LMDB) or expiry (Redis); and the quota mail's claim,
// won once per account, month and level.
import { describe, expect, it } from 'vitest';
import type { AccountStore } from './accountStore.js';
import { KEY_USAGE_KEPT_DAYS, type KeyUsageEntry } from './keyUsage.js';
import { redisKeys } from './redisKeys.js';
import { STORE_KINDS, storeFixture } from '../../testing/storeFixture.js';

const sorted = (entries: KeyUsageEntry[]): KeyUsageEntry[] =>
  [...entries].sort((a, b) => `${a.day}${a.keyHash}${a.operation}${a.outcome}`.localeCompare(`${b.day}${b.keyHash}${b.operation}${b.outcome}`));

describe.each(STORE_KINDS)('%s', (kind) => {
  const fixture = storeFixture(kind);
  const freshStore = async (): Promise<AccountStore> => (await fixture.open()).accounts;
  const entry = (accountId: string, keyHash: string, day: string, operation: string, outcome: KeyUsageEntry['outcome'], requests: number): KeyUsageEntry => ({
    accountId,
    keyHash,
    day,
    operation,
    outcome,
    requests,
  });

  it('adds counts by key, operation, outcome and day, and reads one account’s over a range', async () => {
    const store = await freshStore();
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    await store.addKeyUsage([
      entry('acc_1', a, '2026-05-01', 'getPrayerTimes', '2xx', 3),
      entry('acc_1', a, '2026-05-01', 'getPrayerTimes', '4xx', 2),
      entry('acc_1', b, '2026-05-02', 'mcp', '429', 1),
      entry('acc_2', a, '2026-05-01', 'getQibla', '2xx', 7),
      entry('acc_1', a, '2026-05-03', 'getQibla', 'restricted', 0), // nothing
    ]);
    await store.addKeyUsage([entry('acc_1', a, '2026-05-01', 'getPrayerTimes', '2xx', 4), entry('acc_1', a, '2026-05-01', 'getPrayerTimes', 'restricted', 1)]);
    expect(sorted(await store.keyUsage('acc_1', '2026-05-01', '2026-05-03'))).toEqual(
      sorted([
        entry('acc_1', a, '2026-05-01', 'getPrayerTimes', '2xx', 7),
        entry('acc_1', a, '2026-05-01', 'getPrayerTimes', '4xx', 2),
        entry('acc_1', a, '2026-05-01', 'getPrayerTimes', 'restricted', 1),
        entry('acc_1', b, '2026-05-02', 'mcp', '429', 1),
      ]),
    );
    expect(await store.keyUsage('acc_1', '2026-05-02', '2026-05-02')).toEqual([entry('acc_1', b, '2026-05-02', 'mcp', '429', 1)]);
    expect(await store.keyUsage('acc_2', '2026-05-01', '2026-05-01')).toEqual([entry('acc_2', a, '2026-05-01', 'getQibla', '2xx', 7)]);
    expect(await store.keyUsage('acc_3', '2026-05-01', '2026-05-31')).toEqual([]);
  });

  if (kind === 'lmdb') {
    it('prunes the days before a day', async () => {
      const store = await freshStore();
      const a = 'a'.repeat(64);
      await store.addKeyUsage([entry('acc_1', a, '2026-04-30', 'getQibla', '2xx', 1), entry('acc_1', a, '2026-05-01', 'getQibla', '2xx', 2)]);
      await store.pruneKeyUsage('2026-05-01');
      expect(await store.keyUsage('acc_1', '2026-04-01', '2026-05-31')).toEqual([entry('acc_1', a, '2026-05-01', 'getQibla', '2xx', 2)]);
    });
  } else {
    it('sums what two servers add, and each day’s hash expires after the kept days', async () => {
      const one = await freshStore();
      const two = await freshStore();
      const a = 'a'.repeat(64);
      await Promise.all([one.addKeyUsage([entry('acc_1', a, '2026-05-01', 'getQibla', '2xx', 5)]), two.addKeyUsage([entry('acc_1', a, '2026-05-01', 'getQibla', '2xx', 6)])]);
      expect(await one.keyUsage('acc_1', '2026-05-01', '2026-05-01')).toEqual([entry('acc_1', a, '2026-05-01', 'getQibla', '2xx', 11)]);
      const ttl = await fixture.client.ttl(redisKeys.keyUsage('acc_1', '2026-05-01'));
      expect(ttl).toBeGreaterThan(KEY_USAGE_KEPT_DAYS * 86_400);
      expect(ttl).toBeLessThanOrEqual((KEY_USAGE_KEPT_DAYS + 1) * 86_400);
    });
  }

  it('claims a quota mail once per account, month and level, also from two store instances at once', async () => {
    const one = await freshStore();
    const two = await freshStore();
    const claims = await Promise.all([
      ...Array.from({ length: 5 }, () => one.claimQuotaAlert('acc_1', '2026-05', 80)),
      ...Array.from({ length: 5 }, () => two.claimQuotaAlert('acc_1', '2026-05', 80)),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await one.claimQuotaAlert('acc_1', '2026-05', 100)).toBe(true);
    expect(await two.claimQuotaAlert('acc_1', '2026-05', 100)).toBe(false);
    expect(await two.claimQuotaAlert('acc_1', '2026-06', 80)).toBe(true);
    expect(await two.claimQuotaAlert('acc_2', '2026-05', 80)).toBe(true);
  });
});
