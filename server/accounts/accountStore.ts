// Accounts and their keys behind one interface: the embedded implementation is LMDB (lmdbAccountStore.ts); fleet
// mode will put Redis behind the same methods. Values in, values out, synchronous reads on the request path.
import type { Usage } from './usage.js';
import { LmdbAccountStore } from './lmdbAccountStore.js';
import type { PlanName } from './plans.js';

export interface Account {
  id: string;
  email: string;
  plan: PlanName;
  createdAt: string;
}

export interface KeyRecord {
  /** SHA-256 of the key, hex. */
  hash: string;
  /** `mk_` and the first 6 characters: enough to tell keys apart, not to use one. */
  prefix: string;
  accountId: string;
  createdAt: string;
  revokedAt?: string;
}

export class AccountStoreError extends Error {}

export { accountsPath } from './accountsEnvironment.js';

export interface AccountStore {
  /** Grows with every change to accounts or keys; a server reloads when it moves. */
  version(): number;
  /** Creates the account on first use of the e-mail address, else adds a key to it; the key is shown this once. */
  createKey(email: string, plan?: PlanName): { key: string; account: Account; newAccount: boolean };
  /** Revokes a key, given whole or by its unambiguous display prefix. */
  revoke(keyOrPrefix: string): KeyRecord;
  /** The account of an address, created on a trial plan and without a key when the address is new (dashboard sign-in). */
  ensureAccount(email: string): { account: Account; newAccount: boolean };
  setPlan(email: string, plan: PlanName): Account;
  /** The same by account id (billing knows accounts by id). */
  setPlanById(id: string, plan: PlanName): Account;
  accountByEmail(email: string): Account | undefined;
  accountById(id: string): Account | undefined;
  allAccounts(): Map<string, Account>;
  allKeys(): Map<string, KeyRecord>;
  /** The persisted usage counts, loaded into the ledger at start. */
  allUsage(): Map<string, Usage>;
  writeUsage(entries: Iterable<[string, Usage]>): Promise<void>;
  close(): Promise<void>;
}

/** The account store of a data directory (the embedded default). */
export function openAccountStore(dataDir: string): AccountStore {
  return LmdbAccountStore.open(dataDir);
}
