// Fleet mode's usage ledger (contract, "Fleet mode"): every counted request is one atomic script on Redis
// (usageScripts.ts), so several servers share exact per-minute, monthly and daily counts, and render the same headers
// from the counts and the clock Redis returns. One per serving thread, on a connection of its own.
//
// While Redis cannot be used (the connection is not ready, or a command failed or timed out) the ledger does not
// try it at all, and does what LIMITS_ON_REDIS_FAILURE says: `local` counts in this server's shared table (exact
// across its threads, starting from the counts Redis last returned) and merges those units back into Redis when it
// answers again, before counting there; `open` lets requests through uncounted; `closed` refuses them with 503.
// A count whose answer was lost may have run on Redis too: the merge takes back what it counted (usageTally.ts).
// A background probe (and the connection's `ready`) brings it back; each change is logged once.
import type { Redis } from 'ioredis';
import { redisKeys } from '../accounts/redisKeys.js';
import { ApiError } from '../errors.js';
import { log } from '../log.js';
import type { Awaitable } from '../accounts/awaitable.js';
import { emptyUsage, monthOf, quotaDecision, rollOver, type PlanQuota, type QuotaDecision, type Usage } from './quota.js';
import type { SharedUsage } from './sharedUsage.js';
import { UsageBacklog, type BacklogEntry } from './usageBacklog.js';
import type { UsageLedger } from './usageLedger.js';
import { countOnRedis, mergeIntoRedis, readTally, REFUSALS, withUsageScripts, type CountReply, type UsageScripts } from './usageScripts.js';
import { UsageTally } from './usageTally.js';
import { countRedisCall, countRedisFailure, setCountingOnRedis } from '../threadCounters.js';

/** LIMITS_ON_REDIS_FAILURE (process/config.ts reads it): what counting does while Redis cannot be used. */
export type OnRedisFailure = 'local' | 'open' | 'closed';

/** How often a ledger that is off Redis checks whether it can go back (besides the connection's `ready`). */
const PROBE_MS = 500;
/** What a refused client is told to wait (LIMITS_ON_REDIS_FAILURE=closed): about one reconnection attempt. */
const RETRY_AFTER_SECONDS = 1;

