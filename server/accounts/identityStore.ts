// Who is signed in, behind one interface: e-mail sign-in requests, sessions and the counters that limit sends. The
// embedded implementation is LMDB on the accounts environment (lmdbIdentityStore.ts); fleet mode puts Redis behind
// the same methods (redisIdentityStore.ts), so every method is Awaitable; openStores.ts builds one or the other. Values
// in, values out: the store keeps only hashes (SHA-256) of codes, link tokens, browser cookies and session tokens, so
// what it holds cannot sign anyone in. Times are milliseconds since the epoch, given by the caller (an injected clock
// in the tests).
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Awaitable } from './awaitable.js';

/** How long a code and its link work. */
export const SIGN_IN_TTL_MS = 10 * 60_000;
/** Wrong codes a request takes; the next attempt, right or wrong, is refused. */
export const MAX_CODE_ATTEMPTS = 5;
/** A session lasts this long from sign-in, used or not (fixed, not sliding: a read never writes). */
export const SESSION_TTL_MS = 30 * 86_400_000;

export interface SignInRequestInput {
  /** Random, made by newSignIn; salts the code's hash. */
  id: string;
  /** The address as typed (trimmed): the message goes to it, and sign-in finds the account by its key. */
  email: string;
  /** SHA-256 of the 6-digit code salted with the request id: codeHash(id, code). */
  codeHash: string;
  /** SHA-256 of the link's token. */
  linkHash: string;
  /** SHA-256 of the `__Host-signin` cookie of the browser that asked: only it may use the code. */
  browserHash: string;
  now: number;
  /** Defaults to SIGN_IN_TTL_MS. */
  ttlMs?: number;
}

export interface SignInRequest {
  id: string;
  email: string;
  codeHash: string;
  linkHash: string;
  browserHash: string;
  createdAt: number;
  expiresAt: number;
  /** Wrong codes so far. */
  failures: number;
  /** Set when the code or the link signed someone in. */
  usedAt?: number;
}

/** Why a code or link did not sign in. */
/** The stored record of a new sign-in request (both stores keep the same one). */
export const signInRequestOf = (input: SignInRequestInput): SignInRequest => ({
  id: input.id,
  email: input.email,
  codeHash: input.codeHash,
  linkHash: input.linkHash,
  browserHash: input.browserHash,
  createdAt: input.now,
  expiresAt: input.now + (input.ttlMs ?? SIGN_IN_TTL_MS),
  failures: 0,
});

export type SignInRefusal = 'none' | 'expired' | 'used' | 'locked' | 'wrong';

export type Redemption =
  | { ok: true; email: string; requestId: string }
  | { ok: false; reason: SignInRefusal; /** With `wrong`: attempts left before the request locks. */ attemptsLeft?: number };

/** What the link's confirmation page may say, without consuming anything. */
export type LinkState = { state: 'valid'; email: string; expiresAt: number } | { state: 'none' | 'expired' | 'used' | 'locked' };

export interface Session {
  accountId: string;
  createdAt: number;
  expiresAt: number;
  /** The secret the session's CSRF form token is derived from (never sent as it is). */
  csrfSecret: string;
}

/** A limit `hit` counts against: at most `limit` events under `key` in a window. */
export interface Limit {
  key: string;
  limit: number;
}

/** The most limits one `hit` takes (the Redis store has a script for each count). */
export const MAX_LIMITS_PER_HIT = 2;

export interface IdentityStore {
  /** Records a sign-in request; the browser's previous request, if any, no longer takes codes. */
  createSignIn(input: SignInRequestInput): Awaitable<SignInRequest>;
  /** Tries the code of the latest request of this browser: single use, expiring, 5 wrong codes then locked. */
  redeemCode(browserHash: string, code: string, now: number): Awaitable<Redemption>;
  /** What the link's token is worth now; reads only. */
  peekLink(linkHash: string, now: number): Awaitable<LinkState>;
  /** Signs in with the link's token: single use, expiring, refused once the request is locked. */
  redeemLink(linkHash: string, now: number): Awaitable<Redemption>;
  /**
   * Counts one event under the key of each limit, in fixed windows of `windowMs`, when every one counted fewer than
   * its `limit` in its window; returns whether it was counted. All or nothing, in one atomic step: an event refused by
   * one limit is counted by none (a send refused for its address uses up nothing of its client's).
   */
  hit(limits: readonly Limit[], windowMs: number, now: number): Awaitable<boolean>;
  /** Stores a session under its token's hash. */
  createSession(tokenHash: string, session: Session): Awaitable<void>;
  /** The session of a token's hash, unless it ended or expired. */
  session(tokenHash: string, now: number): Awaitable<Session | undefined>;
  endSession(tokenHash: string): Awaitable<void>;
  /** Forgets expired requests, sessions and counters; returns how many records went (Redis: 0, its TTLs forget them). */
  purgeExpired(now: number): Awaitable<number>;
  close(): Promise<void>;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A code is salted with its request's id, so equal codes of two requests hash differently. */
export const codeHash = (requestId: string, code: string): string => sha256(`${requestId}:${code}`);

/** An opaque random token (256 bits, base64url): session tokens, link tokens, browser cookies. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Six decimal digits, uniform, from the CSPRNG. */
export const randomCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

/**
 * A new sign-in request for an address and the browser whose `__Host-signin` cookie holds `browserToken`: the code and
 * the link token, to send (once, never stored), and the record to store (hashes only).
 */
export function newSignIn(email: string, browserToken: string, now: number, ttlMs = SIGN_IN_TTL_MS): { code: string; linkToken: string; input: SignInRequestInput } {
  const id = `sir_${randomBytes(12).toString('base64url')}`;
  const code = randomCode();
  const linkToken = randomToken();
  return { code, linkToken, input: { id, email, codeHash: codeHash(id, code), linkHash: sha256(linkToken), browserHash: sha256(browserToken), now, ttlMs } };
}

/** Whether two hex or base64url strings are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
