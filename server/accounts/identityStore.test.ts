// The identity store over both implementations (embedded LMDB, Redis on a real redis-server), with an injected
// clock: hashes only, single use, expiry, five wrong codes, the browser binding, send counters and sessions.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AccountStore } from './accountStore.js';
import { codeHash, MAX_CODE_ATTEMPTS, newSignIn, randomToken, sha256, SIGN_IN_TTL_MS, type IdentityStore } from './identityStore.js';
import { STORE_KINDS, storeFixture } from '../../testing/storeFixture.js';

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const browser = randomToken();

describe.each(STORE_KINDS)('%s', (kind) => {
  const fixture = storeFixture(kind);
  let store: IdentityStore;
  let accounts: AccountStore;

  beforeEach(async () => {
    const stores = await fixture.open();
    store = stores.identity;
    accounts = stores.accounts;
  });

  async function request(email = 'a@example.com', browserToken = browser, now = T0) {
    const made = newSignIn(email, browserToken, now);
    await store.createSignIn(made.input);
    return made;
  }

  describe('the identity store', () => {
    it('keeps only hashes: neither the code, the link token nor the browser cookie is written', async () => {
      const { code, linkToken, input } = await request();
      expect(input.codeHash).toBe(codeHash(input.id, code));
      expect(input.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(input.linkHash).toBe(sha256(linkToken));
      expect(input.browserHash).toBe(sha256(browser));
      const token = randomToken();
      await store.createSession(sha256(token), { accountId: 'acc_1', createdAt: T0, expiresAt: T0 + 1000, csrfSecret: 'secret' });
      const bytes = await fixture.storedText();
      expect(bytes).not.toContain(linkToken);
      expect(bytes).not.toContain(browser);
      expect(bytes).not.toContain(token);
      expect(bytes).toContain(input.linkHash);
      expect(bytes).toContain(sha256(token));
      // A code is salted with its request: the same code of another request hashes differently.
      expect(codeHash('sir_a', '123456')).not.toBe(codeHash('sir_b', '123456'));
    });

    it('signs in once with the right code, from the browser that asked only', async () => {
      const { code } = await request('someone@example.com');
      expect(await store.redeemCode(sha256(randomToken()), code, T0 + 1000)).toEqual({ ok: false, reason: 'none' });
      const result = await store.redeemCode(sha256(browser), code, T0 + 1000);
      expect(result).toMatchObject({ ok: true, email: 'someone@example.com' });
      expect(await store.redeemCode(sha256(browser), code, T0 + 2000)).toEqual({ ok: false, reason: 'used' });
    });

    it('lets a code expire after ten minutes (injected clock)', async () => {
      const { code } = await request();
      expect(await store.redeemCode(sha256(browser), code, T0 + SIGN_IN_TTL_MS)).toEqual({ ok: false, reason: 'expired' });
      const again = await request();
      expect(await store.redeemCode(sha256(browser), again.code, T0 + SIGN_IN_TTL_MS - 1)).toMatchObject({ ok: true });
    });

    it('takes five wrong codes, then refuses even the right one', async () => {
      const { code } = await request();
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 1; i <= MAX_CODE_ATTEMPTS; i++) {
        expect(await store.redeemCode(sha256(browser), wrong, T0 + i)).toEqual({ ok: false, reason: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - i });
      }
      expect(await store.redeemCode(sha256(browser), code, T0 + 10)).toEqual({ ok: false, reason: 'locked' });
      expect(await store.redeemCode(sha256(browser), wrong, T0 + 11)).toEqual({ ok: false, reason: 'locked' });
      expect(MAX_CODE_ATTEMPTS).toBe(5); // the contract's number
    });

    it('uses the latest request of a browser for codes; a new request starts with five tries again', async () => {
      const first = await request();
      const second = await request('a@example.com', browser, T0 + 1000);
      if (first.code !== second.code) expect(await store.redeemCode(sha256(browser), first.code, T0 + 2000)).toMatchObject({ ok: false, reason: 'wrong' });
      expect(await store.redeemCode(sha256(browser), second.code, T0 + 2000)).toMatchObject({ ok: true });
    });

    it('peeks at a link without consuming it; the link signs in once; it expires; a locked request refuses it', async () => {
      const { linkToken, code } = await request('link@example.com');
      const hash = sha256(linkToken);
      expect(await store.peekLink(hash, T0 + 1)).toEqual({ state: 'valid', email: 'link@example.com', expiresAt: T0 + SIGN_IN_TTL_MS });
      expect(await store.peekLink(hash, T0 + 2)).toMatchObject({ state: 'valid' });
      expect(await store.redeemLink(hash, T0 + 3)).toMatchObject({ ok: true, email: 'link@example.com' });
      expect(await store.redeemLink(hash, T0 + 4)).toEqual({ ok: false, reason: 'used' });
      expect(await store.peekLink(hash, T0 + 5)).toEqual({ state: 'used' });
      // The code of a request whose link was used is used too.
      expect(await store.redeemCode(sha256(browser), code, T0 + 6)).toEqual({ ok: false, reason: 'used' });

      const late = await request('late@example.com', randomToken());
      expect(await store.peekLink(sha256(late.linkToken), T0 + SIGN_IN_TTL_MS)).toEqual({ state: 'expired' });
      expect(await store.redeemLink(sha256(late.linkToken), T0 + SIGN_IN_TTL_MS)).toEqual({ ok: false, reason: 'expired' });
      expect(await store.redeemLink(sha256(randomToken()), T0)).toEqual({ ok: false, reason: 'none' });

      const other = randomToken();
      const locked = await request('locked@example.com', other);
      for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await store.redeemCode(sha256(other), locked.code === '999999' ? '999998' : '999999', T0 + 1);
      expect(await store.peekLink(sha256(locked.linkToken), T0 + 2)).toEqual({ state: 'locked' });
      expect(await store.redeemLink(sha256(locked.linkToken), T0 + 2)).toEqual({ ok: false, reason: 'locked' });
    });

    it('counts sends in a fixed window and refuses past the limit without counting the refusal', async () => {
      const hour = 3_600_000;
      const x = [{ key: 'send:address:x', limit: 5 }];
      for (let i = 0; i < 5; i++) expect(await store.hit(x, hour, T0 + i)).toBe(true);
      expect(await store.hit(x, hour, T0 + 10)).toBe(false);
      expect(await store.hit([{ key: 'send:address:y', limit: 5 }], hour, T0 + 10)).toBe(true);
      expect(await store.hit(x, hour, T0 + hour - 1)).toBe(false);
      expect(await store.hit(x, hour, T0 + hour)).toBe(true);
    });

    it('counts against two limits all or nothing: a send refused by one uses up nothing of the other', async () => {
      const hour = 3_600_000;
      const send = (address: string) => [
        { key: `send:address:${address}`, limit: 2 },
        { key: 'send:client:c', limit: 4 },
      ];
      expect(await store.hit(send('a'), hour, T0)).toBe(true);
      expect(await store.hit(send('a'), hour, T0 + 1)).toBe(true);
      // The address's limit refuses: the client's counter does not move, however often it is tried.
      for (let i = 0; i < 5; i++) expect(await store.hit(send('a'), hour, T0 + 2 + i)).toBe(false);
      expect(await store.hit(send('b'), hour, T0 + 10)).toBe(true);
      expect(await store.hit(send('c'), hour, T0 + 11)).toBe(true);
      // Four counted for the client: now its limit refuses, and the new address's counter does not move either.
      expect(await store.hit(send('d'), hour, T0 + 12)).toBe(false);
      expect(await store.hit([{ key: 'send:address:d', limit: 1 }], hour, T0 + 13)).toBe(true);
      // A window that ended starts afresh for each counter.
      expect(await store.hit(send('a'), hour, T0 + hour)).toBe(true);
    });

    it('keeps sessions until they expire or end, and purges what expired', async () => {
      const token = sha256(randomToken());
      await store.createSession(token, { accountId: 'acc_1', createdAt: T0, expiresAt: T0 + 1000, csrfSecret: 's' });
      expect(await store.session(token, T0 + 999)).toMatchObject({ accountId: 'acc_1' });
      expect(await store.session(token, T0 + 1000)).toBeUndefined();
      const kept = sha256(randomToken());
      await store.createSession(kept, { accountId: 'acc_2', createdAt: T0, expiresAt: T0 + 10_000, csrfSecret: 's' });
      await store.endSession(kept);
      expect(await store.session(kept, T0 + 1)).toBeUndefined();

      const live = sha256(randomToken());
      await store.createSession(live, { accountId: 'acc_3', createdAt: T0, expiresAt: T0 + SIGN_IN_TTL_MS * 10, csrfSecret: 's' });
      await request();
      await store.hit([{ key: 'k', limit: 1 }], 1000, T0);
      expect(await store.purgeExpired(T0 + SIGN_IN_TTL_MS)).toBe(3); // the expired session, the request, the counter
      expect(await store.session(live, T0 + SIGN_IN_TTL_MS)).toMatchObject({ accountId: 'acc_3' });
    });
  });

  describe('accounts made by sign-in', () => {
    it('ensureAccount makes a trial account without a key once, then finds it; accountById reads it', async () => {
      const version = accounts.version();
      const made = await accounts.ensureAccount(' New@Example.com ');
      // The address as typed (trimmed) is kept; it is found by its key (emailKeys.test.ts).
      expect(made).toMatchObject({ newAccount: true, account: { email: 'New@Example.com', plan: 'trial' } });
      expect(accounts.version()).toBe(version + 1);
      expect(await accounts.ensureAccount('new@example.com')).toEqual({ newAccount: false, account: made.account });
      expect(accounts.accountById(made.account.id)).toEqual(made.account);
      expect([...accounts.allKeys().values()].filter((k) => k.accountId === made.account.id)).toEqual([]);
      // A key made later (CLI or dashboard) lands on the same account.
      expect((await accounts.createKey('new@example.com')).account.id).toBe(made.account.id);
    });
  });
});
