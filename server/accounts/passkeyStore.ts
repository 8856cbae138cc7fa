// Passkeys (WebAuthn credentials) and the challenges of their ceremonies, behind one interface: the embedded
// implementation is LMDB on the accounts environment (lmdbPasskeyStore.ts); fleet mode puts Redis behind the same
// methods (redisPasskeyStore.ts), so every method is Awaitable; openStores.ts builds one or the other. Values in,
// values out; times are milliseconds since the epoch, given by the caller.
//
// A credential holds nothing secret (a public key), but a challenge is single use: `takeChallenge` removes it in the
// same transaction that reads it, so a ceremony's response can be checked once, and a replayed response finds no
// challenge. Counters only move forward (`recordUse` refuses a counter that did not grow, unless the authenticator
// keeps none: 0).
import type { Awaitable } from './awaitable.js';

/** How long a ceremony's challenge may be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export interface PasskeyCredential {
  /** The credential id, base64url (as the browser gives it). */
  id: string;
  accountId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen (0: the authenticator keeps none). */
  counter: number;
  /** How the browser may reach the authenticator (`internal`, `hybrid`, `usb`…), as registered. */
  transports: string[];
  /** `singleDevice` or `multiDevice` (a synced passkey). */
  deviceType: string;
  backedUp: boolean;
  /** The account's WebAuthn user handle (random, base64url; never the e-mail), as the authenticator keeps it. */
  userHandle: string;
  /** The name the user gave it, shown on the passkeys page. */
  name: string;
  createdAt: number;
  lastUsedAt?: number;
}

/** What a ceremony's challenge is for, and the browser it is bound to. */
export type ChallengePurpose = 'register' | 'authenticate';

export interface StoredChallenge {
  challenge: string;
  purpose: ChallengePurpose;
  expiresAt: number;
}

/** Why `recordUse` refused. */
export type UseRefusal = 'gone' | 'counter';

export interface PasskeyStore {
  /** The account's user handle, made (random) on first use. */
  userHandle(accountId: string): Awaitable<string>;
  /** Stores a new credential; false when its id is registered already (to anyone). */
  addCredential(credential: PasskeyCredential): Awaitable<boolean>;
  credential(id: string): Awaitable<PasskeyCredential | undefined>;
  /** The account's credentials, oldest first. */
  credentials(accountId: string): Awaitable<PasskeyCredential[]>;
  /** Removes one of the account's credentials; false when it has none of that id. */
  removeCredential(accountId: string, id: string): Awaitable<boolean>;
  /**
   * Records a successful sign-in with a credential: the new counter and the time. Refused when the credential was
   * removed meanwhile, or when the counter did not grow past the stored one (a cloned authenticator or a replay that
   * raced the first use); a counter of 0 on both sides means the authenticator keeps none.
   */
  recordUse(id: string, counter: number, backedUp: boolean, now: number): Awaitable<{ ok: true } | { ok: false; reason: UseRefusal }>;
  /** Stores the challenge of a ceremony for a binding (a browser or a session); it replaces the binding's previous one. */
  putChallenge(binding: string, challenge: StoredChallenge): Awaitable<void>;
  /** Removes and returns the binding's challenge for this purpose, unless it expired (it is removed all the same). */
  takeChallenge(binding: string, purpose: ChallengePurpose, now: number): Awaitable<StoredChallenge | undefined>;
  /** Forgets expired challenges; returns how many went (Redis: 0, its TTLs forget them). */
  purgeExpired(now: number): Awaitable<number>;
  close(): Promise<void>;
}
