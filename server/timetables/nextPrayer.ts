// The prayers around a local day for /next: yesterday's, today's and tomorrow's six times in order. For a place
// answered from the store they are kept per day (bounded, keyed by the build like the rendered answers), so a
// repeated /next decodes and formats nothing and only finds where `now` falls.
import { addDays, toEpochDay, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { clockTime, isoInstant, ZoneOffsets } from '../../pipeline/zones/localTime.js';
import { PRAYERS, type Madhab, type MethodDefinition } from '../../pipeline/astronomy/methods.js';
import type { DaySeries } from '../../pipeline/astronomy/prayerTimes.js';
import { countAnswer } from './answerCounts.js';
import type { Place } from '../places/location.js';
import { daySeries, type TimetableSource } from './timetables.js';

/** The prayers of /next, in the order of a day. */
export const NEXT_PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;
const LIMIT = 20_000;

export interface PrayerInstant {
  prayer: (typeof NEXT_PRAYERS)[number];
  time: string;
  iso: string;
  at: number;
}

const kept = new Map<string, PrayerInstant[]>();
/** Where each of NEXT_PRAYERS is among a series' (SERIES_NAMES). */
const SERIES_OF = NEXT_PRAYERS.map((prayer) => PRAYERS.indexOf(prayer));
const MINUTE_MS = 60_000;

/**
 * The series' prayers in time order, as a day's record shows them (dayRecord.ts: the wall clock's `HH:mm`, the UTC
 * instant), straight from the numbers; a date the zone's clocks skipped has none.
 */
function instantsOf(series: DaySeries, timeZone: string): PrayerInstant[] {
  const { values, count } = series;
  const zone = new ZoneOffsets(timeZone);
  const firstDay = toEpochDay(series.first);
  const prayers: PrayerInstant[] = [];
  for (let i = 0; i < count; i++) {
    if (!zone.dateExists(firstDay + i)) continue;
    for (let p = 0; p < NEXT_PRAYERS.length; p++) {
      const ms = Math.round(values[SERIES_OF[p] * count + i] * MINUTE_MS);
      // `at` is the instant `iso` names: whole seconds.
      prayers.push({ prayer: NEXT_PRAYERS[p], time: clockTime(ms, zone.offsetMs(ms) / 1000), iso: isoInstant(ms), at: Math.floor(ms / 1000) * 1000 });
    }
  }
  return prayers.sort((a, b) => a.at - b.at);
}

/** The prayers of the local days before, of and after `today`, in time order. */
export function prayersAround(
  source: TimetableSource,
  place: Place,
  method: MethodDefinition,
  madhab: Madhab,
  today: CalendarDate,
  /** The key to keep them under (routes.ts's storedAnswerKey); undefined when they are computed live. */
  key: string | undefined,
): { prayers: PrayerInstant[]; fromStore: boolean } {
  const known = key === undefined ? undefined : kept.get(key);
  if (known) {
    countAnswer(true);
    return { prayers: known, fromStore: true };
  }
  const { series, fromStore } = daySeries(source, place, method, madhab, addDays(today, -1), 3, false);
  const prayers = instantsOf(series, place.timeZone);
  if (key !== undefined && fromStore) {
    if (kept.size >= LIMIT) kept.clear();
    kept.set(key, prayers);
  }
  return { prayers, fromStore };
}
