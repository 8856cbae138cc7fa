// The embedded AccountStore: accounts, key hashes and usage counts in an LMDB environment of their own under
// DATA_DIR/accounts, apart from the precomputed times. The CLI writes accounts and keys and bumps `version`; the server reads them (and watches
// `version` to pick changes up) and is the only writer of usage.
import { randomBytes } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { openAccountsEnvironment, type AccountsEnvironment } from './accountsEnvironment.js';
import { displayPrefix, generateKey, hashKey, isWellFormedKey, KEY_PREFIX } from './keys.js';
import type { PlanName } from './plans.js';
import type { Usage } from './usage.js';
import { AccountStoreError, type Account, type AccountStore, type KeyRecord } from './accountStore.js';

const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export class LmdbAccountStore implements AccountStore {
  private constructor(
    private readonly environment: AccountsEnvironment,
    private readonly root: RootDatabase,
    private readonly accounts: Database<Account, string>,
    private readonly emails: Database<string, string>,
    private readonly keys: Database<KeyRecord, string>,
    private readonly usage: Database<Usage, string>,
    private readonly meta: Database<number, string>,
  ) {}

  static open(dataDir: string): LmdbAccountStore {
    const environment = openAccountsEnvironment(dataDir);
    return new LmdbAccountStore(
      environment,
      environment.root,
      environment.database<Account>('accounts'),
      environment.database<string>('emails'),
      environment.database<KeyRecord>('keys'),
      environment.database<Usage>('usage'),
      environment.database<number>('meta'),
    );
  }

  /** Grows with every change to accounts or keys; the server reloads when it moves. */
  version(): number {
    return this.meta.get('version') ?? 0;
  }

  private bumpVersion(): void {
    this.meta.putSync('version', this.version() + 1);
  }

  /** Creates the account if the e-mail is new, else adds a key to it. The key is returned once, never stored. */
  createKey(email: string, plan: PlanName = 'trial'): { key: string; account: Account; newAccount: boolean } {
    const address = normalizeEmail(email);
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) throw new AccountStoreError(`"${email}" is not an e-mail address`);
    const key = generateKey();
    return this.root.transactionSync(() => {
      const existingId = this.emails.get(address);
      let account = existingId ? this.accounts.get(existingId) : undefined;
      const newAccount = !account;
      if (!account) {
        account = { id: `acc_${randomBytes(8).toString('hex')}`, email: address, plan, createdAt: new Date().toISOString() };
        this.accounts.putSync(account.id, account);
        this.emails.putSync(address, account.id);
      }
      const record: KeyRecord = { hash: hashKey(key), prefix: displayPrefix(key), accountId: account.id, createdAt: new Date().toISOString() };
      this.keys.putSync(record.hash, record);
      this.bumpVersion();
      return { key, account, newAccount };
    });
  }

  /** The account of an address; a new address gets a trial account without a key. */
  ensureAccount(email: string): { account: Account; newAccount: boolean } {
    const address = normalizeEmail(email);
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) throw new AccountStoreError(`"${email}" is not an e-mail address`);
    return this.root.transactionSync(() => {
      const existingId = this.emails.get(address);
      const existing = existingId ? this.accounts.get(existingId) : undefined;
      if (existing) return { account: existing, newAccount: false };
      const account: Account = { id: `acc_${randomBytes(8).toString('hex')}`, email: address, plan: 'trial', createdAt: new Date().toISOString() };
      this.accounts.putSync(account.id, account);
      this.emails.putSync(address, account.id);
      this.bumpVersion();
      return { account, newAccount: true };
    });
  }

  /** Revokes one key, given whole or by its display prefix; a revoked key stays known and is never reactivated. */
  revoke(keyOrPrefix: string): KeyRecord {
    return this.root.transactionSync(() => {
      let record: KeyRecord | undefined;
      if (isWellFormedKey(keyOrPrefix)) {
        record = this.keys.get(hashKey(keyOrPrefix));
      } else {
        if (!keyOrPrefix.startsWith(KEY_PREFIX) || keyOrPrefix.length < KEY_PREFIX.length + 3) {
          throw new AccountStoreError(`give a key or its prefix (${KEY_PREFIX} and at least 3 more characters)`);
        }
        const given = keyOrPrefix;
        const matches = [...this.keys.getRange()]
          .map((e) => e.value)
          .filter((k) => (given.length <= k.prefix.length ? k.prefix.startsWith(given) : given.startsWith(k.prefix)));
        if (matches.length > 1) throw new AccountStoreError(`${matches.length} keys match ${keyOrPrefix}; give the whole key`);
        record = matches[0];
      }
      if (!record) throw new AccountStoreError(`no key matches ${keyOrPrefix.slice(0, 12)}`);
      if (!record.revokedAt) {
        record = { ...record, revokedAt: new Date().toISOString() };
        this.keys.putSync(record.hash, record);
        this.bumpVersion();
      }
      return record;
    });
  }

  setPlan(email: string, plan: PlanName): Account {
    const id = this.emails.get(normalizeEmail(email));
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
    const id = this.emails.get(normalizeEmail(email));
    return id ? this.accounts.get(id) : undefined;
  }

  accountById(id: string): Account | undefined {
    return this.accounts.get(id);
  }

  allAccounts(): Map<string, Account> {
    return new Map([...this.accounts.getRange()].map((e) => [e.key, e.value]));
  }

  allKeys(): Map<string, KeyRecord> {
    return new Map([...this.keys.getRange()].map((e) => [e.key, e.value]));
  }

  allUsage(): Map<string, Usage> {
    return new Map([...this.usage.getRange()].map((e) => [e.key, e.value]));
  }

  /** Writes usage records in one transaction; resolves once committed. */
  async writeUsage(entries: Iterable<[string, Usage]>): Promise<void> {
    await this.usage.transaction(() => {
      for (const [accountId, usage] of entries) void this.usage.put(accountId, { ...usage });
    });
  }

  async close(): Promise<void> {
    await this.environment.close();
  }
}
