// Per-minute limits and monthly quotas of an account (contract, "Keys, plans and limits"): a fixed 60-second
// window that starts with the first request after the previous one ended, and the calendar month in UTC.
// Pure but for a cache of the current month's boundaries: the caller owns the usage record and the clock.
// This runs on every request, so it returns numbers and reuses texts that change once a month or never.
import type { Usage } from '../accounts/usage.js';
import type { PlanLimits } from '../accounts/plans.js';

/** The per-minute window; fleet mode's Redis script (usageScripts.ts) uses the same length. */
export const WINDOW_MS = 60_000;

export type { Usage };

export type QuotaRefusal = 'rate_limit_exceeded' | 'quota_exceeded';

/** A plan's limits with their header texts, made once per plan. */
export interface PlanQuota extends PlanLimits {
  perMinuteText: string;
  perMonthText: string;
  /** The constant stretch of the header block between the minute's and the month's numbers (http.ts). */
  monthLinesText: string;
}

export const planQuota = (limits: PlanLimits): PlanQuota => ({
  ...limits,
  perMinuteText: String(limits.perMinute),
  perMonthText: String(limits.perMonth),
  monthLinesText: `\r\nX-Quota-Limit: ${limits.perMonth}\r\nX-Quota-Remaining: `,
});

export interface QuotaDecision {
  refused: QuotaRefusal | undefined;
  plan: PlanQuota;
  minuteRemaining: number;
  /** Whole seconds until the per-minute window resets (≥ 1). */
  minuteReset: number;
  monthRemaining: number;
  /** ISO instant of the first moment of the next UTC month. */
  monthReset: string;
  /** `\r\nX-Quota-Reset: <monthReset>`, made once a month. */
  monthResetLine: string;
  /** Whole seconds to wait, on a refusal (≥ 1). */
  retryAfter: number;
}

export const emptyUsage = (): Usage => ({ month: '', monthCount: 0, windowStart: 0, windowCount: 0 });

interface Month {
  key: string;
  start: number;
  end: number;
  endText: string;
  endLine: string;
}
let month: Month = { key: '', start: 0, end: 0, endText: '', endLine: '' };

/** The UTC month around `now`; recomputed only when `now` leaves the cached one. */
function monthAt(now: number): Month {
  if (now >= month.start && now < month.end) return month;
  const d = new Date(now);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const endText = new Date(end).toISOString().replace('.000Z', 'Z');
  month = { key: d.toISOString().slice(0, 7), start, end, endText, endLine: `\r\nX-Quota-Reset: ${endText}` };
  return month;
}

/** The first instant of the next UTC month. */
export const nextMonthStart = (now: number): number => monthAt(now).end;

/**
 * Whether the window that opened at `windowStart` is over at `now`. A request stamped a little before the window
 * opened belongs to it: with several serving threads, one thread may take its clock reading before another thread
 * opens the window and count after it (under load, by milliseconds), and starting a new window then would let a
 * second allowance through. Only a clock that went back by more than a window starts a new one.
 */
export const windowOver = (windowStart: number, now: number): boolean => now >= windowStart + WINDOW_MS || now < windowStart - WINDOW_MS;

/** Brings the record to `now`: a new month or an ended window starts from zero. */
export function rollOver(usage: Usage, now: number): void {
  const m = monthAt(now);
  if (usage.month !== m.key) {
    usage.month = m.key;
    usage.monthCount = 0;
  }
  if (windowOver(usage.windowStart, now)) {
    usage.windowStart = now;
    usage.windowCount = 0;
  }
}

/**
 * Counts `requests` (one, or the tool calls of one MCP message) if the limits allow them all; what is refused is
 * not counted.
 */
export function admit(usage: Usage, plan: PlanQuota, now: number, requests = 1): QuotaDecision {
  rollOver(usage, now);
  let refused: QuotaRefusal | undefined;
  if (usage.monthCount + requests > plan.perMonth) refused = 'quota_exceeded';
  else if (usage.windowCount + requests > plan.perMinute) refused = 'rate_limit_exceeded';
  else {
    usage.monthCount += requests;
    usage.windowCount += requests;
  }
  return quotaDecision(usage, plan, now, refused);
}

/**
 * What the headers say about `usage` as it stands after a count at `now` (admit's, or the same rule run elsewhere:
 * fleet mode's Redis script, which returns the counts and its clock so that every server renders the same headers).
 */
export function quotaDecision(usage: Usage, plan: PlanQuota, now: number, refused: QuotaRefusal | undefined): QuotaDecision {
  const m = monthAt(now);
  const minuteReset = Math.min(WINDOW_MS / 1000, Math.max(1, Math.ceil((usage.windowStart + WINDOW_MS - now) / 1000)));
  return {
    refused,
    plan,
    minuteRemaining: Math.max(0, plan.perMinute - usage.windowCount),
    minuteReset,
    monthRemaining: Math.max(0, plan.perMonth - usage.monthCount),
    monthReset: m.endText,
    monthResetLine: m.endLine,
    retryAfter: refused === 'quota_exceeded' ? Math.max(1, Math.ceil((m.end - now) / 1000)) : minuteReset,
  };
}

/** `YYYY-MM`, the UTC month of `now`. */
export const monthOf = (now: number): string => monthAt(now).key;

/** The six headers of every response to a valid key, and Retry-After on a refusal. */
export function quotaHeaders(d: QuotaDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': d.plan.perMinuteText,
    'RateLimit-Remaining': String(d.minuteRemaining),
    'RateLimit-Reset': String(d.minuteReset),
    'X-Quota-Limit': d.plan.perMonthText,
    'X-Quota-Remaining': String(d.monthRemaining),
    'X-Quota-Reset': d.monthReset,
  };
  if (d.refused) headers['Retry-After'] = String(d.retryAfter);
  return headers;
}

/** An account's counts as the limits see them at an instant, for showing (the dashboard); counts nothing. */
export interface CurrentUsage {
  minuteCount: number;
  perMinute: number;
  /** Whole seconds until the current window ends; 0 when no window is open. */
  minuteReset: number;
  /** `YYYY-MM` (UTC). */
  month: string;
  monthCount: number;
  perMonth: number;
  /** ISO instant of the first moment of the next UTC month. */
  monthReset: string;
}

/** The counts of `usage` brought to `now` (an ended window or month reads as zero), on a copy. */
export function currentUsage(usage: Usage | undefined, plan: PlanLimits, now: number): CurrentUsage {
  const open = usage !== undefined && usage.windowCount > 0 && !windowOver(usage.windowStart, now);
  const copy = { ...(usage ?? emptyUsage()) };
  rollOver(copy, now);
  const m = monthAt(now);
  return {
    minuteCount: copy.windowCount,
    perMinute: plan.perMinute,
    minuteReset: open ? Math.min(WINDOW_MS / 1000, Math.max(1, Math.ceil((copy.windowStart + WINDOW_MS - now) / 1000))) : 0,
    month: m.key,
    monthCount: copy.monthCount,
    perMonth: plan.perMonth,
    monthReset: m.endText,
  };
}
