// Per-minute limits and monthly quotas of an account (contract, "Keys, plans and limits"): a fixed 60-second
// window that starts with the first request after the previous one ended, and the calendar month in UTC.
// Pure: the caller owns the usage record and the clock.
import type { PlanLimits } from './plans.js';

const WINDOW_MS = 60_000;

export interface Usage {
  /** `YYYY-MM` of the counted month (UTC). */
  month: string;
  monthCount: number;
  /** UTC milliseconds at which the current per-minute window began. */
  windowStart: number;
  windowCount: number;
}

export type QuotaRefusal = 'rate_limit_exceeded' | 'quota_exceeded';

export interface QuotaDecision {
  refused: QuotaRefusal | undefined;
  /** The six headers of every response to a valid key, plus Retry-After on a refusal. */
  headers: Record<string, string>;
}

export const emptyUsage = (): Usage => ({ month: '', monthCount: 0, windowStart: 0, windowCount: 0 });

const monthOf = (now: number): string => new Date(now).toISOString().slice(0, 7);

/** The first instant of the next UTC month. */
export function nextMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Brings the record to `now`: a new month or an ended window starts from zero. */
export function rollOver(usage: Usage, now: number): void {
  const month = monthOf(now);
  if (usage.month !== month) {
    usage.month = month;
    usage.monthCount = 0;
  }
  if (now >= usage.windowStart + WINDOW_MS || now < usage.windowStart) {
    usage.windowStart = now;
    usage.windowCount = 0;
  }
}

/** Counts one request if the limits allow it; a refused request is not counted. */
export function admit(usage: Usage, limits: PlanLimits, now: number): QuotaDecision {
  rollOver(usage, now);
  let refused: QuotaRefusal | undefined;
  if (usage.monthCount >= limits.perMonth) refused = 'quota_exceeded';
  else if (usage.windowCount >= limits.perMinute) refused = 'rate_limit_exceeded';
  else {
    usage.monthCount++;
    usage.windowCount++;
  }
  const monthReset = nextMonthStart(now);
  const windowResetSeconds = Math.max(1, Math.ceil((usage.windowStart + WINDOW_MS - now) / 1000));
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(limits.perMinute),
    'RateLimit-Remaining': String(Math.max(0, limits.perMinute - usage.windowCount)),
    'RateLimit-Reset': String(windowResetSeconds),
    'X-Quota-Limit': String(limits.perMonth),
    'X-Quota-Remaining': String(Math.max(0, limits.perMonth - usage.monthCount)),
    'X-Quota-Reset': new Date(monthReset).toISOString().replace('.000Z', 'Z'),
  };
  if (refused === 'quota_exceeded') headers['Retry-After'] = String(Math.max(1, Math.ceil((monthReset - now) / 1000)));
  if (refused === 'rate_limit_exceeded') headers['Retry-After'] = String(windowResetSeconds);
  return { refused, headers };
}
