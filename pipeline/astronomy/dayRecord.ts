// A computed day as the API shows it: local `HH:mm`, UTC instants, the Hijri date. The precompute batch stores
// these records and the live path builds them with the same function, so both answer alike.
import { formatDate } from '../zones/calendarDate.js';
import { hijriDate, type HijriDate } from './hijri.js';
import { clockTime, isoInstant, offsetSeconds } from '../zones/localTime.js';
import { TIME_NAMES, type TimeName } from './methods.js';
import { EXTRA_NAMES, type DayTimes, type ExtraName } from './prayerTimes.js';

export interface DayRecord {
  date: string;
  hijri: HijriDate;
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
  extras: Partial<Record<ExtraName, string>>;
  estimated: TimeName[];
}

export function dayRecord(day: DayTimes, timeZone: string): DayRecord {
  const local = (ms: number): string => clockTime(ms, offsetSeconds(timeZone, ms));
  const times = {} as Record<TimeName, string>;
  const iso = {} as Record<TimeName, string>;
  for (const name of TIME_NAMES) {
    times[name] = local(day.times[name]);
    iso[name] = isoInstant(day.times[name]);
  }
  const extras: DayRecord['extras'] = {};
  for (const name of EXTRA_NAMES) {
    const at = day.extras[name];
    if (at !== undefined) extras[name] = local(at);
  }
  return { date: formatDate(day.date), hijri: hijriDate(day.date), times, iso, extras, estimated: day.estimated };
}
