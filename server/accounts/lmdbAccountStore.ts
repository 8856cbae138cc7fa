// The embedded AccountStore: accounts, key hashes and usage counts in an LMDB environment of their own under
// DATA_DIR/accounts, apart from the precomputed times. The CLI writes accounts and keys and bumps `version`; the server reads them (and watches
// `version` to pick changes up) and is the only writer of usage.
import type { Database, RootDatabase } from 'lmdb';
import { openAccountsEnvironment, type AccountsEnvironment } from './accountsEnvironment.js';
import { checkedEmail, keyName, keyNamedBy, lookupKey, newAccountId, newKeyRecord } from './accountRecords.js';
import { emailKey } from './emailAddress.js';
import { generateKey } from './keys.js';
import type { PlanName } from './plans.js';
import type { Usage } from './usage.js';
import { daysFrom, type DailyCount } from './usageHistory.js';
import { KEY_OUTCOMES, type KeyOutcome, type KeyUsageEntry } from './keyUsage.js';
import { AccountStoreError, type Account, type AccountStore, type KeyRecord, type KeySettings } from './accountStore.js';

/** Key records as stored, older ones without a name or last four (issue 16). */
type StoredKey = Omit<KeyRecord, 'name' | 'lastFour'> & Partial<Pick<KeyRecord, 'name' | 'lastFour'>>;

/** Migrates on read: a record from before names and last fours gets empty ones (the key itself is not known). */
const keyFromStore = (stored: StoredKey): KeyRecord =>
  stored.name !== undefined && stored.lastFour !== undefined ? (stored as KeyRecord) : { ...stored, name: stored.name ?? '', lastFour: stored.lastFour ?? '' };

/** The longest range `dailyUsage` answers, so a request cannot make it loop for long. */
const MAX_DAILY_RANGE = 1000;
/** `meta` flag: the `accountKeys` index holds every key (built once from `keys` when missing). */
const ACCOUNT_KEYS_INDEXED = 'accountKeysIndexed';
/** `meta` flag: the `emails` index is keyed by emailKey (issue 27), not by the address lowercased as before. */
const EMAILS_KEYED = 'emailsKeyed';

export class LmdbAccountStore implements AccountStore {
  private constructor(
    private readonly environment: AccountsEnvironment,
    private readonly root: RootDatabase,
    private readonly accounts: Database<Account, string>,
    private readonly emails: Database<string, string>,
    private readonly keys: Database<StoredKey, string>,
    private readonly usage: Database<Usage, string>,
    private readonly meta: Database<number, string>,
    /** `accountId/hash` → 1: the keys of each account, so listing them reads no one else's. */
    private readonly accountKeys: Database<number, string>,
    /** `YYYY-MM-DD/accountId` → requests counted that UTC day; day first, so pruning is one range of keys. */
    private readonly daily: Database<number, string>,
    /**
     * `YYYY-MM-DD/accountId/keyHash/operation` → requests by outcome (KEY_OUTCOMES' order): day first for pruning,
     * then the account, so a day of one account is one range.
     */
    private readonly keyDaily: Database<number[], string>,
    /** `YYYY-MM/accountId/level` → when the quota mail of that level was claimed (two entries per account and month at most). */
    private readonly quotaAlerts: Database<string, string>,
  ) {}

  static open(dataDir: string): LmdbAccountStore {
    const environment = openAccountsEnvironment(dataDir);
    return new LmdbAccountStore(
      environment,
      environment.root,
      environment.database<Account>('accounts'),
      environment.database<string>('emails'),
      environment.database<StoredKey>('keys'),
      environment.database<Usage>('usage'),
      environment.database<number>('meta'),
      environment.database<number>('accountKeys'),
      environment.database<number>('dailyUsage'),
      environment.database<number[]>('keyUsage'),
      environment.database<string>('quotaAlerts'),
    )
      .indexed()
      .emailsKeyed();
  }

