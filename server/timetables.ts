// Day records for a place: computed live here; the precomputed store will answer first once it exists.
import type { CalendarDate } from '../pipeline/calendarDate.js';
import { dayRecord, type DayRecord } from '../pipeline/dayRecord.js';
import type { Madhab, MethodDefinition } from '../pipeline/methods.js';
import { computeTimetable } from '../pipeline/prayerTimes.js';
import type { Place } from './location.js';

export function dayRecords(
  place: Place,
  method: MethodDefinition,
  madhab: Madhab,
  first: CalendarDate,
  count: number,
  withExtras: boolean,
): DayRecord[] {
  const query = { latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone, method, madhab };
  return computeTimetable(query, first, count, withExtras).map((day) => dayRecord(day, place.timeZone));
}
