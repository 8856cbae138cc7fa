// A year of computed days (DayTimes) as compact bytes for the store, and back, exactly: every stored time is a
// whole minute, kept as minutes from the UTC midnight of its local date.
//
// Layout (format 2): a header [format: u8, year: u16, days: u16], the byte offsets (u16) of the 11 series (the six
// prayers and the five extras) and of the two flag runs; then each series as the day-to-day differences of its
// minutes in nibbles, low nibble first (CODE below: a difference of −5…5, a run of 2 to 5 days without change, or an
// int16 in the next four nibbles, for the first day's value and the rare large jump); then the `estimated` flags and
// the flags of which extras exist, a byte a day, as runs [length: u16, flags: u8]. Nearly every difference is −2…2
// (a prayer moves a minute or two a day, and not at all on half the days), so a year takes about 1.5 KB as it is:
// LMDB keeps it uncompressed in its leaf pages (a value must stay under about 2 KB for that with 4 KB pages), and
// neither the precompute nor a server spends time on lz4.
// Format 1 (int16 differences, lz4 in LMDB) is read by no server since; the store's meta names its format
// (STORE_FORMAT, timetableStore.ts). Imsak is not stored: it follows from fajr and the method.
import { addDays, type CalendarDate, toEpochDay } from '../zones/calendarDate.js';
import { PRAYERS, TIME_NAMES, type MethodDefinition } from '../astronomy/methods.js';
import { EXTRA_NAMES, SERIES_NAMES, seriesDays, type DaySeries, type DayTimes } from '../astronomy/prayerTimes.js';

const FORMAT = 2;
const SERIES = SERIES_NAMES;
const PARTS = SERIES.length + 2;
const ESTIMATED_PART = SERIES.length;
const EXTRAS_PART = SERIES.length + 1;
const HEADER_BYTES = 5 + 2 * PARTS;
/** The nibbles: a difference of −5…5 (0…10), no change for 2…5 days (11…14), an int16 in the next four (15). */
const DIFFERENCE_ZERO = 5;
const LARGEST_DIFFERENCE = 5;
const RUN_OF_TWO = 11;
const LONGEST_RUN = 5;
const ESCAPE = 15;
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
    for (let s = 0; s < PRAYERS.length; s++) values[s * count + i] = day.times[PRAYERS[s]] / MINUTE_MS;
    for (let b = 0; b < EXTRA_NAMES.length; b++) {
      const at = day.extras[EXTRA_NAMES[b]];
      if (at !== undefined) {
        values[(PRAYERS.length + b) * count + i] = at / MINUTE_MS;
        extras[i] |= 1 << b;
      }
    }
    for (const name of day.estimated) estimated[i] |= 1 << TIME_NAMES.indexOf(name);
  }
  return { first: count > 0 ? days[0].date : { year: 1970, month: 1, day: 1 }, count, values, estimated, extras };
}

/** The largest encoding of `days` days: every difference escaped, every day a run of its own. */
const largestBytes = (days: number): number => HEADER_BYTES + SERIES.length * Math.ceil((5 * days) / 2) + 2 * 3 * days;

// The encoder writes into these and copies out what it wrote (a year is encoded in one go, on one thread).
let scratch = new Uint8Array(largestBytes(366));
let differences = new Int32Array(366);

/** Encodes a calendar year's series (computeSeries from 1 January, with extras). */
export function encodeYearSeries(year: number, series: DaySeries): Buffer {
  const n = series.count;
  const { first, values: at, extras } = series;
  if (n !== daysInYear(year) || first.month !== 1 || first.day !== 1 || first.year !== year) {
    throw new Error(`encodeYear(${year}) needs the whole year from 1 January, got ${n} days`);
  }
  if (scratch.length < largestBytes(n)) scratch = new Uint8Array(largestBytes(n));
  const out = scratch;
  out[0] = FORMAT;
  putU16(out, 1, year);
  putU16(out, 3, n);
  const firstMidnight = toEpochDay(first) * DAY_MINUTES;
  let end = HEADER_BYTES;
  const deltas = differences.length >= n ? differences : (differences = new Int32Array(n));
  for (let s = 0; s < SERIES.length; s++) {
    putU16(out, 5 + 2 * s, end);
    const extraBit = s < PRAYERS.length ? 0 : 1 << (s - PRAYERS.length);
    let previous = 0;
    for (let i = 0; i < n; i++) {
      // A missing extra repeats the previous value (difference 0); its flag says it is absent. Day i's UTC midnight
      // is i days after 1 January's.
      const minutes = extraBit !== 0 && !(extras[i] & extraBit) ? previous : at[s * n + i] - (firstMidnight + i * DAY_MINUTES);
      const delta = minutes - previous;
      if (!Number.isInteger(minutes) || delta < -32768 || delta > 32767) {
        const date = addDays(first, i);
        throw new Error(`${SERIES[s]} on ${date.year}-${date.month}-${date.day} cannot be stored`);
      }
      deltas[i] = delta;
      previous = minutes;
    }
    // Nibbles from `end`, low one first.
    let nibble = end * 2;
    for (let i = 0; i < n; ) {
      const delta = deltas[i];
      if (delta === 0) {
        let run = 1;
        while (run < LONGEST_RUN && i + run < n && deltas[i + run] === 0) run++;
        nibble = putNibble(out, nibble, run === 1 ? DIFFERENCE_ZERO : RUN_OF_TWO + run - 2);
        i += run;
        continue;
      }
      if (delta >= -LARGEST_DIFFERENCE && delta <= LARGEST_DIFFERENCE) {
        nibble = putNibble(out, nibble, DIFFERENCE_ZERO + delta);
      } else {
        nibble = putNibble(out, nibble, ESCAPE);
        for (let k = 0; k < 16; k += 4) nibble = putNibble(out, nibble, (delta >> k) & 15);
      }
      i++;
    }
    end = (nibble + 1) >> 1;
  }
  putU16(out, 5 + 2 * ESTIMATED_PART, end);
  end = putRuns(out, end, series.estimated, n);
  putU16(out, 5 + 2 * EXTRAS_PART, end);
  end = putRuns(out, end, extras, n);
  // A buffer of its own (not a slice of Node's pool): the precompute's workers hand it over to the main thread.
  const bytes = Buffer.alloc(end);
  bytes.set(out.subarray(0, end));
  return bytes;
}

