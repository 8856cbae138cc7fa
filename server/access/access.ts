// The one place where a request is authenticated and counted. Keys and accounts are mirrored in memory from the
// account store and reloaded when the CLI changes them (polled every 250 ms, so changes apply within a second);
// usage is counted exactly in the table that every serving thread shares (sharedUsage.ts), which the primary
// thread writes back every second and at a clean stop (usageWriter.ts), so a crash loses at most a second of counts;
// in fleet mode it is counted in Redis instead (redisUsageLedger.ts), and counting answers with a promise.
// The day a key was last used is noted in memory on the request path and written off it, at most once per key and
// UTC day in each serving thread (a batch every few seconds, and at a stop). Usage per key, operation and outcome
// (issue 32) is counted in this thread's memory the same way (keyUsageCounter.ts) and added to the store with them.
import type { Account, AccountStore, KeyRecord } from '../accounts/accountStore.js';
import type { Awaitable } from '../accounts/awaitable.js';
import { ApiError } from '../errors.js';
import { hashKey } from '../accounts/keys.js';
import { isRestricted, restrictionRefusal, type Caller } from '../accounts/keyRestrictions.js';
import { log } from '../log.js';
import { PLAN_NAMES, type PlanName, type Plans } from '../accounts/plans.js';
import { currentUsage, planQuota, quotaHeaders, type CurrentUsage, type PlanQuota, type QuotaDecision } from './quota.js';
import type { UsageLedger } from './usageLedger.js';
import { KeyUsageCounter, OUTCOME, outcomeOfStatus } from './keyUsageCounter.js';
import type { QuotaAlerts } from './quotaAlerts.js';

const RELOAD_MS = 250;
/** Keys already verified, remembered (in memory only) so a request needs no SHA-256; cleared on every change. */
const VERIFIED_KEYS_LIMIT = 100_000;
/** How often the days of last use noted since the previous write are written (off the request path). */
const LAST_USE_FLUSH_MS = 5000;
const DAY_MS = 86_400_000;

export interface Admission {
  account: Account;
  /** The key's record (for noting what became of the request: noteAnswer). */
  key: KeyRecord;
  /** What the rate-limit and quota headers of the response say. */
  quota: QuotaDecision;
}

/**
 * Where a request comes from, for a restricted key: its headers (`origin`; absent or '' for none) and its client
 * address on demand. The edge's request is one as it is, so nothing is made per request.
 */
export interface RequestSource {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly clientAddressOf?: () => string;
  /** The address resolved already ('' when not asked for), when there is no clientAddressOf. */
  readonly clientAddress?: string;
}

/** The longest Origin echoed in a key_restricted message. */
const MAX_ECHOED_ORIGIN = 100;

/** The 403 of a restricted key's request from outside its lists (keyRestrictions.ts), saying which list. */
function restrictedError(record: KeyRecord, caller: Caller | undefined): ApiError | undefined {
  const refusal = restrictionRefusal(record, caller);
  if (refusal === undefined) return undefined;
  if (refusal.kind === 'origin') {
    const origin = refusal.origin.length <= MAX_ECHOED_ORIGIN ? refusal.origin : `${refusal.origin.slice(0, MAX_ECHOED_ORIGIN)}…`;
    return new ApiError('key_restricted', `This API key (${record.prefix}…) may be used only from the web origins listed for it in the dashboard; Origin ${origin} is not one of them.`);
  }
  const from = refusal.address === '' ? 'this client' : refusal.address;
  return new ApiError('key_restricted', `This API key (${record.prefix}…) may be used only from the client address ranges listed for it in the dashboard; ${from} is not in them.`);
}

/** The key of a request: `Authorization: Bearer <key>`, else `X-API-Key`. */
export function keyFromHeaders(authorization: string, xApiKey: string): string | undefined {
  const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) return bearer[1];
  const header = xApiKey.trim();
  return header === '' ? undefined : header;
}

