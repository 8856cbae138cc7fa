// The identity store on a real LMDB environment, with an injected clock: hashes only, single use, expiry, five wrong
// codes, the browser binding, send counters and sessions.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountsPath } from './accountsEnvironment.js';
import { openAccountStore } from './accountStore.js';
import { codeHash, MAX_CODE_ATTEMPTS, newSignIn, openIdentityStore, randomToken, sha256, SIGN_IN_TTL_MS, type IdentityStore } from './identityStore.js';

let dataDir: string;
let store: IdentityStore;
const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const browser = randomToken();

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'identity-'));
  store = openIdentityStore(dataDir);
});
afterEach(async () => {
  await store.close();
});

function request(email = 'a@example.com', browserToken = browser, now = T0) {
  const made = newSignIn(email, browserToken, now);
  store.createSignIn(made.input);
  return made;
}

/** Every byte the environment holds, as latin1 text. */
function storedBytes(): string {
  const dir = accountsPath(dataDir);
  return readdirSync(dir).map((f) => readFileSync(path.join(dir, f)).toString('latin1')).join('');
}

describe('the identity store', () => {
  it('keeps only hashes: neither the code, the link token nor the browser cookie is written', () => {
    const { code, linkToken, input } = request();
    expect(input.codeHash).toBe(codeHash(input.id, code));
    expect(input.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(input.linkHash).toBe(sha256(linkToken));
    expect(input.browserHash).toBe(sha256(browser));
    const token = randomToken();
    store.createSession(sha256(token), { accountId: 'acc_1', createdAt: T0, expiresAt: T0 + 1000, csrfSecret: 'secret' });
    const bytes = storedBytes();
    expect(bytes).not.toContain(linkToken);
    expect(bytes).not.toContain(browser);
    expect(bytes).not.toContain(token);
    expect(bytes).toContain(input.linkHash);
    expect(bytes).toContain(sha256(token));
    // A code is salted with its request: the same code of another request hashes differently.
    expect(codeHash('sir_a', '123456')).not.toBe(codeHash('sir_b', '123456'));
  });

  it('signs in once with the right code, from the browser that asked only', () => {
    const { code } = request('someone@example.com');
    expect(store.redeemCode(sha256(randomToken()), code, T0 + 1000)).toEqual({ ok: false, reason: 'none' });
    const result = store.redeemCode(sha256(browser), code, T0 + 1000);
    expect(result).toMatchObject({ ok: true, email: 'someone@example.com' });
    expect(store.redeemCode(sha256(browser), code, T0 + 2000)).toEqual({ ok: false, reason: 'used' });
  });

  it('lets a code expire after ten minutes (injected clock)', () => {
    const { code } = request();
    expect(store.redeemCode(sha256(browser), code, T0 + SIGN_IN_TTL_MS)).toEqual({ ok: false, reason: 'expired' });
    const again = request();
    expect(store.redeemCode(sha256(browser), again.code, T0 + SIGN_IN_TTL_MS - 1)).toMatchObject({ ok: true });
  });

  it('takes five wrong codes, then refuses even the right one', () => {
    const { code } = request();
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 1; i <= MAX_CODE_ATTEMPTS; i++) {
      expect(store.redeemCode(sha256(browser), wrong, T0 + i)).toEqual({ ok: false, reason: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - i });
    }
    expect(store.redeemCode(sha256(browser), code, T0 + 10)).toEqual({ ok: false, reason: 'locked' });
    expect(store.redeemCode(sha256(browser), wrong, T0 + 11)).toEqual({ ok: false, reason: 'locked' });
    expect(MAX_CODE_ATTEMPTS).toBe(5); // the contract's number
  });

  it('uses the latest request of a browser for codes; a new request starts with five tries again', () => {
    const first = request();
    const second = request('a@example.com', browser, T0 + 1000);
    if (first.code !== second.code) expect(store.redeemCode(sha256(browser), first.code, T0 + 2000)).toMatchObject({ ok: false, reason: 'wrong' });
    expect(store.redeemCode(sha256(browser), second.code, T0 + 2000)).toMatchObject({ ok: true });
  });

  it('peeks at a link without consuming it; the link signs in once; it expires; a locked request refuses it', () => {
    const { linkToken, code } = request('link@example.com');
    const hash = sha256(linkToken);
    expect(store.peekLink(hash, T0 + 1)).toEqual({ state: 'valid', email: 'link@example.com', expiresAt: T0 + SIGN_IN_TTL_MS });
    expect(store.peekLink(hash, T0 + 2)).toMatchObject({ state: 'valid' });
    expect(store.redeemLink(hash, T0 + 3)).toMatchObject({ ok: true, email: 'link@example.com' });
    expect(store.redeemLink(hash, T0 + 4)).toEqual({ ok: false, reason: 'used' });
    expect(store.peekLink(hash, T0 + 5)).toEqual({ state: 'used' });
    // The code of a request whose link was used is used too.
    expect(store.redeemCode(sha256(browser), code, T0 + 6)).toEqual({ ok: false, reason: 'used' });

    const late = request('late@example.com', randomToken());
    expect(store.peekLink(sha256(late.linkToken), T0 + SIGN_IN_TTL_MS)).toEqual({ state: 'expired' });
    expect(store.redeemLink(sha256(late.linkToken), T0 + SIGN_IN_TTL_MS)).toEqual({ ok: false, reason: 'expired' });
    expect(store.redeemLink(sha256(randomToken()), T0)).toEqual({ ok: false, reason: 'none' });

    const other = randomToken();
    const locked = request('locked@example.com', other);
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) store.redeemCode(sha256(other), locked.code === '999999' ? '999998' : '999999', T0 + 1);
    expect(store.peekLink(sha256(locked.linkToken), T0 + 2)).toEqual({ state: 'locked' });
    expect(store.redeemLink(sha256(locked.linkToken), T0 + 2)).toEqual({ ok: false, reason: 'locked' });
  });

  it('counts sends in a fixed window and refuses past the limit without counting the refusal', () => {
    const hour = 3_600_000;
    for (let i = 0; i < 5; i++) expect(store.hit('send:address:x', 5, hour, T0 + i)).toBe(true);
    expect(store.hit('send:address:x', 5, hour, T0 + 10)).toBe(false);
    expect(store.hit('send:address:y', 5, hour, T0 + 10)).toBe(true);
    expect(store.hit('send:address:x', 5, hour, T0 + hour - 1)).toBe(false);
    expect(store.hit('send:address:x', 5, hour, T0 + hour)).toBe(true);
  });

  it('keeps sessions until they expire or end, and purges what expired', () => {
    const token = sha256(randomToken());
    store.createSession(token, { accountId: 'acc_1', createdAt: T0, expiresAt: T0 + 1000, csrfSecret: 's' });
    expect(store.session(token, T0 + 999)).toMatchObject({ accountId: 'acc_1' });
    expect(store.session(token, T0 + 1000)).toBeUndefined();
    const kept = sha256(randomToken());
    store.createSession(kept, { accountId: 'acc_2', createdAt: T0, expiresAt: T0 + 10_000, csrfSecret: 's' });
    store.endSession(kept);
    expect(store.session(kept, T0 + 1)).toBeUndefined();

    const live = sha256(randomToken());
    store.createSession(live, { accountId: 'acc_3', createdAt: T0, expiresAt: T0 + SIGN_IN_TTL_MS * 10, csrfSecret: 's' });
    request();
    store.hit('k', 1, 1000, T0);
    expect(store.purgeExpired(T0 + SIGN_IN_TTL_MS)).toBe(3); // the expired session, the request, the counter
    expect(store.session(live, T0 + SIGN_IN_TTL_MS)).toMatchObject({ accountId: 'acc_3' });
  });
});

describe('accounts made by sign-in', () => {
  it('ensureAccount makes a trial account without a key once, then finds it; accountById reads it', async () => {
    const accounts = openAccountStore(dataDir);
    try {
      const version = accounts.version();
      const made = accounts.ensureAccount(' New@Example.com ');
      expect(made).toMatchObject({ newAccount: true, account: { email: 'new@example.com', plan: 'trial' } });
      expect(accounts.version()).toBe(version + 1);
      expect(accounts.ensureAccount('new@example.com')).toEqual({ newAccount: false, account: made.account });
      expect(accounts.accountById(made.account.id)).toEqual(made.account);
      expect([...accounts.allKeys().values()].filter((k) => k.accountId === made.account.id)).toEqual([]);
      // A key made later (CLI or dashboard) lands on the same account.
      expect(accounts.createKey('new@example.com').account.id).toBe(made.account.id);
    } finally {
      await accounts.close();
    }
  });
});
