// Accounts and their keys behind one interface: the embedded implementation is LMDB (lmdbAccountStore.ts); fleet
// mode puts Redis behind the same methods (redisAccountStore.ts); openStores.ts builds one or the other, so this file
// imports neither. Values in, values out. Reads are synchronous (the request path authenticates from them): Redis
// answers them from an in-memory mirror. Writes are Awaitable: LMDB answers at once, Redis over the network.
import type { Awaitable } from './awaitable.js';
import type { Usage } from './usage.js';
import type { PlanName } from './plans.js';
import type { UsageHistory } from './usageHistory.js';
import type { KeyRestrictions } from './keyRestrictions.js';
import type { KeyUsageHistory } from './keyUsage.js';

export interface Account {
  id: string;
  /** The address as first given (trimmed): where mail goes, what pages show; found by its emailKey (emailAddress.ts). */
  email: string;
  plan: PlanName;
  createdAt: string;
}

/** `allowedOrigins` and `allowedRanges` (keyRestrictions.ts): absent when the key is not restricted that way. */
export interface KeyRecord extends KeyRestrictions {
  /** SHA-256 of the key, hex. */
  hash: string;
  /** `mk_` and the first 6 characters: enough to tell keys apart, not to use one. */
  prefix: string;
  accountId: string;
  /** Given in the dashboard, or with the CLI's `--name` ("CLI key" by default). Records from before names: "". */
  name: string;
  /** The key's last 4 characters, for display (`mk_abc123…wxyz`). Records from before: "" (not recoverable). */
  lastFour: string;
  createdAt: string;
  revokedAt?: string;
  /** The last UTC day (`YYYY-MM-DD`) the key was accepted on the API or MCP, written at most once a day per thread. */
  lastUsedDay?: string;
}

/** What the dashboard's key settings change: the name (normalized by keys.ts) and both restriction lists. */
export interface KeySettings extends KeyRestrictions {
  name: string;
}

export class AccountStoreError extends Error {}

export { accountsPath } from './accountsEnvironment.js';

export interface AccountStore extends UsageHistory, KeyUsageHistory {
  /** Grows with every change to accounts or keys; a server reloads when it moves. */
  version(): number;
  /** Creates the account on first use of the e-mail address, else adds a key to it; the key is shown this once. */
  createKey(email: string, plan?: PlanName, name?: string): Awaitable<{ key: string; account: Account; newAccount: boolean }>;
  /** Revokes a key, given whole or by its unambiguous display prefix. */
  revoke(keyOrPrefix: string): Awaitable<KeyRecord>;
  /** The account of an address, created on a trial plan and without a key when the address is new (dashboard sign-in). */
  ensureAccount(email: string): Awaitable<{ account: Account; newAccount: boolean }>;
  setPlan(email: string, plan: PlanName): Awaitable<Account>;
  /** The same by account id (billing knows accounts by id). */
  setPlanById(id: string, plan: PlanName): Awaitable<Account>;
  /** The account of an address, compared by emailKey (`Ali@Example.com` finds `ali@example.com`; `ı@x` is not `I@x`). */
  accountByEmail(email: string): Account | undefined;
  accountById(id: string): Account | undefined;
  /** Every account by id; read it, never change it (the Redis store hands out its live mirror: no copy per change). */
  allAccounts(): ReadonlyMap<string, Account>;
  /** Every key by hash; read-only, as allAccounts. */
  allKeys(): ReadonlyMap<string, KeyRecord>;
  /** The persisted usage counts, loaded into the ledger at start (fleet mode: empty, the ledger keeps them in Redis). */
  allUsage(): Map<string, Usage>;
  /**
   * Every account's monthly counts as they stand, for showing (the CLI's `keys list`): the persisted records when
   * embedded, the ledger's records in Redis in fleet mode (where allUsage() is empty).
   */
  monthlyUsage(): Awaitable<ReadonlyMap<string, Usage>>;
  /**
   * Writes usage records and adds daily counts (`[accountId, day, requests]`) in one transaction, so the monthly
   * counts and the daily ones never disagree after a restart.
   */
  writeUsage(entries: Iterable<[string, Usage]>, daily?: Iterable<[string, string, number]>): Promise<void>;
  /** The keys of an account (active and revoked), oldest first. */
  keysOf(accountId: string): KeyRecord[];
  /** A new key for an existing account, named (see keys.ts's normalizeKeyName); the key is returned this once. */
  createKeyFor(accountId: string, name: string): Awaitable<{ key: string; record: KeyRecord }>;
  /**
   * Revokes a key of this account, by its hash; undefined when the account has no such key (another account's key
   * is never touched). Revoking a revoked key changes nothing.
   */
  revokeKeyOf(accountId: string, keyHash: string): Awaitable<KeyRecord | undefined>;
  /**
   * Renames a key of this account and sets its restrictions (lists already read by keyRestrictions.ts; an absent list
   * lifts that restriction); undefined when the account has no such key. Bumps the version like a revocation, so
   * every serving thread (and in fleet mode every server) applies it within a second.
   */
  updateKeyOf(accountId: string, keyHash: string, change: KeySettings): Awaitable<KeyRecord | undefined>;
  /**
   * Claims the account's quota mail of `level` (80 or 100, percent) for `month` (`YYYY-MM`): true for the one caller
   * that claims it first, in any thread or on any server (an LMDB write transaction; Redis SET NX), false after.
   */
  claimQuotaAlert(accountId: string, month: string, level: number): Awaitable<boolean>;
  /** Notes that keys were used on days (`[hash, YYYY-MM-DD]`); a day earlier than the stored one is ignored. */
  keyUsed(entries: Iterable<[string, string]>): Promise<void>;
  close(): Promise<void>;
}