export class AccessControl {
  // Read-only: the Redis store hands out its live mirror (kept current by its follower), so a reload copies nothing.
  private accounts: ReadonlyMap<string, Account> = new Map();
  private keys: ReadonlyMap<string, KeyRecord> = new Map();
  private loadedVersion = -1;
  private timer: NodeJS.Timeout | undefined;
  private readonly verified = new Map<string, KeyRecord>();
  private readonly plans: Readonly<Record<PlanName, PlanQuota>>;
  /** Key hash → the UTC day this thread last noted it used (so each key is noted once a day). */
  private readonly lastUse = new Map<string, string>();
  /** Key hash → day, noted and not written yet. */
  private pendingUse = new Map<string, string>();
  private lastUseTimer: NodeJS.Timeout | undefined;
  private lastUseWriting: Promise<void> = Promise.resolve();
  /** The current UTC day, computed once a day. */
  private today = { start: 0, end: 0, text: '' };
  /** Usage per key, operation and outcome, noted here and written with the days of last use. */
  private readonly keyUsage: KeyUsageCounter;
  /** The quota mails at 80% and 100% (quotaAlerts.ts), once the mailer is there (useQuotaAlerts). */
  private alerts: QuotaAlerts | undefined;

  constructor(
    private readonly store: AccountStore,
    plans: Plans,
    private readonly usage: UsageLedger,
    /** The operations usage per key is counted for, by the index the surfaces pass (none: not counted). */
    operations: readonly string[] = [],
  ) {
    this.plans = Object.fromEntries(PLAN_NAMES.map((name) => [name, planQuota(plans[name])])) as Record<PlanName, PlanQuota>;
    this.keyUsage = new KeyUsageCounter(operations);
    this.reload();
  }

  /** Re-reads keys and accounts when the store's version moved. */
  reload(): void {
    const version = this.store.version();
    if (version === this.loadedVersion) return;
    this.keys = this.store.allKeys();
    this.accounts = this.store.allAccounts();
    this.verified.clear();
    this.loadedVersion = version;
  }

  start(): void {
    this.timer = setInterval(() => {
      try {
        this.reload();
      } catch (error) {
        log('error', 'accounts_reload_failed', { error: String(error) });
      }
    }, RELOAD_MS).unref();
    this.lastUseTimer = setInterval(() => void this.writeLastUse(), LAST_USE_FLUSH_MS).unref();
  }

  /** Stops polling, writes the days of last use and usage per key still pending, and lets quota mails in flight go. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.lastUseTimer);
    await this.writeLastUse();
    await this.alerts?.settled();
  }

  /**
   * Writes the days of last use noted since the previous write, in one batch, and the usage per key counted since;
   * writes never overlap.
   */
  writeLastUse(): Promise<void> {
    this.lastUseWriting = this.lastUseWriting.then(async () => {
      try {
        await this.keyUsage.writeTo(this.store);
      } catch (error) {
        log('error', 'key_usage_write_failed', { error: String(error) });
      }
      if (this.pendingUse.size === 0) return;
      const batch = this.pendingUse;
      this.pendingUse = new Map();
      try {
        await this.store.keyUsed(batch);
      } catch (error) {
        for (const [hash, day] of batch) if (!this.pendingUse.has(hash)) this.pendingUse.set(hash, day);
        log('error', 'key_last_use_write_failed', { error: String(error) });
      }
    });
    return this.lastUseWriting;
  }

  private dayOf(now: number): string {
    const today = this.today;
    if (now >= today.start && now < today.end) return today.text;
    const start = Math.floor(now / DAY_MS) * DAY_MS;
    this.today = { start, end: start + DAY_MS, text: new Date(start).toISOString().slice(0, 10) };
    return this.today.text;
  }

  /** On the request path: a Map lookup, and a Map write once per key and day. */
  private noteUse(record: KeyRecord, now: number): void {
    const day = this.dayOf(now);
    if (this.lastUse.get(record.hash) === day) return;
    this.lastUse.set(record.hash, day);
    if (record.lastUsedDay !== day) this.pendingUse.set(record.hash, day);
  }

  /** This minute's and this month's counts of an account against its plan at `now`, counting nothing (the dashboard). */
  usageOf(account: Account, now: number): Awaitable<CurrentUsage> {
    const plan = this.plans[account.plan];
    const usage = this.usage.read(account.id);
    return usage instanceof Promise ? usage.then((read) => currentUsage(read, plan, now)) : currentUsage(usage, plan, now);
  }

  /**
   * The account of a request's key; throws 401 or 403 as the contract says, and 403 key_restricted when the key's
   * restrictions do not admit the caller (checked only for a restricted key). Notes the key's day of use.
   */
  authenticate(authorization: string, xApiKey: string, now = Date.now(), source?: RequestSource, operation = -1): Account {
    return this.authenticateKey(authorization, xApiKey, now, source, operation).account;
  }

