// Daily usage per account: how many counted requests each UTC day, kept at least DAILY_USAGE_KEPT_DAYS days. The
// primary thread's usage writer (access/usageWriter.ts) adds each second's growth of the monthly counts to the day
// it is written on, in the same transaction as the monthly counts themselves; the dashboard reads it. The
// AccountStore implements this interface (accountStore.ts), so fleet mode puts the same Redis behind both.
import type { Awaitable } from './awaitable.js';

/** Days kept: a day older than this many days before today is pruned (the contract asks for at least 400). */
export const DAILY_USAGE_KEPT_DAYS = 400;

export interface DailyCount {
  /** UTC `YYYY-MM-DD`. */
  day: string;
  count: number;
}

export interface UsageHistory {
  /** One entry per UTC day from `fromDay` to `toDay` (both included, `YYYY-MM-DD`), oldest first; 0 for a day without requests. */
  dailyUsage(accountId: string, fromDay: string, toDay: string): Awaitable<DailyCount[]>;
  /** Deletes the days before `beforeDay` (`YYYY-MM-DD`) of every account; resolves once committed. */
  pruneDailyUsage(beforeDay: string): Promise<void>;
}

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const dayNumber = (day: string): number => {
  if (!DAY_PATTERN.test(day)) throw new RangeError(`not a day: ${day}`);
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
};

/** The day `days` days after (or, negative, before) `day`. */
export const addDays = (day: string, days: number): string => new Date((dayNumber(day) + days) * DAY_MS).toISOString().slice(0, 10);

/** Every day from `fromDay` to `toDay`, both included; empty when `toDay` comes first. */
export function daysFrom(fromDay: string, toDay: string): string[] {
  const from = dayNumber(fromDay);
  const to = dayNumber(toDay);
  const days: string[] = [];
  for (let n = from; n <= to; n++) days.push(new Date(n * DAY_MS).toISOString().slice(0, 10));
  return days;
}
