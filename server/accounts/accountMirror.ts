// The in-memory copy of every account and key that a fleet-mode server authenticates from (redisAccountStore.ts):
// synchronous lookups on the request path, kept current by the change follower (changeFollower.ts). The maps are
// live: they are changed in place and never replaced, so a reader that holds one (AccessControl) needs no copy when
// something changes, and every change is applied synchronously (no reader sees half of one).
import type { Account, KeyRecord } from './accountStore.js';
import { emailKey } from './emailAddress.js';

/** One account as read from Redis: its record (undefined: no such account) and all its keys. */
export interface AccountSnapshot {
  id: string;
  account: Account | undefined;
  keys: KeyRecord[];
}

const indexOf = (account: Account): string => emailKey(account.email) ?? account.email;

export class AccountMirror {
  readonly accounts = new Map<string, Account>();
  readonly keys = new Map<string, KeyRecord>();
  /** emailKey of each account's address (the address itself when it has none, as a store made before keys may hold). */
  private readonly emails = new Map<string, string>();
  private readonly keysByAccount = new Map<string, Map<string, KeyRecord>>();

  /** The account of an address's key (emailKey). */
  accountByEmail(key: string): Account | undefined {
    const id = this.emails.get(key);
    return id === undefined ? undefined : this.accounts.get(id);
  }

  /** The account's keys, oldest first. */
  keysOf(accountId: string): KeyRecord[] {
    const own = this.keysByAccount.get(accountId);
    if (!own) return [];
    return [...own.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  /** Replaces what the mirror holds of one account with what Redis holds now. */
  apply(snapshot: AccountSnapshot): void {
    const previous = this.accounts.get(snapshot.id);
    if (previous && this.emails.get(indexOf(previous)) === snapshot.id) this.emails.delete(indexOf(previous));
    if (snapshot.account) {
      this.accounts.set(snapshot.id, snapshot.account);
      this.emails.set(indexOf(snapshot.account), snapshot.id);
    } else this.accounts.delete(snapshot.id);
    for (const hash of this.keysByAccount.get(snapshot.id)?.keys() ?? []) this.keys.delete(hash);
    if (snapshot.keys.length === 0) {
      this.keysByAccount.delete(snapshot.id);
      return;
    }
    const own = new Map<string, KeyRecord>();
    for (const record of snapshot.keys) {
      own.set(record.hash, record);
      this.keys.set(record.hash, record);
    }
    this.keysByAccount.set(snapshot.id, own);
  }

  /** Replaces everything (a full reload), in one synchronous step. */
  replaceAll(snapshots: Iterable<AccountSnapshot>): void {
    this.accounts.clear();
    this.keys.clear();
    this.emails.clear();
    this.keysByAccount.clear();
    for (const snapshot of snapshots) this.apply(snapshot);
  }
}
