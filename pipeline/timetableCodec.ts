// A year of computed days (DayTimes) as compact bytes for the store, and back, exactly: every stored time is a
// whole minute, kept as minutes from the UTC midnight of its local date.
//
// Layout: a header [format, year, days], then for each of the 11 series (the six prayers and the five extras) the
// day-to-day differences of its minutes as int16 (small numbers, which LMDB's lz4 compresses well), then one byte
// a day of `estimated` flags and one of which extras exist. Imsak is not stored: it follows from fajr and the method.
import { addDays, type CalendarDate, toEpochDay } from './calendarDate.js';
import { PRAYERS, TIME_NAMES, type MethodDefinition, type TimeName } from './methods.js';
import { EXTRA_NAMES, SERIES_NAMES, type DaySeries, type DayTimes } from './prayerTimes.js';

const FORMAT = 1;
const HEADER_INT16 = 3;
const SERIES = SERIES_NAMES;
const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;

const utcMidnightMinutes = (d: CalendarDate): number => toEpochDay(d) * DAY_MINUTES;

export function daysInYear(year: number): number {
  return toEpochDay({ year: year + 1, month: 1, day: 1 }) - toEpochDay({ year, month: 1, day: 1 });
}

/** Encodes the days of one calendar year, 1 January first. */
export function encodeYear(year: number, days: readonly DayTimes[]): Buffer {
  return encodeYearSeries(year, seriesOfDays(days));
}

/** DayTimes as a DaySeries (the precompute computes series directly; this serves callers holding days). */
function seriesOfDays(days: readonly DayTimes[]): DaySeries {
  const count = days.length;
  const values = new Float64Array(SERIES.length * count).fill(NaN);
  const estimated = new Uint8Array(count);
  const extras = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const day = days[i];
    for (let s = 0; s < PRAYERS.length; s++) values[s * count + i] = day.times[PRAYERS[s]];
    for (let b = 0; b < EXTRA_NAMES.length; b++) {
      const at = day.extras[EXTRA_NAMES[b]];
      if (at !== undefined) {
        values[(PRAYERS.length + b) * count + i] = at;
        extras[i] |= 1 << b;
      }
    }
    for (const name of day.estimated) estimated[i] |= 1 << TIME_NAMES.indexOf(name);
  }
  return { first: count > 0 ? days[0].date : { year: 1970, month: 1, day: 1 }, count, values, estimated, extras };
}

/** Encodes a calendar year's series (computeSeries from 1 January, with extras). */
export function encodeYearSeries(year: number, series: DaySeries): Buffer {
  const n = series.count;
  const { first, values: at, extras } = series;
  if (n !== daysInYear(year) || first.month !== 1 || first.day !== 1 || first.year !== year) {
    throw new Error(`encodeYear(${year}) needs the whole year from 1 January, got ${n} days`);
  }
  const valueBytes = (HEADER_INT16 + SERIES.length * n) * 2;
  // One buffer for the differences and the flags: values as int16 over its first part, flags as bytes after.
  const bytes = Buffer.alloc(valueBytes + 2 * n);
  const values = new Int16Array(bytes.buffer, bytes.byteOffset, valueBytes / 2);
  values[0] = FORMAT;
  values[1] = year;
  values[2] = n;
  const firstMidnight = toEpochDay(first) * DAY_MINUTES;
  for (let s = 0; s < SERIES.length; s++) {
    const extraBit = s < PRAYERS.length ? 0 : 1 << (s - PRAYERS.length);
    let previous = 0;
    for (let i = 0; i < n; i++) {
      // A missing extra repeats the previous value (difference 0); its flag says it is absent. Day i's UTC midnight
      // is i days after 1 January's.
      const minutes = extraBit !== 0 && !(extras[i] & extraBit) ? previous : at[s * n + i] / MINUTE_MS - (firstMidnight + i * DAY_MINUTES);
      const delta = minutes - previous;
      if (!Number.isInteger(minutes) || delta < -32768 || delta > 32767) {
        const date = addDays(first, i);
        throw new Error(`${SERIES[s]} on ${date.year}-${date.month}-${date.day} cannot be stored`);
      }
      values[HEADER_INT16 + s * n + i] = delta;
      previous = minutes;
    }
  }
  bytes.set(series.estimated, valueBytes);
  bytes.set(extras, valueBytes + n);
  return bytes;
}

/** Decodes `count` days from day `first` (0 = 1 January) of a stored year. */
export function decodeDays(bytes: Uint8Array, method: MethodDefinition, first: number, count: number): DayTimes[] {
  // Copy into an aligned buffer: LMDB hands out bytes at any offset.
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  const header = new Int16Array(aligned.buffer, 0, HEADER_INT16);
  if (header[0] !== FORMAT) throw new Error(`stored timetable of format ${header[0]}, expected ${FORMAT}`);
  const year = header[1];
  const n = header[2];
  const expectedBytes = (HEADER_INT16 + SERIES.length * n) * 2 + 2 * n;
  if (bytes.length !== expectedBytes) throw new Error(`stored timetable of ${bytes.length} bytes, expected ${expectedBytes} for ${n} days`);
  if (first < 0 || first + count > n) throw new Error(`days ${first}..${first + count} are outside the stored ${n}`);
  const values = new Int16Array(aligned.buffer, HEADER_INT16 * 2, SERIES.length * n);
  const flags = new Uint8Array(aligned.buffer, (HEADER_INT16 + SERIES.length * n) * 2, 2 * n);
  // One pass over the differences up to the last day asked for, keeping only the days asked for.
  const minutes = new Int32Array(SERIES.length * count);
  for (let s = 0; s < SERIES.length; s++) {
    let value = 0;
    const series = s * n;
    for (let i = 0; i < first + count; i++) {
      value += values[series + i];
      if (i >= first) minutes[(i - first) * SERIES.length + s] = value;
    }
  }
  const januaryFirst: CalendarDate = { year, month: 1, day: 1 };
  const days: DayTimes[] = [];
  for (let k = 0; k < count; k++) {
    const date = addDays(januaryFirst, first + k);
    const base = utcMidnightMinutes(date);
    const at = (s: number) => (base + minutes[k * SERIES.length + s]) * MINUTE_MS;
    const fajr = at(0);
    const times = {
      imsak: method.imsakIsFajr ? fajr : fajr - 10 * MINUTE_MS,
      fajr,
      sunrise: at(1),
      dhuhr: at(2),
      asr: at(3),
      maghrib: at(4),
      isha: at(5),
    };
    const estimatedBits = flags[first + k];
    const extrasBits = flags[n + first + k];
    const extras: DayTimes['extras'] = {};
    EXTRA_NAMES.forEach((name, b) => {
      if (extrasBits & (1 << b)) extras[name] = at(PRAYERS.length + b);
    });
    days.push({ date, times, estimated: TIME_NAMES.filter((_, b) => estimatedBits & (1 << b)), extras });
  }
  return days;
}
