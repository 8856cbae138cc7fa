// The passkey store over both implementations (embedded LMDB, Redis on a real redis-server): credentials per account,
// user handles, removal, counters that only move forward, and challenges that are single use, bound and short-lived.
import { beforeEach, describe, expect, it } from 'vitest';
import { CHALLENGE_TTL_MS, type PasskeyCredential, type PasskeyStore } from './passkeyStore.js';
import { STORE_KINDS, storeFixture } from '../../testing/storeFixture.js';

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);

describe.each(STORE_KINDS)('%s', (kind) => {
  const fixture = storeFixture(kind);
  let store: PasskeyStore;

  beforeEach(async () => {
    store = (await fixture.open()).passkeys;
  });

  const credential = async (id: string, accountId: string, over: Partial<PasskeyCredential> = {}): Promise<PasskeyCredential> => ({
    id,
    accountId,
    publicKey: 'pk',
    counter: 0,
    transports: ['internal'],
    deviceType: 'singleDevice',
    backedUp: false,
    userHandle: await store.userHandle(accountId),
    name: id,
    createdAt: T0,
    ...over,
  });

  describe('the passkey store', () => {
    it('makes one random user handle per account, not derived from anything', async () => {
      const a = await store.userHandle('acc_a');
      expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await store.userHandle('acc_a')).toBe(a);
      expect(await store.userHandle('acc_b')).not.toBe(a);
    });

    it('lists an account’s credentials oldest first, refuses a duplicate id and removes only its own', async () => {
      expect(await store.addCredential(await credential('c2', 'acc_a', { createdAt: T0 + 1 }))).toBe(true);
      expect(await store.addCredential(await credential('c1', 'acc_a'))).toBe(true);
      expect(await store.addCredential(await credential('c3', 'acc_ab'))).toBe(true);
      expect(await store.addCredential(await credential('c1', 'acc_b'))).toBe(false);
      expect((await store.credentials('acc_a')).map((c) => c.id)).toEqual(['c1', 'c2']);
      expect((await store.credentials('acc_ab')).map((c) => c.id)).toEqual(['c3']);
      expect(await store.removeCredential('acc_b', 'c1')).toBe(false);
      expect(await store.removeCredential('acc_a', 'c1')).toBe(true);
      expect(await store.credential('c1')).toBeUndefined();
      expect((await store.credentials('acc_a')).map((c) => c.id)).toEqual(['c2']);
    });

    it('keeps a credential as given', async () => {
      const given = await credential('c9', 'acc_a', { transports: [], backedUp: true, counter: 7, deviceType: 'multiDevice' });
      await store.addCredential(given);
      expect(await store.credential('c9')).toEqual(given);
    });

    it('moves counters forward only, and refuses a removed credential', async () => {
      await store.addCredential(await credential('c1', 'acc_a', { counter: 3 }));
      expect(await store.recordUse('c1', 3, false, T0 + 5)).toEqual({ ok: false, reason: 'counter' });
      expect(await store.recordUse('c1', 4, true, T0 + 5)).toEqual({ ok: true });
      expect(await store.credential('c1')).toMatchObject({ counter: 4, backedUp: true, lastUsedAt: T0 + 5 });
      await store.addCredential(await credential('zero', 'acc_a'));
      expect(await store.recordUse('zero', 0, false, T0)).toEqual({ ok: true });
      expect(await store.recordUse('zero', 0, false, T0)).toEqual({ ok: true });
      await store.removeCredential('acc_a', 'c1');
      expect(await store.recordUse('c1', 9, false, T0)).toEqual({ ok: false, reason: 'gone' });
    });

    it('hands a challenge out once, to its binding and purpose, before it expires', async () => {
      const challenge = { challenge: 'x', purpose: 'authenticate' as const, expiresAt: T0 + CHALLENGE_TTL_MS };
      await store.putChallenge('browser1', challenge);
      expect(await store.takeChallenge('browser2', 'authenticate', T0)).toBeUndefined();
      expect(await store.takeChallenge('browser1', 'register', T0)).toBeUndefined();
      expect(await store.takeChallenge('browser1', 'authenticate', T0)).toEqual(challenge);
      expect(await store.takeChallenge('browser1', 'authenticate', T0)).toBeUndefined();
      await store.putChallenge('browser1', { ...challenge, challenge: 'old' });
      await store.putChallenge('browser1', { ...challenge, challenge: 'new' });
      expect((await store.takeChallenge('browser1', 'authenticate', T0))?.challenge).toBe('new');
      await store.putChallenge('browser1', challenge);
      expect(await store.takeChallenge('browser1', 'authenticate', T0 + CHALLENGE_TTL_MS)).toBeUndefined();
      await store.putChallenge('b3', challenge);
      expect(await store.purgeExpired(T0 + CHALLENGE_TTL_MS)).toBe(1);
      expect(await store.takeChallenge('b3', 'authenticate', T0)).toBeUndefined();
    });
  });
});