  /** Builds the account → keys index once, for stores made before it existed. */
  private indexed(): this {
    if (this.meta.get(ACCOUNT_KEYS_INDEXED) === 1) return this;
    this.root.transactionSync(() => {
      for (const { key, value } of this.keys.getRange()) this.accountKeys.putSync(`${value.accountId}/${key}`, 1);
      this.meta.putSync(ACCOUNT_KEYS_INDEXED, 1);
    });
    return this;
  }

  /**
   * Re-keys the `emails` index once, for stores made before emailKey: each account's stored address (the old key,
   * lowercased) moves to its emailKey. They differ only for IDN domains (now punycode) and decomposed letters (now
   * NFC); an address without an emailKey, or whose key another account holds already, keeps its old entry.
   */
  private emailsKeyed(): this {
    if (this.meta.get(EMAILS_KEYED) === 1) return this;
    this.root.transactionSync(() => {
      for (const { key: id, value: account } of this.accounts.getRange()) {
        const key = emailKey(account.email);
        if (key === undefined || key === account.email || this.emails.get(key) !== undefined) continue;
        this.emails.putSync(key, id);
        if (this.emails.get(account.email) === id) this.emails.removeSync(account.email);
      }
      this.meta.putSync(EMAILS_KEYED, 1);
    });
    return this;
  }

  /** Writes a new key record and its index entry (inside a transaction). */
  private putNewKey(key: string, accountId: string, name: string): KeyRecord {
    const record = newKeyRecord(key, accountId, name);
    this.keys.putSync(record.hash, record);
    this.accountKeys.putSync(`${accountId}/${record.hash}`, 1);
    return record;
  }

  /** Grows with every change to accounts or keys; the server reloads when it moves. */
  version(): number {
    return this.meta.get('version') ?? 0;
  }

  private bumpVersion(): void {
    this.meta.putSync('version', this.version() + 1);
  }

  /** Creates the account if the e-mail is new, else adds a key to it. The key is returned once, never stored. */
  createKey(email: string, plan: PlanName = 'trial', name = 'CLI key'): { key: string; account: Account; newAccount: boolean } {
    const { address, key: emailIndex } = checkedEmail(email);
    const named = keyName(name);
    const key = generateKey();
    return this.root.transactionSync(() => {
      const existingId = this.emails.get(emailIndex);
      let account = existingId ? this.accounts.get(existingId) : undefined;
      const newAccount = !account;
      if (!account) {
        account = { id: newAccountId(), email: address, plan, createdAt: new Date().toISOString() };
        this.accounts.putSync(account.id, account);
        this.emails.putSync(emailIndex, account.id);
      }
      this.putNewKey(key, account.id, named);
      this.bumpVersion();
      return { key, account, newAccount };
    });
  }

  /** The account of an address; a new address gets a trial account without a key. */
  ensureAccount(email: string): { account: Account; newAccount: boolean } {
    const { address, key } = checkedEmail(email);
    return this.root.transactionSync(() => {
      const existingId = this.emails.get(key);
      const existing = existingId ? this.accounts.get(existingId) : undefined;
      if (existing) return { account: existing, newAccount: false };
      const account: Account = { id: newAccountId(), email: address, plan: 'trial', createdAt: new Date().toISOString() };
      this.accounts.putSync(account.id, account);
      this.emails.putSync(key, account.id);
      this.bumpVersion();
      return { account, newAccount: true };
    });
  }

  /** Revokes one key, given whole or by its display prefix; a revoked key stays known and is never reactivated. */
  revoke(keyOrPrefix: string): KeyRecord {
    return this.root.transactionSync(() => {
      let record = keyNamedBy(
        keyOrPrefix,
        (hash) => {
          const stored = this.keys.get(hash);
          return stored && keyFromStore(stored);
        },
        () => [...this.keys.getRange()].map((e) => keyFromStore(e.value)),
      );
      if (!record.revokedAt) {
        record = { ...record, revokedAt: new Date().toISOString() };
        this.keys.putSync(record.hash, record);
        this.bumpVersion();
      }
      return record;
    });
  }

