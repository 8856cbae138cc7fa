// The account store's keys (names, last four, revoking one's own, records from before names) and daily usage
// (increments in the writer's transaction, ranges, pruning), over both implementations (embedded LMDB in a data
// directory of its own, Redis on a real redis-server).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountStoreError, type AccountStore } from './accountStore.js';
import { openAccountStore } from './openStores.js';
import { openAccountsEnvironment } from './accountsEnvironment.js';
import { hashKey, keyIdOf, normalizeKeyName } from './keys.js';
import { addDays, daysFrom } from './usageHistory.js';
import { STORE_KINDS, storeFixture } from '../../testing/storeFixture.js';

describe.each(STORE_KINDS)('%s', (kind) => {
  const fixture = storeFixture(kind);
  const freshStore = async (): Promise<AccountStore> => (await fixture.open()).accounts;

  describe('keys with names and last four', () => {
    it('createKeyFor names a key, keeps its last four and prefix, and returns the key once', async () => {
      const store = await freshStore();
      const { account } = await store.createKey('a@example.com', 'pro', 'from the CLI');
      const { key, record } = await store.createKeyFor(account.id, '  Production   server ');
      expect(key).toMatch(/^mk_[0-9A-Za-z]{32}$/);
      expect(record).toMatchObject({ hash: hashKey(key), prefix: key.slice(0, 9), lastFour: key.slice(-4), name: 'Production server', accountId: account.id });
      expect(record.revokedAt).toBeUndefined();
      expect(JSON.stringify(store.keysOf(account.id))).not.toContain(key.slice(3));
      expect(store.keysOf(account.id).map((k) => k.name)).toEqual(['from the CLI', 'Production server']);
      expect(store.allKeys().get(record.hash)).toEqual(record);
      // Only the hash is stored, never the key.
      expect(await fixture.storedText()).not.toContain(key.slice(3));
    });

    it('the CLI default name, and names refused or trimmed', async () => {
      const store = await freshStore();
      const { account } = await store.createKey('b@example.com');
      expect(store.keysOf(account.id)[0].name).toBe('CLI key');
      await expect(Promise.resolve().then(() => store.createKeyFor(account.id, ' \n\t '))).rejects.toThrow(AccountStoreError);
      await expect(Promise.resolve().then(() => store.createKeyFor('acc_nobody', 'x'))).rejects.toThrow(AccountStoreError);
      expect(normalizeKeyName('a\u0000b\u2028c')).toBe('a b c');
      expect(normalizeKeyName('x'.repeat(100))).toHaveLength(60);
      expect(normalizeKeyName('x'.repeat(59) + ' y')).toBe('x'.repeat(59));
      expect(normalizeKeyName('😀'.repeat(70))).toBe('😀'.repeat(60)); // characters, not UTF-16 units
    });

    it('keeps names as given, in any script', async () => {
      const store = await freshStore();
      const { account } = await store.createKey('names@example.com', 'trial', 'Üretim 😀 "quoted" / slash');
      expect(store.keysOf(account.id)[0].name).toBe('Üretim 😀 "quoted" / slash');
      await store.revokeKeyOf(account.id, store.keysOf(account.id)[0].hash);
      expect(store.keysOf(account.id)[0].name).toBe('Üretim 😀 "quoted" / slash');
    });

    it('keysOf lists only the account’s own keys', async () => {
      const store = await freshStore();
      const a = (await store.createKey('a@example.com')).account;
      const b = (await store.createKey('b@example.com')).account;
      await store.createKeyFor(a.id, 'second');
      expect(store.keysOf(a.id)).toHaveLength(2);
      expect(store.keysOf(b.id)).toHaveLength(1);
      expect(store.keysOf(b.id)[0].accountId).toBe(b.id);
      expect(store.keysOf('acc_nobody')).toEqual([]);
    });

    it('revokes only the account’s own key, once, for good, and moves the version', async () => {
      const store = await freshStore();
      const a = (await store.createKey('a@example.com')).account;
      const b = (await store.createKey('b@example.com')).account;
      const theirs = store.keysOf(b.id)[0];
      const version = store.version();
      expect(await store.revokeKeyOf(a.id, theirs.hash)).toBeUndefined();
      expect(store.keysOf(b.id)[0].revokedAt).toBeUndefined();
      expect(store.version()).toBe(version);
      const ours = store.keysOf(a.id)[0];
      const revoked = (await store.revokeKeyOf(a.id, ours.hash))!;
      expect(revoked.revokedAt).toBeDefined();
      expect(store.version()).toBe(version + 1);
      // Again: nothing changes, the first revocation's time stays.
      expect((await store.revokeKeyOf(a.id, ours.hash))!.revokedAt).toBe(revoked.revokedAt);
      expect(store.version()).toBe(version + 1);
      expect(store.allKeys().get(ours.hash)!.revokedAt).toBe(revoked.revokedAt);
    });

    it('revokes by whole key or display prefix (the CLI), and refuses an ambiguous or unknown one', async () => {
      const store = await freshStore();
      const { key } = await store.createKey('c@example.com');
      await expect(Promise.resolve().then(() => store.revoke('mk_'))).rejects.toThrow(AccountStoreError);
      await expect(Promise.resolve().then(() => store.revoke('mk_' + 'Z'.repeat(32)))).rejects.toThrow(/no key matches/);
      expect((await store.revoke(key.slice(0, 9))).revokedAt).toBeDefined();
      expect((await store.revoke(key)).revokedAt).toBeDefined();
    });

    it('moves plans by address and by id, and the version with them', async () => {
      const store = await freshStore();
      const { account } = await store.createKey('plan@example.com');
      const version = store.version();
      expect(await store.setPlan('Plan@Example.com', 'pro')).toMatchObject({ id: account.id, plan: 'pro' });
      expect(store.accountById(account.id)!.plan).toBe('pro');
      expect(store.version()).toBe(version + 1);
      expect(await store.setPlanById(account.id, 'pro')).toMatchObject({ plan: 'pro' });
      expect(store.version()).toBe(version + 1); // no change, no move
      await expect(Promise.resolve().then(() => store.setPlan('nobody@example.com', 'pro'))).rejects.toThrow(AccountStoreError);
      await expect(Promise.resolve().then(() => store.setPlanById('acc_nobody', 'pro'))).rejects.toThrow(AccountStoreError);
    });

    it('keyUsed keeps the latest day and does not move the version (no thread reloads for it)', async () => {
      const store = await freshStore();
      const { key, account } = await store.createKey('a@example.com');
      const version = store.version();
      await store.keyUsed([[hashKey(key), '2026-11-20']]);
      await store.keyUsed([[hashKey(key), '2026-11-19'], ['0'.repeat(64), '2026-11-20']]);
      expect(store.keysOf(account.id)[0].lastUsedDay).toBe('2026-11-20');
      await store.revokeKeyOf(account.id, hashKey(key));
      await store.keyUsed([[hashKey(key), '2026-11-21']]);
      const record = store.keysOf(account.id)[0];
      expect(record.lastUsedDay).toBe('2026-11-21');
      expect(record.revokedAt).toBeDefined(); // a note of use never undoes a revocation
      expect(store.version()).toBe(version + 1); // the revocation's move only
    });
  });

  describe('daily usage', () => {
    it('adds the writer’s increments to days, in the same write as the monthly counts', async () => {
      const store = await freshStore();
      const { account } = await store.createKey('a@example.com');
      const usage = { month: '2026-11', monthCount: 7, windowStart: 0, windowCount: 0 };
      await store.writeUsage([[account.id, usage]], [[account.id, '2026-11-22', 4], [account.id, '2026-11-22', 3], [account.id, '2026-11-21', 2], ['acc_other', '2026-11-22', 9]]);
      await store.writeUsage([], [[account.id, '2026-11-22', 1], [account.id, '2026-11-20', 0]]);
      // The monthly counts: the embedded store keeps them; in fleet mode they are the ledger's, in Redis.
      if (kind === 'lmdb') expect(store.allUsage().get(account.id)).toEqual(usage);
      else expect(store.allUsage().size).toBe(0);
      expect(await store.dailyUsage(account.id, '2026-11-19', '2026-11-23')).toEqual([
        { day: '2026-11-19', count: 0 },
        { day: '2026-11-20', count: 0 },
        { day: '2026-11-21', count: 2 },
        { day: '2026-11-22', count: 8 },
        { day: '2026-11-23', count: 0 },
      ]);
      expect(await store.dailyUsage('acc_other', '2026-11-22', '2026-11-22')).toEqual([{ day: '2026-11-22', count: 9 }]);
      expect(await store.dailyUsage(account.id, '2026-11-23', '2026-11-22')).toEqual([]);
      await expect(Promise.resolve().then(() => store.dailyUsage(account.id, '2020-01-01', '2026-01-01'))).rejects.toThrow(AccountStoreError);
    });

    it('prunes the days before a day, for every account', async () => {
      const store = await freshStore();
      const days = daysFrom('2025-01-01', '2026-03-01');
      await store.writeUsage([], days.flatMap((day) => [['acc_a', day, 1] as [string, string, number], ['acc_b', day, 2] as [string, string, number]]));
      await store.pruneDailyUsage('2026-02-27');
      expect((await store.dailyUsage('acc_a', '2026-02-25', '2026-03-01')).map((d) => d.count)).toEqual([0, 0, 1, 1, 1]);
      expect((await store.dailyUsage('acc_b', '2026-02-25', '2026-03-01')).map((d) => d.count)).toEqual([0, 0, 2, 2, 2]);
      expect((await store.dailyUsage('acc_a', '2025-01-01', '2026-02-26')).every((d) => d.count === 0)).toBe(true);
    });
  });
});

describe('the LMDB account store', () => {
  const opened: AccountStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
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

    const store = openAccountStore(dir);
    opened.push(store);
    expect(store.keysOf(account.id)).toEqual([{ ...old, name: '', lastFour: '' }]);
    expect(store.allKeys().get(old.hash)).toEqual({ ...old, name: '', lastFour: '' });
    expect(keyIdOf(old.hash)).toBe(old.hash.slice(0, 16));
    expect(store.revokeKeyOf(account.id, old.hash)!.revokedAt).toBeDefined();
    expect(store.revoke(key.slice(0, 9)).name).toBe('');
  });
});

describe('day arithmetic', () => {
  it('over months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-11-22', -400)).toBe('2025-10-18');
    expect(daysFrom('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(() => addDays('2026-1-1', 1)).toThrow(RangeError);
  });
});
