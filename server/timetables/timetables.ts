// Day records for a place: from the precomputed store when it holds the place, method, madhab and years asked for,
// else computed live. Both paths build the records with the same dayRecord(), from the same DayTimes, so they
// answer alike (a test compares them over many places and dates).
import { localDateExists } from '../../pipeline/zones/localTime.js';
import { toEpochDay, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { dayRecord, type DayRecord } from '../../pipeline/astronomy/dayRecord.js';
import type { Madhab, MethodDefinition } from '../../pipeline/astronomy/methods.js';
import { zoneFor } from '../../pipeline/astronomy/methodZones.js';
import { computeTimetable, type DayTimes } from '../../pipeline/astronomy/prayerTimes.js';
import { decodeDays } from '../../pipeline/store/timetableCodec.js';
import type { TimetableReader } from '../../pipeline/store/timetableStore.js';
import { countAnswer } from './answerCounts.js';
import type { Place } from '../places/location.js';
import { cachedBody, type RenderedBody } from './renderedResponses.js';

export interface TimetableSource {
  /** The live store, when there is one built from the catalog the server uses. */
  store: TimetableReader | undefined;
  /** Why the store cannot be read, while it cannot (storeFollower.ts): answers for catalog places are then 503. */
  storeProblem?: string | undefined;
  /** Told when a read from the store fails. */
  storeReadFailed?: (error: unknown) => void;
}

/** The precomputed store should answer and cannot be read (storeFollower.ts): the API says service_unavailable. */
export class StoreUnavailableError extends Error {
  constructor() {
    super('The precomputed timetables cannot be read at the moment; try again shortly (lat and lon are answered meanwhile).');
  }
}
const storeUnavailable = (): StoreUnavailableError => new StoreUnavailableError();


/** A rendered answer, if one is kept for this key and still holds at `now` (renderedResponses.ts). */
export function storedAnswer(key: string | undefined, now: number): RenderedBody | undefined {
  const rendered = key === undefined ? undefined : cachedBody(key, now);
  if (rendered && rendered.source !== 'none') countAnswer(rendered.source === 'store');
  return rendered;
}

/** Days from the store, or undefined when any of them is not there. */
function storedDays(store: TimetableReader, placeId: string, method: MethodDefinition, madhab: Madhab, first: CalendarDate, count: number): DayTimes[] | undefined {
  const days: DayTimes[] = [];
  let epochDay = toEpochDay(first);
  const last = epochDay + count - 1;
  let year = first.year;
  while (epochDay <= last) {
    const bytes = store.get(placeId, method.id, madhab, year);
    if (!bytes) return undefined;
    const yearStart = toEpochDay({ year, month: 1, day: 1 });
    const nextYearStart = toEpochDay({ year: year + 1, month: 1, day: 1 });
    const upTo = Math.min(last, nextYearStart - 1);
    days.push(...decodeDays(bytes, method, epochDay - yearStart, upTo - epochDay + 1));
    epochDay = upTo + 1;
    year++;
  }
  return days;
}

export function dayRecords(
  source: TimetableSource,
  place: Place,
  method: MethodDefinition,
  madhab: Madhab,
  first: CalendarDate,
  count: number,
  withExtras: boolean,
): { days: DayRecord[]; fromStore: boolean } {
  let stored: DayTimes[] | undefined;
  if (place.placeId && source.storeProblem !== undefined) throw storeUnavailable();
  if (place.placeId && source.store) {
    try {
      stored = storedDays(source.store, place.placeId, method, madhab, first, count);
    } catch (error) {
      source.storeReadFailed?.(error);
      throw storeUnavailable();
    }
  }
  const days =
    stored ??
    computeTimetable(
      { latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone, method, madhab, zone: zoneFor(method, { id: place.placeId, country: place.country, region: place.region })?.code },
      first,
      count,
      withExtras,
    );
  countAnswer(stored !== undefined);
  // A date the zone's clocks skipped (Samoa's 30 December 2011) has no times: a month leaves it out.
  const shown = days.filter((day) => localDateExists(day.date, place.timeZone));
  // Stored days carry their extras; a live month leaves them out, and a month response does not show them.
  return { days: shown.map((day) => dayRecord(withExtras ? day : { ...day, extras: {} }, place.timeZone)), fromStore: stored !== undefined };
}