  setPlan(email: string, plan: PlanName): Account {
    const key = lookupKey(email);
    const id = key === undefined ? undefined : this.emails.get(key);
    if (!id) throw new AccountStoreError(`no account for ${email}`);
    return this.setPlanById(id, plan);
  }

  setPlanById(id: string, plan: PlanName): Account {
    return this.root.transactionSync(() => {
      const account = this.accounts.get(id);
      if (!account) throw new AccountStoreError(`no account ${id}`);
      if (account.plan === plan) return account;
      const updated = { ...account, plan };
      this.accounts.putSync(updated.id, updated);
      this.bumpVersion();
      return updated;
    });
  }

  accountByEmail(email: string): Account | undefined {
    const key = lookupKey(email);
    const id = key === undefined ? undefined : this.emails.get(key);
    return id ? this.accounts.get(id) : undefined;
  }

  accountById(id: string): Account | undefined {
    return this.accounts.get(id);
  }

  allAccounts(): Map<string, Account> {
    return new Map([...this.accounts.getRange()].map((e) => [e.key, e.value]));
  }

  allKeys(): Map<string, KeyRecord> {
    return new Map([...this.keys.getRange()].map((e) => [e.key, keyFromStore(e.value)]));
  }

  monthlyUsage(): Map<string, Usage> {
    return this.allUsage();
  }

  allUsage(): Map<string, Usage> {
    return new Map([...this.usage.getRange()].map((e) => [e.key, e.value]));
  }

  /** Writes usage records and adds the daily counts in one transaction; resolves once committed. */
  async writeUsage(entries: Iterable<[string, Usage]>, daily: Iterable<[string, string, number]> = []): Promise<void> {
    // Summed first, so that one key's increments meet in one read-and-write.
    const added = new Map<string, number>();
    for (const [accountId, day, requests] of daily) {
      if (requests > 0) added.set(`${day}/${accountId}`, (added.get(`${day}/${accountId}`) ?? 0) + requests);
    }
    await this.root.transaction(() => {
      for (const [accountId, usage] of entries) void this.usage.put(accountId, { ...usage });
      for (const [key, requests] of added) void this.daily.put(key, (this.daily.get(key) ?? 0) + requests);
    });
  }

  dailyUsage(accountId: string, fromDay: string, toDay: string): DailyCount[] {
    const days = daysFrom(fromDay, toDay);
    if (days.length > MAX_DAILY_RANGE) throw new AccountStoreError(`at most ${MAX_DAILY_RANGE} days at once`);
    return days.map((day) => ({ day, count: this.daily.get(`${day}/${accountId}`) ?? 0 }));
  }

  async pruneDailyUsage(beforeDay: string): Promise<void> {
    await this.root.transaction(() => {
      for (const key of [...this.daily.getKeys({ end: beforeDay })]) void this.daily.remove(key);
    });
  }

  async addKeyUsage(entries: Iterable<KeyUsageEntry>): Promise<void> {
    // Summed first, so that one record's increments meet in one read-and-write.
    const added = new Map<string, number[]>();
    for (const e of entries) {
      if (e.requests <= 0) continue;
      const key = `${e.day}/${e.accountId}/${e.keyHash}/${e.operation}`;
      const counts = added.get(key) ?? KEY_OUTCOMES.map(() => 0);
      counts[KEY_OUTCOMES.indexOf(e.outcome)] += e.requests;
      added.set(key, counts);
    }
    if (added.size === 0) return;
    await this.root.transaction(() => {
      for (const [key, counts] of added) {
        const stored = this.keyDaily.get(key);
        void this.keyDaily.put(key, stored ? counts.map((n, i) => n + (stored[i] ?? 0)) : counts);
      }
    });
  }

