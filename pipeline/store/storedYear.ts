// A place's calendar year as the store keeps it: computed as series (no object per day) and encoded. The precompute's
// workers run this for every place-year; batchLive.test.ts holds it to the live path, day by day.
import { computeSeries, type DaySeries, type TimetableQuery } from '../astronomy/prayerTimes.js';
import { daysInYear, encodeYearSeries } from './timetableCodec.js';

// The last year's series, written over by the next of as many days: a worker computes years one after another, and
// new arrays for each (about 33 KB, outside V8's heap) brought on a full garbage collection every few hundred.
let reusable: DaySeries | undefined;

export function storedYear(query: TimetableQuery, year: number): Buffer {
  const series = computeSeries(query, { year, month: 1, day: 1 }, daysInYear(year), true, { reuse: reusable });
  reusable = series;
  return encodeYearSeries(year, series);
}