function putU16(out: Uint8Array, at: number, value: number): void {
  out[at] = value & 255;
  out[at + 1] = value >> 8;
}

const u16 = (bytes: Uint8Array, at: number): number => bytes[at] | (bytes[at + 1] << 8);

/** The nibble at nibble position `at` (putNibble's order: a byte's low nibble first). */
const nibbleAt = (bytes: Uint8Array, at: number): number => (bytes[at >> 1] >> ((at & 1) << 2)) & 15;

/** Writes the nibble `value` at nibble position `at` (low nibble of a byte first); returns the next position. */
function putNibble(out: Uint8Array, at: number, value: number): number {
  const byte = at >> 1;
  out[byte] = at & 1 ? out[byte] | (value << 4) : value;
  return at + 1;
}

/** `flags` (a byte a day) as runs [length: u16, flags: u8] from `at`; returns the end. */
function putRuns(out: Uint8Array, at: number, flags: Uint8Array, n: number): number {
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && flags[j] === flags[i]) j++;
    putU16(out, at, j - i);
    out[at + 2] = flags[i];
    at += 3;
    i = j;
  }
  return at;
}

/** The flags of days from..to−1 of the runs at `at`, into `into`. */
function readRuns(bytes: Uint8Array, at: number, end: number, from: number, to: number, into: Uint8Array): void {
  let day = 0;
  for (; at + 3 <= end && day < to; at += 3) {
    const next = day + u16(bytes, at);
    for (let i = Math.max(day, from); i < Math.min(next, to); i++) into[i - from] = bytes[at + 2];
    day = next;
  }
  if (day < to) throw new Error(`stored flags end at day ${day}, before ${to}`);
}

/** Decodes `count` days from day `first` (0 = 1 January) of a stored year. */
export function decodeDays(bytes: Uint8Array, method: MethodDefinition, first: number, count: number): DayTimes[] {
  return seriesDays(decodeSeries(bytes, first, count), method.imsakIsFajr === true);
}

/**
 * Decodes `count` days from day `first` (0 = 1 January) of a stored year as the series computeSeries makes (minutes
 * since 1970, an absent extra NaN): the server renders a month or the prayers of /next from these without an object
 * per day, the live ones from computeSeries, so the two go through one renderer.
 */
export function decodeSeries(bytes: Uint8Array, first: number, count: number): DaySeries {
  if (bytes.length < HEADER_BYTES || bytes[0] !== FORMAT) throw new Error(`stored timetable of format ${bytes[0]}, expected ${FORMAT}`);
  const year = u16(bytes, 1);
  const n = u16(bytes, 3);
  if (first < 0 || first + count > n) throw new Error(`days ${first}..${first + count} are outside the stored ${n}`);
  const partEnd = (part: number): number => (part + 1 < PARTS ? u16(bytes, 5 + 2 * (part + 1)) : bytes.length);
  const firstDay: CalendarDate = addDays({ year, month: 1, day: 1 }, first);
  const firstMidnight = utcMidnightMinutes(firstDay);
  const values = new Float64Array(SERIES.length * count);
  // One pass over each series' differences up to the last day asked for, keeping only the days asked for.
  for (let s = 0; s < SERIES.length; s++) {
    let nibble = 2 * u16(bytes, 5 + 2 * s);
    const end = 2 * partEnd(s);
    let value = 0;
    const upTo = first + count;
    for (let i = 0; i < upTo; ) {
      if (nibble >= end) throw new Error(`stored ${SERIES[s]} ends before day ${i}`);
      const code = nibbleAt(bytes, nibble);
      nibble++;
      let days = 1;
      if (code < RUN_OF_TWO) {
        value += code - DIFFERENCE_ZERO;
      } else if (code < ESCAPE) {
        days = code - RUN_OF_TWO + 2;
      } else {
        if (nibble + 4 > end) throw new Error(`stored ${SERIES[s]} ends before day ${i}`);
        let delta = 0;
        for (let k = 0; k < 16; k += 4, nibble++) delta |= nibbleAt(bytes, nibble) << k;
        value += (delta << 16) >> 16;
      }
      for (const last = Math.min(i + days, upTo); i < last; i++) {
        if (i >= first) values[s * count + i - first] = firstMidnight + (i - first) * DAY_MINUTES + value;
      }
    }
  }
  const estimated = new Uint8Array(count);
  const extras = new Uint8Array(count);
  readRuns(bytes, u16(bytes, 5 + 2 * ESTIMATED_PART), partEnd(ESTIMATED_PART), first, first + count, estimated);
  readRuns(bytes, u16(bytes, 5 + 2 * EXTRAS_PART), partEnd(EXTRAS_PART), first, first + count, extras);
  // An absent extra's stored value repeats the one before it: the series say NaN, as computeSeries's do.
  for (let b = 0; b < EXTRA_NAMES.length; b++) {
    for (let i = 0; i < count; i++) if (!(extras[i] & (1 << b))) values[(PRAYERS.length + b) * count + i] = NaN;
  }
  return { first: firstDay, count, values, estimated, extras };
}
