// The prayers around a local day for /next: yesterday's, today's and tomorrow's six times in order. For a place
// answered from the store they are kept per day (bounded, keyed by the build like the rendered answers), so a
// repeated /next decodes and formats nothing and only finds where `now` falls.
import { addDays, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import type { Madhab, MethodDefinition } from '../../pipeline/astronomy/methods.js';
import { countAnswer } from './answerCounts.js';
import type { Place } from '../places/location.js';
import { dayRecords, type TimetableSource } from './timetables.js';

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
  const { days, fromStore } = dayRecords(source, place, method, madhab, addDays(today, -1), 3, false);
  const prayers = days
    .flatMap((day) => NEXT_PRAYERS.map((prayer) => ({ prayer, time: day.times[prayer], iso: day.iso[prayer], at: Date.parse(day.iso[prayer]) })))
    .sort((a, b) => a.at - b.at);
  if (key !== undefined && fromStore) {
    if (kept.size >= LIMIT) kept.clear();
    kept.set(key, prayers);
  }
  return { prayers, fromStore };
}
