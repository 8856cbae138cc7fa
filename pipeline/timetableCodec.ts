// A year of computed days (DayTimes) as compact bytes for the store, and back, exactly: every stored time is a
// whole minute, kept as minutes from the UTC midnight of its local date.
//
// Layout: a header [format, year, days], then for each of the 11 series (the six prayers and the five extras) the
// day-to-day differences of its minutes as int16 (small numbers, which LMDB's lz4 compresses well), then one byte
// a day of `estimated` flags and one of which extras exist. Imsak is not stored: it follows from fajr and the method.
import { addDays, type CalendarDate, toEpochDay } from './calendarDate.js';
import { PRAYERS, TIME_NAMES, type MethodDefinition, type TimeName } from './methods.js';
import { EXTRA_NAMES, type DayTimes } from './prayerTimes.js';

const FORMAT = 1;
const HEADER_INT16 = 3;
const SERIES = [...PRAYERS, ...EXTRA_NAMES] as const;
const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;

const utcMidnightMinutes = (d: CalendarDate): number => toEpochDay(d) * DAY_MINUTES;

export function daysInYear(year: number): number {
  return toEpochDay({ year: year + 1, month: 1, day: 1 }) - toEpochDay({ year, month: 1, day: 1 });
}

/** The value of series `s` (SERIES order) of a day, UTC milliseconds; undefined for a missing extra. */
function seriesValue(day: DayTimes, s: number): number | undefined {
  // A switch on plain property reads: a computed key per value (day.times[name]) costs more than the encoding.
  switch (s) {
    case 0: return day.times.fajr;
    case 1: return day.times.sunrise;
    case 2: return day.times.dhuhr;
    case 3: return day.times.asr;
    case 4: return day.times.maghrib;
    case 5: return day.times.isha;
    case 6: return day.extras.ishraq;
    case 7: return day.extras.zawalStart;
    case 8: return day.extras.isfirar;
    case 9: return day.extras.midnight;
    default: return day.extras.lastThirdStart;
  }
}

/** Encodes the days of one calendar year, 1 January first. */
export function encodeYear(year: number, days: readonly DayTimes[]): Buffer {
  const n = days.length;
  if (n !== daysInYear(year) || days[0].date.month !== 1 || days[0].date.day !== 1 || days[0].date.year !== year) {
    throw new Error(`encodeYear(${year}) needs the whole year from 1 January, got ${n} days`);
  }
  const valueBytes = (HEADER_INT16 + SERIES.length * n) * 2;
  // One buffer for the differences and the flags: values as int16 over its first part, flags as bytes after.
  const bytes = Buffer.alloc(valueBytes + 2 * n);
  const values = new Int16Array(bytes.buffer, bytes.byteOffset, valueBytes / 2);
  values[0] = FORMAT;
  values[1] = year;
  values[2] = n;
  const firstMidnight = toEpochDay(days[0].date) * DAY_MINUTES;
  for (let s = 0; s < SERIES.length; s++) {
    let previous = 0;
    for (let i = 0; i < n; i++) {
      const at = seriesValue(days[i], s);
      // A missing extra repeats the previous value (difference 0); its flag says it is absent. The days are
      // consecutive from 1 January, so day i's UTC midnight is i days after the first's.
      const minutes = at === undefined ? previous : at / MINUTE_MS - (firstMidnight + i * DAY_MINUTES);
      const delta = minutes - previous;
      if (!Number.isInteger(minutes) || delta < -32768 || delta > 32767) {
        const { date } = days[i];
        throw new Error(`${SERIES[s]} on ${date.year}-${date.month}-${date.day} cannot be stored`);
      }
      values[HEADER_INT16 + s * n + i] = delta;
      previous = minutes;
    }
  }
  for (let i = 0; i < n; i++) {
    const day = days[i];
    let estimatedBits = 0;
    const estimated = day.estimated;
    for (let k = 0; k < estimated.length; k++) estimatedBits |= 1 << TIME_NAMES.indexOf(estimated[k]);
    const extras = day.extras;
    const extrasBits =
      (extras.ishraq !== undefined ? 1 : 0) |
      (extras.zawalStart !== undefined ? 2 : 0) |
      (extras.isfirar !== undefined ? 4 : 0) |
      (extras.midnight !== undefined ? 8 : 0) |
      (extras.lastThirdStart !== undefined ? 16 : 0);
    bytes[valueBytes + i] = estimatedBits;
    bytes[valueBytes + n + i] = extrasBits;
  }
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
