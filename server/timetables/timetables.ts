// Days at a place: from the precomputed store when it holds the place, method, madhab and years asked for, else
// computed live. Both paths give the same series (DaySeries), and the bodies are built from them by one function
// (dayBody.ts, monthBody.ts), so they answer alike (a test compares them over many places and dates).
import { toEpochDay, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import type { Madhab, MethodDefinition } from '../../pipeline/astronomy/methods.js';
import { zoneFor, zonedQuery } from '../../pipeline/astronomy/methodZones.js';
import { computeSeries, SERIES_NAMES, type DaySeries, type TimetableQuery } from '../../pipeline/astronomy/prayerTimes.js';
import { decodeSeries } from '../../pipeline/store/timetableCodec.js';
import type { TimetableReader } from '../../pipeline/store/timetableStore.js';
import { countAnswer, countKeptAnswer } from './answerCounts.js';
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
  if (rendered && rendered.source !== 'none') countKeptAnswer(rendered.source === 'store');
  return rendered;
}

/** Days from the store as series, or undefined when any of them is not there. */
function storedSeries(store: TimetableReader, placeId: string, method: MethodDefinition, madhab: Madhab, first: CalendarDate, count: number): DaySeries | undefined {
  const parts: DaySeries[] = [];
  let epochDay = toEpochDay(first);
  const last = epochDay + count - 1;
  let year = first.year;
  while (epochDay <= last) {
    const bytes = store.get(placeId, method.id, madhab, year);
    if (!bytes) return undefined;
    const yearStart = toEpochDay({ year, month: 1, day: 1 });
    const nextYearStart = toEpochDay({ year: year + 1, month: 1, day: 1 });
    const upTo = Math.min(last, nextYearStart - 1);
    parts.push(decodeSeries(bytes, epochDay - yearStart, upTo - epochDay + 1));
    epochDay = upTo + 1;
    year++;
  }
  return parts.length === 1 ? parts[0] : joinedSeries(parts);
}

/** Consecutive runs of days as one (days across New Year come from two stored years). */
function joinedSeries(parts: readonly DaySeries[]): DaySeries {
  const count = parts.reduce((n, part) => n + part.count, 0);
  const joined: DaySeries = { first: parts[0].first, count, values: new Float64Array(SERIES_NAMES.length * count), estimated: new Uint8Array(count), extras: new Uint8Array(count) };
  let at = 0;
  for (const part of parts) {
    for (let s = 0; s < SERIES_NAMES.length; s++) joined.values.set(part.values.subarray(s * part.count, (s + 1) * part.count), s * count + at);
    joined.estimated.set(part.estimated, at);
    joined.extras.set(part.extras, at);
    at += part.count;
  }
  return joined;
}

/** A run of days at a place as series, from the store or computed live, and how imsak follows from its fajr. */
export interface PlaceSeries {
  series: DaySeries;
  imsakIsFajr: boolean;
  fromStore: boolean;
}

/**
 * The series a live run of `count` days is written into, one per length on this thread: a request about a new point
 * would otherwise allocate three typed arrays, outside V8's heap, for a body that is written out at once.
 */
const scratch = new Map<number, DaySeries>();
function scratchSeries(count: number): DaySeries {
  let series = scratch.get(count);
  if (!series) {
    series = { first: { year: 1970, month: 1, day: 1 }, count, values: new Float64Array(SERIES_NAMES.length * count), estimated: new Uint8Array(count), extras: new Uint8Array(count) };
    scratch.set(count, series);
  }
  return series;
}

/**
 * `count` days from `first` at the place: from the store when it holds the place, else computed live with the
 * precompute's own kernel (computeSeries). No object per day: a month or /next renders straight from these. A live
 * series is this thread's scratch (scratchSeries): read it before asking for another.
 */
export function daySeries(
  source: TimetableSource,
  place: Place,
  method: MethodDefinition,
  madhab: Madhab,
  first: CalendarDate,
  count: number,
  withExtras: boolean,
): PlaceSeries {
  let stored: DaySeries | undefined;
  if (place.placeId && source.storeProblem !== undefined) throw storeUnavailable();
  if (place.placeId && source.store) {
    try {
      stored = storedSeries(source.store, place.placeId, method, madhab, first, count);
    } catch (error) {
      source.storeReadFailed?.(error);
      throw storeUnavailable();
    }
  }
  countAnswer(stored !== undefined);
  if (stored) return { series: stored, imsakIsFajr: method.imsakIsFajr === true, fromStore: true };
  const query: TimetableQuery = {
    latitude: place.latitude,
    longitude: place.longitude,
    timeZone: place.timeZone,
    method,
    madhab,
    zone: zoneFor(method, { id: place.placeId, country: place.country, region: place.region })?.code,
  };
  const series = computeSeries(query, first, count, withExtras, { reuse: scratchSeries(count) });
  return { series, imsakIsFajr: zonedQuery(query).method.imsakIsFajr === true, fromStore: false };
}
