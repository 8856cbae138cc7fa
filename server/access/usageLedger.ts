// Where the per-minute and monthly counts live, behind one interface: the embedded implementation is a table in
// shared memory (sharedUsage.ts), exact across the serving threads; fleet mode puts one atomic Redis script behind
// the same method (redisUsageLedger.ts). Values in (no closures, so a remote implementation can run the same rule),
// the decision out: synchronous on the embedded path (no promise made), a promise from Redis.
import type { Awaitable } from '../accounts/awaitable.js';
import type { PlanQuota, QuotaDecision, Usage } from './quota.js';

export interface UsageLedger {
  /**
   * Counts `requests` units for the account under its plan's limits at `now`, all or none (quota.ts's `admit`),
   * and returns what the rate-limit and quota headers say; a refusal counts nothing. (The Redis ledger takes Redis's
   * clock instead of `now`, so that every server agrees.)
   */
  count(accountId: string, plan: PlanQuota, now: number, requests: number): Awaitable<QuotaDecision>;
  /** A copy of the account's usage as last counted (not brought to any clock: see quota.ts's currentUsage), counting nothing. */
  read(accountId: string): Awaitable<Usage | undefined>;
}
