// The passkey store on a real LMDB environment: credentials per account, user handles, removal, counters that only
// move forward, and challenges that are single use, bound and short-lived.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHALLENGE_TTL_MS, openPasskeyStore, type PasskeyCredential, type PasskeyStore } from './passkeyStore.js';

let store: PasskeyStore;
const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);

beforeEach(() => {
  store = openPasskeyStore(mkdtempSync(path.join(tmpdir(), 'passkeys-')));
});
afterEach(async () => {
  await store.close();
});

const credential = (id: string, accountId: string, over: Partial<PasskeyCredential> = {}): PasskeyCredential => ({
  id,
  accountId,
  publicKey: 'pk',
  counter: 0,
  transports: ['internal'],
  deviceType: 'singleDevice',
  backedUp: false,
  userHandle: store.userHandle(accountId),
  name: id,
  createdAt: T0,
  ...over,
});

describe('the passkey store', () => {
  it('makes one random user handle per account, not derived from anything', () => {
    const a = store.userHandle('acc_a');
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.userHandle('acc_a')).toBe(a);
    expect(store.userHandle('acc_b')).not.toBe(a);
  });

  it('lists an account’s credentials oldest first, refuses a duplicate id and removes only its own', () => {
    expect(store.addCredential(credential('c2', 'acc_a', { createdAt: T0 + 1 }))).toBe(true);
    expect(store.addCredential(credential('c1', 'acc_a'))).toBe(true);
    expect(store.addCredential(credential('c3', 'acc_ab'))).toBe(true);
    expect(store.addCredential(credential('c1', 'acc_b'))).toBe(false);
    expect(store.credentials('acc_a').map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(store.credentials('acc_ab').map((c) => c.id)).toEqual(['c3']);
    expect(store.removeCredential('acc_b', 'c1')).toBe(false);
    expect(store.removeCredential('acc_a', 'c1')).toBe(true);
    expect(store.credential('c1')).toBeUndefined();
    expect(store.credentials('acc_a').map((c) => c.id)).toEqual(['c2']);
  });

  it('moves counters forward only, and refuses a removed credential', () => {
    store.addCredential(credential('c1', 'acc_a', { counter: 3 }));
    expect(store.recordUse('c1', 3, false, T0 + 5)).toEqual({ ok: false, reason: 'counter' });
    expect(store.recordUse('c1', 4, true, T0 + 5)).toEqual({ ok: true });
    expect(store.credential('c1')).toMatchObject({ counter: 4, backedUp: true, lastUsedAt: T0 + 5 });
    store.addCredential(credential('zero', 'acc_a'));
    expect(store.recordUse('zero', 0, false, T0)).toEqual({ ok: true });
    expect(store.recordUse('zero', 0, false, T0)).toEqual({ ok: true });
    store.removeCredential('acc_a', 'c1');
    expect(store.recordUse('c1', 9, false, T0)).toEqual({ ok: false, reason: 'gone' });
  });

  it('hands a challenge out once, to its binding and purpose, before it expires', () => {
    const challenge = { challenge: 'x', purpose: 'authenticate' as const, expiresAt: T0 + CHALLENGE_TTL_MS };
    store.putChallenge('browser1', challenge);
    expect(store.takeChallenge('browser2', 'authenticate', T0)).toBeUndefined();
    expect(store.takeChallenge('browser1', 'register', T0)).toBeUndefined();
    expect(store.takeChallenge('browser1', 'authenticate', T0)).toEqual(challenge);
    expect(store.takeChallenge('browser1', 'authenticate', T0)).toBeUndefined();
    store.putChallenge('browser1', { ...challenge, challenge: 'old' });
    store.putChallenge('browser1', { ...challenge, challenge: 'new' });
    expect(store.takeChallenge('browser1', 'authenticate', T0)?.challenge).toBe('new');
    store.putChallenge('browser1', challenge);
    expect(store.takeChallenge('browser1', 'authenticate', T0 + CHALLENGE_TTL_MS)).toBeUndefined();
    store.putChallenge('b3', challenge);
    expect(store.purgeExpired(T0 + CHALLENGE_TTL_MS)).toBe(1);
    expect(store.takeChallenge('b3', 'authenticate', T0)).toBeUndefined();
  });
});
