// A place's calendar year as the store keeps it: computed as series (no object per day) and encoded. The precompute's
// workers run this for every place-year; batchLive.test.ts holds it to the live path, day by day.
import { computeSeries, type TimetableQuery } from './prayerTimes.js';
import { daysInYear, encodeYearSeries } from './timetableCodec.js';

export function storedYear(query: TimetableQuery, year: number): Buffer {
  return encodeYearSeries(year, computeSeries(query, { year, month: 1, day: 1 }, daysInYear(year), true));
}
