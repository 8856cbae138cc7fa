// The account store's keys (names, last four, revoking one's own, records from before names) and daily usage
// (increments in the writer's transaction, ranges, pruning), on a data directory of its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountStoreError, openAccountStore, type AccountStore } from './accountStore.js';
import { openAccountsEnvironment } from './accountsEnvironment.js';
import { hashKey, keyIdOf, normalizeKeyName } from './keys.js';
import { addDays, daysFrom } from './usageHistory.js';

const opened: AccountStore[] = [];
const freshStore = (dir = mkdtempSync(path.join(tmpdir(), 'keys-usage-'))): AccountStore => {
  const store = openAccountStore(dir);
  opened.push(store);
  return store;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

describe('keys with names and last four', () => {
  it('createKeyFor names a key, keeps its last four and prefix, and returns the key once', () => {
    const store = freshStore();
    const { account } = store.createKey('a@example.com', 'pro', 'from the CLI');
    const { key, record } = store.createKeyFor(account.id, '  Production   server ');
    expect(key).toMatch(/^mk_[0-9A-Za-z]{32}$/);
    expect(record).toMatchObject({ hash: hashKey(key), prefix: key.slice(0, 9), lastFour: key.slice(-4), name: 'Production server', accountId: account.id });
    expect(record.revokedAt).toBeUndefined();
    expect(JSON.stringify(store.keysOf(account.id))).not.toContain(key.slice(3));
    expect(store.keysOf(account.id).map((k) => k.name)).toEqual(['from the CLI', 'Production server']);
    expect(store.allKeys().get(record.hash)).toEqual(record);
  });

  it('the CLI default name, and names refused or trimmed', () => {
    const store = freshStore();
    const { account } = store.createKey('b@example.com');
    expect(store.keysOf(account.id)[0].name).toBe('CLI key');
    expect(() => store.createKeyFor(account.id, ' \n\t ')).toThrow(AccountStoreError);
    expect(() => store.createKeyFor('acc_nobody', 'x')).toThrow(AccountStoreError);
    expect(normalizeKeyName('a\u0000b\u2028c')).toBe('a b c');
    expect(normalizeKeyName('x'.repeat(100))).toHaveLength(60);
    expect(normalizeKeyName('x'.repeat(59) + ' y')).toBe('x'.repeat(59));
    expect(normalizeKeyName('😀'.repeat(70))).toBe('😀'.repeat(60)); // characters, not UTF-16 units
  });

  it('keysOf lists only the account’s own keys', () => {
    const store = freshStore();
    const a = store.createKey('a@example.com').account;
    const b = store.createKey('b@example.com').account;
    store.createKeyFor(a.id, 'second');
    expect(store.keysOf(a.id)).toHaveLength(2);
    expect(store.keysOf(b.id)).toHaveLength(1);
    expect(store.keysOf(b.id)[0].accountId).toBe(b.id);
    expect(store.keysOf('acc_nobody')).toEqual([]);
  });

  it('revokes only the account’s own key, once, for good, and moves the version', () => {
    const store = freshStore();
    const a = store.createKey('a@example.com').account;
    const b = store.createKey('b@example.com').account;
    const theirs = store.keysOf(b.id)[0];
    const version = store.version();
    expect(store.revokeKeyOf(a.id, theirs.hash)).toBeUndefined();
    expect(store.keysOf(b.id)[0].revokedAt).toBeUndefined();
    expect(store.version()).toBe(version);
    const ours = store.keysOf(a.id)[0];
    const revoked = store.revokeKeyOf(a.id, ours.hash)!;
    expect(revoked.revokedAt).toBeDefined();
    expect(store.version()).toBe(version + 1);
    // Again: nothing changes, the first revocation's time stays.
    expect(store.revokeKeyOf(a.id, ours.hash)!.revokedAt).toBe(revoked.revokedAt);
    expect(store.version()).toBe(version + 1);
    expect(store.allKeys().get(ours.hash)!.revokedAt).toBe(revoked.revokedAt);
  });

  it('keyUsed keeps the latest day and does not move the version (no thread reloads for it)', async () => {
    const store = freshStore();
    const { key, account } = store.createKey('a@example.com');
    const version = store.version();
    await store.keyUsed([[hashKey(key), '2026-11-20']]);
    await store.keyUsed([[hashKey(key), '2026-11-19'], ['0'.repeat(64), '2026-11-20']]);
    expect(store.keysOf(account.id)[0].lastUsedDay).toBe('2026-11-20');
    store.revokeKeyOf(account.id, hashKey(key));
    await store.keyUsed([[hashKey(key), '2026-11-21']]);
    const record = store.keysOf(account.id)[0];
    expect(record.lastUsedDay).toBe('2026-11-21');
    expect(record.revokedAt).toBeDefined(); // a note of use never undoes a revocation
    expect(store.version()).toBe(version + 1); // the revocation's move only
  });

  it('loads records written before names and last fours, and indexes them by account', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keys-old-'));
    const environment = openAccountsEnvironment(dir);
    const account = { id: 'acc_0123456789abcdef', email: 'old@example.com', plan: 'pro', createdAt: '2026-01-01T00:00:00.000Z' };
    const key = 'mk_' + 'a'.repeat(28) + 'WXYZ';
    const old = { hash: hashKey(key), prefix: key.slice(0, 9), accountId: account.id, createdAt: '2026-01-02T00:00:00.000Z' };
    await environment.root.transaction(() => {
      void environment.database('accounts').put(account.id, account);
      void environment.database('emails').put(account.email, account.id);
      void environment.database('keys').put(old.hash, old);
      void environment.database('meta').put('version', 3);
    });
    await environment.close();

    const store = freshStore(dir);
    expect(store.keysOf(account.id)).toEqual([{ ...old, name: '', lastFour: '' }]);
    expect(store.allKeys().get(old.hash)).toEqual({ ...old, name: '', lastFour: '' });
    expect(keyIdOf(old.hash)).toBe(old.hash.slice(0, 16));
    expect(store.revokeKeyOf(account.id, old.hash)!.revokedAt).toBeDefined();
    expect(store.revoke(key.slice(0, 9)).name).toBe('');
  });
});

