// The one place where a request is authenticated and counted. Keys and accounts are mirrored in memory from the
// account store and reloaded when the CLI changes them (polled every 250 ms, so changes apply within a second);
// usage is counted in memory, exactly (requests are handled one at a time), and written back every second and
// at a clean stop, so a crash loses at most one second of counts.
import type { Account, AccountStore, KeyRecord } from './accountStore.js';
import { ApiError } from './errors.js';
import { hashKey } from './keys.js';
import { log } from './log.js';
import { PLAN_NAMES, type PlanName, type Plans } from './plans.js';
import { admit, emptyUsage, planQuota, quotaHeaders, type PlanQuota, type QuotaDecision, type Usage } from './quota.js';

const RELOAD_MS = 250;
const FLUSH_MS = 1000;
/** Keys already verified, remembered (in memory only) so a request needs no SHA-256; cleared on every change. */
const VERIFIED_KEYS_LIMIT = 100_000;

export interface Admission {
  account: Account;
  /** What the rate-limit and quota headers of the response say. */
  quota: QuotaDecision;
}

/** The key of a request: `Authorization: Bearer <key>`, else `X-API-Key`. */
export function keyFromHeaders(authorization: string, xApiKey: string): string | undefined {
  const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) return bearer[1];
  const header = xApiKey.trim();
  return header === '' ? undefined : header;
}

export class AccessControl {
  private accounts = new Map<string, Account>();
  private keys = new Map<string, KeyRecord>();
  private readonly usage: Map<string, Usage>;
  private readonly dirty = new Set<string>();
  private loadedVersion = -1;
  private timers: NodeJS.Timeout[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly verified = new Map<string, KeyRecord>();
  private readonly plans: Readonly<Record<PlanName, PlanQuota>>;

  constructor(
    private readonly store: AccountStore,
    plans: Plans,
  ) {
    this.plans = Object.fromEntries(PLAN_NAMES.map((name) => [name, planQuota(plans[name])])) as Record<PlanName, PlanQuota>;
    this.usage = store.allUsage();
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
    this.timers.push(setInterval(() => this.safely('reload', () => this.reload()), RELOAD_MS).unref());
    this.timers.push(setInterval(() => void this.flush(), FLUSH_MS).unref());
  }

  private safely(what: string, action: () => void): void {
    try {
      action();
    } catch (error) {
      log('error', `accounts_${what}_failed`, { error: String(error) });
    }
  }

  /** The account of a request's key; throws 401 or 403 as the contract says. */
  authenticate(authorization: string, xApiKey: string): Account {
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
    return account;
  }

  /** Counts `requests` against the account's limits, all or none; throws 429 (with its headers) when they do not fit. */
  count(account: Account, now: number, requests = 1): QuotaDecision {
    let usage = this.usage.get(account.id);
    if (!usage) this.usage.set(account.id, (usage = emptyUsage()));
    const quota = admit(usage, this.plans[account.plan], now, requests);
    this.dirty.add(account.id);
    if (quota.refused === 'quota_exceeded') {
      throw new ApiError('quota_exceeded', `The monthly quota of the ${account.plan} plan is used up; it resets at ${quota.monthReset}.`, quotaHeaders(quota));
    }
    if (quota.refused === 'rate_limit_exceeded') {
      throw new ApiError('rate_limit_exceeded', `The ${account.plan} plan allows ${quota.plan.perMinute} requests a minute; retry in ${quota.retryAfter} s.`, quotaHeaders(quota));
    }
    return quota;
  }

  /** Authenticates (401/403) and counts one request against the account's limits (429). */
  admit(authorization: string, xApiKey: string, now: number): Admission {
    const account = this.authenticate(authorization, xApiKey);
    return { account, quota: this.count(account, now) };
  }

  /** Writes the changed usage records; resolves when they are committed. Flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.dirty.size === 0) return;
      const entries = [...this.dirty].map((id) => [id, this.usage.get(id)!] as [string, Usage]);
      this.dirty.clear();
      try {
        await this.store.writeUsage(entries);
      } catch (error) {
        for (const [id] of entries) this.dirty.add(id);
        log('error', 'usage_flush_failed', { error: String(error) });
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.flush();
  }
}