export interface RedisUsageLedgerOptions {
  /** This thread's own connection (openRedis); the ledger closes it. */
  redis: Redis;
  /** This server's shared usage table: where `local` counts, and where Redis's answers are kept to start from. */
  local: SharedUsage;
  onFailure: OnRedisFailure;
  /** Named in the log lines (`thread 0`). */
  name: string;
}

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export class RedisUsageLedger implements UsageLedger {
  private readonly redis: UsageScripts;
  private readonly local: SharedUsage;
  private readonly onFailure: OnRedisFailure;
  private readonly name: string;
  /** True while counts go to Redis; false from a failure until Redis answers again and the backlog is merged. */
  private onRedis = false;
  /** Whether this ledger has counted on Redis since it started (the first connection is not a "return"). */
  private wasOnRedis = false;
  private readonly backlog = new UsageBacklog();
  /** What Redis confirmed counting for this ledger, to tell what it counted of lost answers (not kept for `open`). */
  private readonly tally = new UsageTally();
  private recovering: Promise<void> | undefined;
  private readonly probe: NodeJS.Timeout;
  private closed = false;
  /** The answer being kept in the shared table (see keep), passed to its lock without a closure per request. */
  private incoming: Usage = emptyUsage();

  constructor(options: RedisUsageLedgerOptions) {
    this.redis = withUsageScripts(options.redis);
    this.local = options.local;
    this.onFailure = options.onFailure;
    this.name = options.name;
    // An 'error' listener also keeps ioredis from printing every failed reconnection.
    this.redis.on('error', (error: unknown) => this.leaveRedis(error));
    this.redis.on('close', () => this.leaveRedis('connection closed'));
    this.redis.on('ready', () => void this.recover());
    this.probe = setInterval(() => {
      if (!this.onRedis && this.redis.status === 'ready') void this.recover();
    }, PROBE_MS).unref();
    if (this.redis.status === 'ready') void this.recover();
  }

  /** Whether counts go to Redis right now (tests, the log). */
  get countingOnRedis(): boolean {
    return this.onRedis;
  }

  /** Resolves once the ledger counts on Redis (false after `timeoutMs`): start-up waits for it, briefly. */
  async ready(timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (!this.onRedis && Date.now() < until) {
      await (this.recovering ?? new Promise((resolve) => setTimeout(resolve, 10)));
    }
    return this.onRedis;
  }

  count(accountId: string, plan: PlanQuota, now: number, requests: number): Awaitable<QuotaDecision> {
    if (this.onRedis) {
      if (this.redis.status === 'ready') return this.countOnRedis(accountId, plan, now, requests);
      this.leaveRedis(`connection ${this.redis.status}`);
    }
    return this.countWithoutRedis(accountId, plan, now, requests);
  }

  private async countOnRedis(accountId: string, plan: PlanQuota, now: number, requests: number): Promise<QuotaDecision> {
    let reply: CountReply;
    const started = performance.now();
    try {
      reply = await countOnRedis(this.redis, accountId, plan.perMinute, plan.perMonth, requests, this.tally.field);
      countRedisCall((performance.now() - started) / 1000);
    } catch (error) {
      countRedisFailure();
      // Perhaps counted on Redis all the same (killed before it answered, or an answer past the timeout): decided
      // here, and settled once Redis answers again. With `open` the request goes through, so Redis's count stands.
      this.leaveRedis(error);
      if (this.onFailure !== 'open') this.tally.lose(accountId, utcDay(now));
      return this.countWithoutRedis(accountId, plan, now, requests);
    }
    const [refusal, monthCount, windowStart, windowCount, redisNow] = reply;
    const usage: Usage = { month: monthOf(redisNow), monthCount, windowStart, windowCount };
    if (this.onFailure !== 'open') this.tally.confirm(accountId, usage.month, refusal === 0 ? requests : 0);
    if (this.onFailure !== 'closed') this.keep(accountId, usage);
    return quotaDecision(usage, plan, redisNow, REFUSALS[refusal]);
  }

  private countWithoutRedis(accountId: string, plan: PlanQuota, now: number, requests: number): QuotaDecision {
    if (this.onFailure === 'closed') {
      throw new ApiError('service_unavailable', 'Usage limits cannot be checked right now; try again in a moment.', { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    }
    if (this.onFailure === 'open') {
      // Let through and counted nowhere: the headers say what Redis last said, brought to now.
      const usage = this.local.read(accountId) ?? emptyUsage();
      rollOver(usage, now);
      return quotaDecision(usage, plan, now, undefined);
    }
    const decision = this.local.count(accountId, plan, now, requests);
    if (decision.refused === undefined && requests > 0) this.backlog.add(accountId, utcDay(now), requests);
    return decision;
  }

  /**
   * Keeps Redis's answer in the shared table, where `local` would start counting: the later month, window and
   * counts win, as several threads' answers may arrive out of order.
   */
  private keep(accountId: string, usage: Usage): void {
    this.incoming = usage;
    try {
      this.local.update(accountId, this.keepIncoming);
    } catch {
      // The table is full (UsageTableFullError): nothing kept; Redis's answer stands.
    }
  }

  private readonly keepIncoming = (kept: Usage): void => {
    const answer = this.incoming;
    if (answer.month > kept.month) {
      kept.month = answer.month;
      kept.monthCount = answer.monthCount;
    } else if (answer.month === kept.month && answer.monthCount > kept.monthCount) kept.monthCount = answer.monthCount;
    if (answer.windowStart > kept.windowStart) {
      kept.windowStart = answer.windowStart;
      kept.windowCount = answer.windowCount;
    } else if (answer.windowStart === kept.windowStart && answer.windowCount > kept.windowCount) kept.windowCount = answer.windowCount;
  };

  read(accountId: string): Awaitable<Usage | undefined> {
    if (!this.onRedis || this.redis.status !== 'ready') return this.local.read(accountId);
    return this.redis.hmget(redisKeys.usage(accountId), 'month', 'monthCount', 'windowStart', 'windowCount').then(
      ([month, monthCount, windowStart, windowCount]) =>
        month === null ? undefined : { month, monthCount: Number(monthCount), windowStart: Number(windowStart), windowCount: Number(windowCount) },
      () => this.local.read(accountId),
    );
  }

  /** Stops counting on Redis until it answers again; logged once per outage. */
  private leaveRedis(reason: unknown): void {
    if (!this.onRedis) return;
    this.onRedis = false;
    setCountingOnRedis(false);
    log('warn', 'limits_redis_unavailable', { ledger: this.name, onFailure: this.onFailure, error: String((reason as Error)?.message ?? reason) });
  }

  /** Once Redis answers: merges what was counted here meanwhile, then counts on Redis again. One at a time. */
  private recover(): Promise<void> {
    this.recovering ??= this.mergeBacklog().finally(() => (this.recovering = undefined));
    return this.recovering;
  }

  private async mergeBacklog(): Promise<void> {
    if (this.onRedis || this.closed) return;
    let merged = 0;
    let lostAnswersCounted = 0;
    try {
      await this.redis.ping();
      // What Redis counted of the answers it never gave was decided here too (counted, or refused): taken back.
      lostAnswersCounted += await this.tally.settle(
        (accountId) => readTally(this.redis, accountId, this.tally.field),
        (accountId, day, units) => this.backlog.add(accountId, day, -units),
      );
      // Requests keep being counted here while a batch is merged; the loop ends with nothing left, and the switch to
      // Redis happens in the same tick, so no unit is left behind.
      while (!this.backlog.empty) {
        const batch = this.backlog.take();
        merged += await this.mergeBatch(batch);
      }
    } catch (error) {
      log('debug', 'limits_redis_recovery_failed', { ledger: this.name, error: String((error as Error)?.message ?? error) });
      return; // the probe tries again
    }
    this.onRedis = true;
    setCountingOnRedis(true);
    if (this.wasOnRedis) log('warn', 'limits_redis_back', { ledger: this.name, mergedUnits: merged, lostAnswersCounted });
    else if (merged > 0) log('warn', 'limits_on_redis', { ledger: this.name, mergedUnits: merged });
    this.wasOnRedis = true;
  }

  /** Sends a batch; what Redis does not confirm goes back to the backlog (with its merge id) and the merge fails. */
  private async mergeBatch(batch: BacklogEntry[]): Promise<number> {
    const results = await Promise.allSettled(batch.map((e) => mergeIntoRedis(this.redis, e.accountId, e.day, e.units, e.mergeId)));
    const failed = batch.filter((_, i) => results[i].status === 'rejected');
    if (failed.length > 0) {
      this.backlog.putBack(failed);
      throw (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    }
    return batch.reduce((sum, e) => sum + e.units, 0);
  }

  /** Merges what it can one last time (a clean stop), then closes the connection; what could not be merged is logged. */
  async close(): Promise<void> {
    clearInterval(this.probe);
    await this.recovering;
    if (!this.backlog.empty && this.redis.status === 'ready') await this.recover();
    this.closed = true;
    if (!this.backlog.empty) log('error', 'limits_backlog_lost', { ledger: this.name, units: this.backlog.units });
    this.redis.disconnect();
  }
}