  keyUsage(accountId: string, fromDay: string, toDay: string): KeyUsageEntry[] {
    const days = daysFrom(fromDay, toDay);
    if (days.length > MAX_DAILY_RANGE) throw new AccountStoreError(`at most ${MAX_DAILY_RANGE} days at once`);
    const entries: KeyUsageEntry[] = [];
    for (const day of days) {
      const prefix = `${day}/${accountId}/`;
      for (const { key, value } of this.keyDaily.getRange({ start: prefix, end: `${day}/${accountId}0` })) {
        const [keyHash, operation] = key.slice(prefix.length).split('/');
        value.forEach((requests, i) => {
          if (requests > 0 && i < KEY_OUTCOMES.length) entries.push({ accountId, keyHash, day, operation, outcome: KEY_OUTCOMES[i] as KeyOutcome, requests });
        });
      }
    }
    return entries;
  }

  async pruneKeyUsage(beforeDay: string): Promise<void> {
    await this.root.transaction(() => {
      for (const key of [...this.keyDaily.getKeys({ end: beforeDay })]) void this.keyDaily.remove(key);
    });
  }

  /** Check and write in one write transaction: LMDB runs one at a time across threads and processes. */
  async claimQuotaAlert(accountId: string, month: string, level: number): Promise<boolean> {
    const key = `${month}/${accountId}/${level}`;
    return this.root.transaction(() => {
      if (this.quotaAlerts.get(key) !== undefined) return false;
      void this.quotaAlerts.put(key, new Date().toISOString());
      return true;
    });
  }

  keysOf(accountId: string): KeyRecord[] {
    const records: KeyRecord[] = [];
    for (const key of this.accountKeys.getKeys({ start: `${accountId}/`, end: `${accountId}0` })) {
      const stored = this.keys.get(key.slice(accountId.length + 1));
      if (stored) records.push(keyFromStore(stored));
    }
    return records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  createKeyFor(accountId: string, name: string): { key: string; record: KeyRecord } {
    const named = keyName(name);
    const key = generateKey();
    return this.root.transactionSync(() => {
      if (!this.accounts.get(accountId)) throw new AccountStoreError(`no account ${accountId}`);
      const record = this.putNewKey(key, accountId, named);
      this.bumpVersion();
      return { key, record };
    });
  }

  revokeKeyOf(accountId: string, keyHash: string): KeyRecord | undefined {
    return this.root.transactionSync(() => {
      const stored = this.keys.get(keyHash);
      if (!stored || stored.accountId !== accountId) return undefined;
      let record = keyFromStore(stored);
      if (!record.revokedAt) {
        record = { ...record, revokedAt: new Date().toISOString() };
        this.keys.putSync(record.hash, record);
        this.bumpVersion();
      }
      return record;
    });
  }

  updateKeyOf(accountId: string, keyHash: string, change: KeySettings): KeyRecord | undefined {
    const name = keyName(change.name);
    return this.root.transactionSync(() => {
      const stored = this.keys.get(keyHash);
      if (!stored || stored.accountId !== accountId) return undefined;
      const { allowedOrigins: _origins, allowedRanges: _ranges, ...rest } = keyFromStore(stored);
      const record: KeyRecord = { ...rest, name };
      if (change.allowedOrigins?.length) record.allowedOrigins = [...change.allowedOrigins];
      if (change.allowedRanges?.length) record.allowedRanges = [...change.allowedRanges];
      this.keys.putSync(keyHash, record);
      this.bumpVersion();
      return record;
    });
  }

  /** Never bumps `version`: a day of last use is for the dashboard, and no serving thread needs to reload for it. */
  async keyUsed(entries: Iterable<[string, string]>): Promise<void> {
    const latest = new Map<string, string>();
    for (const [hash, day] of entries) if ((latest.get(hash) ?? '') < day) latest.set(hash, day);
    if (latest.size === 0) return;
    await this.root.transaction(() => {
      for (const [hash, day] of latest) {
        const stored = this.keys.get(hash);
        if (stored && (stored.lastUsedDay ?? '') < day) void this.keys.put(hash, { ...stored, lastUsedDay: day });
      }
    });
  }

  async close(): Promise<void> {
    await this.environment.close();
  }
}
