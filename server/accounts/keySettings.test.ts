// A key's name and restrictions in the account store (updateKeyOf), over both implementations: stored with the key
// record, lifted by an absent list, only on the account's own key, moving the version (so serving threads reload),
// kept through a revocation and a day of last use; in fleet mode seen by another server within a second.
import { describe, expect, it } from 'vitest';
import { AccountStoreError, type AccountStore } from './accountStore.js';
import { hashKey } from './keys.js';
import { STORE_KINDS, storeFixture } from '../../testing/storeFixture.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function within(ms: number, check: () => boolean): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
}

describe.each(STORE_KINDS)('%s', (kind) => {
  const fixture = storeFixture(kind);
  const freshStore = async (): Promise<AccountStore> => (await fixture.open()).accounts;

  it('renames and restricts the account’s own key, moves the version, and lifts a list given as absent', async () => {
    const store = await freshStore();
    const { key, account } = await store.createKey('owner@example.com', 'pro', 'first');
    const hash = hashKey(key);
    const version = store.version();
    const updated = await store.updateKeyOf(account.id, hash, {
      name: '  Web   page ',
      allowedOrigins: ['https://app.example.com', 'https://*.example.org'],
      allowedRanges: ['203.0.113.0/24', '2001:db8::/32'],
    });
    expect(updated).toMatchObject({ hash, name: 'Web page', allowedOrigins: ['https://app.example.com', 'https://*.example.org'], allowedRanges: ['203.0.113.0/24', '2001:db8::/32'] });
    expect(store.version()).toBe(version + 1);
    expect(store.allKeys().get(hash)).toEqual(updated);
    expect(store.keysOf(account.id)[0]).toEqual(updated);

    // A day of last use and a revocation keep the lists.
    await store.keyUsed([[hash, '2026-05-01']]);
    expect(store.allKeys().get(hash)).toMatchObject({ lastUsedDay: '2026-05-01', allowedOrigins: ['https://app.example.com', 'https://*.example.org'] });

    const lifted = await store.updateKeyOf(account.id, hash, { name: 'Web page', allowedRanges: ['198.51.100.7/32'] });
    expect(lifted?.allowedOrigins).toBeUndefined();
    expect(lifted?.allowedRanges).toEqual(['198.51.100.7/32']);
    const none = await store.updateKeyOf(account.id, hash, { name: 'Web page', allowedOrigins: [], allowedRanges: [] });
    expect(none).not.toHaveProperty('allowedOrigins');
    expect(none).not.toHaveProperty('allowedRanges');
    expect(store.allKeys().get(hash)).toEqual(none);

    await store.updateKeyOf(account.id, hash, { name: 'Web page', allowedOrigins: ['https://app.example.com'] });
    await store.revokeKeyOf(account.id, hash);
    expect(store.allKeys().get(hash)).toMatchObject({ allowedOrigins: ['https://app.example.com'], revokedAt: expect.any(String) });
  });

  it('touches no other account’s key, and refuses an empty name', async () => {
    const store = await freshStore();
    const a = await store.createKey('a@example.com', 'trial', 'a key');
    const b = await store.createKey('b@example.com', 'trial', 'b key');
    const version = store.version();
    expect(await store.updateKeyOf(a.account.id, hashKey(b.key), { name: 'taken', allowedOrigins: ['https://evil.example'] })).toBeUndefined();
    expect(await store.updateKeyOf(a.account.id, 'f'.repeat(64), { name: 'none' })).toBeUndefined();
    expect(store.allKeys().get(hashKey(b.key))).toMatchObject({ name: 'b key' });
    expect(store.allKeys().get(hashKey(b.key))).not.toHaveProperty('allowedOrigins');
    expect(store.version()).toBe(version);
    await expect(Promise.resolve().then(() => store.updateKeyOf(a.account.id, hashKey(a.key), { name: ' \n ' }))).rejects.toThrow(AccountStoreError);
    expect(store.allKeys().get(hashKey(a.key))?.name).toBe('a key');
  });

  if (kind === 'redis') {
    it('another server sees a rename and a restriction within a second', async () => {
      const a = await freshStore();
      const b = await freshStore();
      const { key, account } = await a.createKey('shared@example.com', 'trial', 'first');
      const hash = hashKey(key);
      await within(1000, () => b.allKeys().get(hash) !== undefined);
      await a.updateKeyOf(account.id, hash, { name: 'renamed', allowedRanges: ['203.0.113.0/24'] });
      await within(1000, () => b.allKeys().get(hash)?.name === 'renamed');
      expect(b.allKeys().get(hash)?.allowedRanges).toEqual(['203.0.113.0/24']);
      expect(b.version()).toBe(a.version());
      await b.updateKeyOf(account.id, hash, { name: 'renamed' });
      await within(1000, () => a.allKeys().get(hash)?.allowedRanges === undefined);
    });
  }
});