  /** authenticate's work, with the key's record; a refusal of a restricted key is noted for `operation`. */
  authenticateKey(authorization: string, xApiKey: string, now: number, source: RequestSource | undefined, operation: number): { account: Account; key: KeyRecord } {
    const key = keyFromHeaders(authorization, xApiKey);
    if (key === undefined) {
      throw new ApiError('missing_api_key', 'An API key is required: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>".');
    }
    let record = this.verified.get(key);
    if (!record) {
      record = this.keys.get(hashKey(key));
      if (record && this.verified.size < VERIFIED_KEYS_LIMIT) this.verified.set(key, record);
    }
    const account = record && this.accounts.get(record.accountId);
    if (!record || !account) throw new ApiError('invalid_api_key', 'This API key does not exist. Check it, or create one in the dashboard.');
    if (record.revokedAt) throw new ApiError('api_key_revoked', `This API key (${record.prefix}…) was revoked on ${record.revokedAt}; use another key.`);
    if (isRestricted(record)) {
      const caller: Caller | undefined = source && { origin: source.headers.origin ?? '', clientAddress: source.clientAddressOf ?? (() => source.clientAddress ?? '') };
      const refused = restrictedError(record, caller);
      if (refused) {
        this.keyUsage.note(record, this.dayOf(now), operation, OUTCOME.restricted);
        throw refused;
      }
    }
    this.noteUse(record, now);
    return { account, key: record };
  }

  /** Notes what became of an admitted request (its status) in the usage per key. */
  noteAnswer(key: KeyRecord, operation: number, status: number, now: number, requests = 1): void {
    this.keyUsage.note(key, this.dayOf(now), operation, outcomeOfStatus(status), requests);
  }

  /**
   * Counts `requests` against the account's limits, all or none; throws 429 (with its headers) when they do not fit.
   * Synchronous on the embedded ledger; in fleet mode a promise, rejected with the same errors.
   */
  count(account: Account, now: number, requests = 1): Awaitable<QuotaDecision> {
    const quota = this.usage.count(account.id, this.plans[account.plan], now, requests);
    if (quota instanceof Promise) return quota.then((decided) => allowed(account, this.observed(account, decided, now)));
    return allowed(account, this.observed(account, quota, now));
  }

  /** Sends the quota mails through `alerts` from now on. */
  useQuotaAlerts(alerts: QuotaAlerts): void {
    this.alerts = alerts;
  }

  /** Shows a decision to the quota mails (a comparison, below 80% of the month). */
  private observed(account: Account, decision: QuotaDecision, now: number): QuotaDecision {
    this.alerts?.observe(account, decision, now);
    return decision;
  }

  /** Authenticates (401/403) and counts one request against the account's limits (429); see `count`. */
  admit(authorization: string, xApiKey: string, now: number, source?: RequestSource, operation = -1): Awaitable<Admission> {
    const { account, key } = this.authenticateKey(authorization, xApiKey, now, source, operation);
    let quota: Awaitable<QuotaDecision>;
    try {
      quota = this.count(account, now);
    } catch (error) {
      this.noteRefusal(key, operation, error, now);
      throw error;
    }
    if (quota instanceof Promise) {
      return quota.then(
        (counted) => ({ account, key, quota: counted }),
        (error: unknown) => {
          this.noteRefusal(key, operation, error, now);
          throw error;
        },
      );
    }
    return { account, key, quota };
  }

  /** A request refused by the limits (429) or by Redis being away (503), noted in the usage per key. */
  noteRefusal(key: KeyRecord, operation: number, error: unknown, now: number, requests = 1): void {
    if (error instanceof ApiError) this.noteAnswer(key, operation, error.status, now, requests);
  }
}

/** The decision, when it admits; else the contract's 429. */
function allowed(account: Account, quota: QuotaDecision): QuotaDecision {
  if (quota.refused === 'quota_exceeded') {
    throw new ApiError('quota_exceeded', `The monthly quota of the ${account.plan} plan is used up; it resets at ${quota.monthReset}.`, quotaHeaders(quota));
  }
  if (quota.refused === 'rate_limit_exceeded') {
    throw new ApiError('rate_limit_exceeded', `The ${account.plan} plan allows ${quota.plan.perMinute} requests a minute; retry in ${quota.retryAfter} s.`, quotaHeaders(quota));
  }
  return quota;
}
