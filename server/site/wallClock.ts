// The UTC instants of a day's prayers from its local date and `HH:mm` times, as a month answer gives them (a month
// has no `iso`): the calendar feed reads 13 month answers instead of 366 day answers. A wall-clock time alone can be
// ambiguous (a DST change repeats an hour, isha may fall after midnight, fajr before it), so the prayers are placed
// in their order around dhuhr, which is near noon and never in a changed hour. Tests check the result against the
// API's `iso` for every day of a year in every zone of the catalog.
import { offsetSeconds } from '../../pipeline/zones/localTime.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The day's prayers in their order, as the calendar shows them. */
export const DAY_PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;
export type DayPrayer = (typeof DAY_PRAYERS)[number];

const DHUHR = DAY_PRAYERS.indexOf('dhuhr');

/** Every instant within a day either side of `epochDay` at which the zone's clocks show `hhmm`, earliest first. */
export function instantsShowing(epochDay: number, hhmm: string, zone: string): number[] {
  const minutes = Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const found: number[] = [];
  for (let day = epochDay - 1; day <= epochDay + 1; day++) {
    const wall = day * DAY_MS + minutes * MINUTE_MS;
    // The offsets in force around that wall time (no zone changes twice within 14 hours).
    const offsets = new Set([offsetSeconds(zone, wall - 14 * HOUR_MS), offsetSeconds(zone, wall), offsetSeconds(zone, wall + 14 * HOUR_MS)]);
    for (const offset of [...offsets].sort((a, b) => b - a)) {
      const at = wall - offset * 1000;
      // Whole local minutes (an offset with seconds was rounded to the local minute too).
      if (offsetSeconds(zone, at) === offset && !found.includes(at)) found.push(at);
    }
  }
  return found.sort((a, b) => a - b);
}

/**
 * The UTC ms of the six prayers of a local day (`epochDay`, days since 1970-01-01 on the wall clock), from their
 * `HH:mm`: dhuhr is the one on that date (the earliest if the clock showed it twice), the ones before it the latest
 * showing their time at or before the next, the ones after it the earliest at or after the previous.
 */
export function prayerInstants(epochDay: number, times: Readonly<Record<DayPrayer, string>>, zone: string): number[] {
  const at: number[] = new Array(DAY_PRAYERS.length);
  const onDay = (instant: number): boolean => Math.floor((instant + offsetSeconds(zone, instant) * 1000) / DAY_MS) === epochDay;
  const dhuhr = instantsShowing(epochDay, times.dhuhr, zone);
  at[DHUHR] = dhuhr.find(onDay) ?? nearest(dhuhr, epochDay * DAY_MS + 12 * HOUR_MS);
  for (let i = DHUHR - 1; i >= 0; i--) {
    const candidates = instantsShowing(epochDay, times[DAY_PRAYERS[i]], zone);
    at[i] = candidates.findLast((t) => t <= at[i + 1]) ?? nearest(candidates, at[i + 1]);
  }
  for (let i = DHUHR + 1; i < DAY_PRAYERS.length; i++) {
    const candidates = instantsShowing(epochDay, times[DAY_PRAYERS[i]], zone);
    at[i] = candidates.find((t) => t >= at[i - 1]) ?? nearest(candidates, at[i - 1]);
  }
  return at;
}

function nearest(candidates: readonly number[], to: number): number {
  if (candidates.length === 0) throw new Error('a time the zone\'s clocks never show');
  return candidates.reduce((best, t) => (Math.abs(t - to) < Math.abs(best - to) ? t : best));
}