describe('daily usage', () => {
  it('adds the writer’s increments to days, in the same write as the monthly counts', async () => {
    const store = freshStore();
    const { account } = store.createKey('a@example.com');
    const usage = { month: '2026-11', monthCount: 7, windowStart: 0, windowCount: 0 };
    await store.writeUsage([[account.id, usage]], [[account.id, '2026-11-22', 4], [account.id, '2026-11-22', 3], [account.id, '2026-11-21', 2], ['acc_other', '2026-11-22', 9]]);
    await store.writeUsage([], [[account.id, '2026-11-22', 1], [account.id, '2026-11-20', 0]]);
    expect(store.allUsage().get(account.id)).toEqual(usage);
    expect(store.dailyUsage(account.id, '2026-11-19', '2026-11-23')).toEqual([
      { day: '2026-11-19', count: 0 },
      { day: '2026-11-20', count: 0 },
      { day: '2026-11-21', count: 2 },
      { day: '2026-11-22', count: 8 },
      { day: '2026-11-23', count: 0 },
    ]);
    expect(store.dailyUsage('acc_other', '2026-11-22', '2026-11-22')).toEqual([{ day: '2026-11-22', count: 9 }]);
    expect(store.dailyUsage(account.id, '2026-11-23', '2026-11-22')).toEqual([]);
    expect(() => store.dailyUsage(account.id, '2020-01-01', '2026-01-01')).toThrow(AccountStoreError);
  });

  it('prunes the days before a day, for every account', async () => {
    const store = freshStore();
    const days = daysFrom('2025-01-01', '2026-03-01');
    await store.writeUsage([], days.flatMap((day) => [['acc_a', day, 1] as [string, string, number], ['acc_b', day, 2] as [string, string, number]]));
    await store.pruneDailyUsage('2026-02-27');
    expect(store.dailyUsage('acc_a', '2026-02-25', '2026-03-01').map((d) => d.count)).toEqual([0, 0, 1, 1, 1]);
    expect(store.dailyUsage('acc_b', '2026-02-25', '2026-03-01').map((d) => d.count)).toEqual([0, 0, 2, 2, 2]);
    expect(store.dailyUsage('acc_a', '2025-01-01', '2026-02-26').every((d) => d.count === 0)).toBe(true);
  });

  it('day arithmetic over months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-11-22', -400)).toBe('2025-10-18');
    expect(daysFrom('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(() => addDays('2026-1-1', 1)).toThrow(RangeError);
  });
});
