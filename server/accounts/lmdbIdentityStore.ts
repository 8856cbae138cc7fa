// The embedded IdentityStore: sign-in requests, sessions and send counters in named databases of the accounts
// environment (accountsEnvironment.ts). Every change that reads before it writes (a code's attempt, a counter) runs in
// one synchronous transaction, so two serving threads cannot both use one code or both pass a limit's last slot.
import type { Database, RootDatabase } from 'lmdb';
import { openAccountsEnvironment, type AccountsEnvironment } from './accountsEnvironment.js';
import {
  codeHash,
  MAX_CODE_ATTEMPTS,
  sameSecret,
  signInRequestOf,
  type IdentityStore,
  type Limit,
  type LinkState,
  type Redemption,
  type Session,
  type SignInRequest,
  type SignInRequestInput,
} from './identityStore.js';

interface Counter {
  windowStart: number;
  windowMs: number;
  count: number;
}

export class LmdbIdentityStore implements IdentityStore {
  private constructor(
    private readonly environment: AccountsEnvironment,
    private readonly root: RootDatabase,
    private readonly requests: Database<SignInRequest, string>,
    private readonly byBrowser: Database<string, string>,
    private readonly byLink: Database<string, string>,
    private readonly sessions: Database<Session, string>,
    private readonly counters: Database<Counter, string>,
  ) {}

  static open(dataDir: string): LmdbIdentityStore {
    const environment = openAccountsEnvironment(dataDir);
    return new LmdbIdentityStore(
      environment,
      environment.root,
      environment.database<SignInRequest>('signInRequests'),
      environment.database<string>('signInByBrowser'),
      environment.database<string>('signInByLink'),
      environment.database<Session>('sessions'),
      environment.database<Counter>('sendCounters'),
    );
  }

  createSignIn(input: SignInRequestInput): SignInRequest {
    const request = signInRequestOf(input);
    this.root.transactionSync(() => {
      this.requests.putSync(request.id, request);
      this.byBrowser.putSync(request.browserHash, request.id);
      this.byLink.putSync(request.linkHash, request.id);
    });
    return request;
  }

  /** Why a request cannot sign in now, or undefined when it can. */
  private refusal(request: SignInRequest | undefined, now: number): Exclude<Redemption, { ok: true }> | undefined {
    if (!request) return { ok: false, reason: 'none' };
    if (request.usedAt !== undefined) return { ok: false, reason: 'used' };
    if (now >= request.expiresAt) return { ok: false, reason: 'expired' };
    if (request.failures >= MAX_CODE_ATTEMPTS) return { ok: false, reason: 'locked' };
    return undefined;
  }

  redeemCode(browserHash: string, code: string, now: number): Redemption {
    return this.root.transactionSync((): Redemption => {
      const id = this.byBrowser.get(browserHash);
      const request = id === undefined ? undefined : this.requests.get(id);
      const refused = this.refusal(request, now);
      if (refused || !request) return refused ?? { ok: false, reason: 'none' };
      if (sameSecret(codeHash(request.id, code), request.codeHash)) {
        this.requests.putSync(request.id, { ...request, usedAt: now });
        return { ok: true, email: request.email, requestId: request.id };
      }
      const failures = request.failures + 1;
      this.requests.putSync(request.id, { ...request, failures });
      return { ok: false, reason: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - failures };
    });
  }

  peekLink(linkHash: string, now: number): LinkState {
    const id = this.byLink.get(linkHash);
    const request = id === undefined ? undefined : this.requests.get(id);
    const refused = this.refusal(request, now);
    if (refused || !request) return { state: (refused?.reason ?? 'none') as 'none' | 'expired' | 'used' | 'locked' };
    return { state: 'valid', email: request.email, expiresAt: request.expiresAt };
  }

  redeemLink(linkHash: string, now: number): Redemption {
    return this.root.transactionSync((): Redemption => {
      const id = this.byLink.get(linkHash);
      const request = id === undefined ? undefined : this.requests.get(id);
      const refused = this.refusal(request, now);
      if (refused || !request) return refused ?? { ok: false, reason: 'none' };
      this.requests.putSync(request.id, { ...request, usedAt: now });
      return { ok: true, email: request.email, requestId: request.id };
    });
  }

  hit(limits: readonly Limit[], windowMs: number, now: number): boolean {
    return this.root.transactionSync(() => {
      const counters = limits.map(({ key, limit }) => {
        const kept = this.counters.get(key);
        return { key, limit, counter: kept && now < kept.windowStart + kept.windowMs ? kept : { windowStart: now, windowMs, count: 0 } };
      });
      if (counters.some(({ limit, counter }) => counter.count >= limit)) return false;
      for (const { key, counter } of counters) this.counters.putSync(key, { ...counter, count: counter.count + 1 });
      return true;
    });
  }

  createSession(tokenHash: string, session: Session): void {
    this.sessions.putSync(tokenHash, session);
  }

  session(tokenHash: string, now: number): Session | undefined {
    const session = this.sessions.get(tokenHash);
    return session && now < session.expiresAt ? session : undefined;
  }

  endSession(tokenHash: string): void {
    this.sessions.removeSync(tokenHash);
  }

  purgeExpired(now: number): number {
    return this.root.transactionSync(() => {
      // Read first, then remove: no removal while a range is being walked.
      const requests = [...this.requests.getRange()].filter((e) => now >= e.value.expiresAt);
      const sessions = [...this.sessions.getRange()].filter((e) => now >= e.value.expiresAt);
      const counters = [...this.counters.getRange()].filter((e) => now >= e.value.windowStart + e.value.windowMs);
      for (const { key, value } of requests) {
        this.requests.removeSync(key);
        if (this.byBrowser.get(value.browserHash) === key) this.byBrowser.removeSync(value.browserHash);
        if (this.byLink.get(value.linkHash) === key) this.byLink.removeSync(value.linkHash);
      }
      for (const { key } of sessions) this.sessions.removeSync(key);
      for (const { key } of counters) this.counters.removeSync(key);
      return requests.length + sessions.length + counters.length;
    });
  }

  async close(): Promise<void> {
    await this.environment.close();
  }
}
