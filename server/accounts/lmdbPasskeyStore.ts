// The embedded PasskeyStore: named databases of the accounts environment (accountsEnvironment.ts). `passkeys` holds
// each credential under its id, `passkeysByAccount` indexes them under `<account id>/<credential id>`,
// `passkeyUsers` the accounts' user handles, `webauthnChallenges` the open ceremonies under their binding. Every
// read-then-write runs in one synchronous transaction, so two serving threads cannot both take one challenge or both
// move a counter.
import { randomBytes } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { openAccountsEnvironment, type AccountsEnvironment } from './accountsEnvironment.js';
import type { ChallengePurpose, PasskeyCredential, PasskeyStore, StoredChallenge, UseRefusal } from './passkeyStore.js';

const indexKey = (accountId: string, id: string): string => `${accountId}/${id}`;
const challengeKey = (binding: string, purpose: ChallengePurpose): string => `${purpose}:${binding}`;

export class LmdbPasskeyStore implements PasskeyStore {
  private constructor(
    private readonly environment: AccountsEnvironment,
    private readonly root: RootDatabase,
    private readonly passkeys: Database<PasskeyCredential, string>,
    private readonly byAccount: Database<string, string>,
    private readonly users: Database<string, string>,
    private readonly challenges: Database<StoredChallenge, string>,
  ) {}

  static open(dataDir: string): LmdbPasskeyStore {
    const environment = openAccountsEnvironment(dataDir);
    return new LmdbPasskeyStore(
      environment,
      environment.root,
      environment.database<PasskeyCredential>('passkeys'),
      environment.database<string>('passkeysByAccount'),
      environment.database<string>('passkeyUsers'),
      environment.database<StoredChallenge>('webauthnChallenges'),
    );
  }

  userHandle(accountId: string): string {
    const kept = this.users.get(accountId);
    if (kept !== undefined) return kept;
    return this.root.transactionSync(() => {
      const again = this.users.get(accountId);
      if (again !== undefined) return again;
      const handle = randomBytes(32).toString('base64url');
      this.users.putSync(accountId, handle);
      return handle;
    });
  }

  addCredential(credential: PasskeyCredential): boolean {
    return this.root.transactionSync(() => {
      if (this.passkeys.get(credential.id) !== undefined) return false;
      this.passkeys.putSync(credential.id, credential);
      this.byAccount.putSync(indexKey(credential.accountId, credential.id), credential.id);
      return true;
    });
  }

  credential(id: string): PasskeyCredential | undefined {
    return this.passkeys.get(id);
  }

  credentials(accountId: string): PasskeyCredential[] {
    const prefix = `${accountId}/`;
    const found: PasskeyCredential[] = [];
    for (const { key, value } of this.byAccount.getRange({ start: prefix })) {
      if (!key.startsWith(prefix)) break;
      const credential = this.passkeys.get(value);
      if (credential && credential.accountId === accountId) found.push(credential);
    }
    return found.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  removeCredential(accountId: string, id: string): boolean {
    return this.root.transactionSync(() => {
      const credential = this.passkeys.get(id);
      if (!credential || credential.accountId !== accountId) return false;
      this.passkeys.removeSync(id);
      this.byAccount.removeSync(indexKey(accountId, id));
      return true;
    });
  }

  recordUse(id: string, counter: number, backedUp: boolean, now: number): { ok: true } | { ok: false; reason: UseRefusal } {
    return this.root.transactionSync((): { ok: true } | { ok: false; reason: UseRefusal } => {
      const credential = this.passkeys.get(id);
      if (!credential) return { ok: false, reason: 'gone' };
      if ((counter > 0 || credential.counter > 0) && counter <= credential.counter) return { ok: false, reason: 'counter' };
      this.passkeys.putSync(id, { ...credential, counter, backedUp, lastUsedAt: now });
      return { ok: true };
    });
  }

  putChallenge(binding: string, challenge: StoredChallenge): void {
    this.challenges.putSync(challengeKey(binding, challenge.purpose), challenge);
  }

  takeChallenge(binding: string, purpose: ChallengePurpose, now: number): StoredChallenge | undefined {
    const key = challengeKey(binding, purpose);
    return this.root.transactionSync(() => {
      const challenge = this.challenges.get(key);
      if (challenge === undefined) return undefined;
      this.challenges.removeSync(key);
      return now < challenge.expiresAt && challenge.purpose === purpose ? challenge : undefined;
    });
  }

  purgeExpired(now: number): number {
    return this.root.transactionSync(() => {
      const expired = [...this.challenges.getRange()].filter((e) => now >= e.value.expiresAt);
      for (const { key } of expired) this.challenges.removeSync(key);
      return expired.length;
    });
  }

  async close(): Promise<void> {
    await this.environment.close();
  }
}
