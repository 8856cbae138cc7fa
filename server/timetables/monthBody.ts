// A month's response body as UTF-8 bytes, written straight from the month's series (a DaySeries, decoded from the
// store or computed live): no object per day, no JSON.stringify of thirty of them, no string to encode. Stored and
// live months both come through here, so they cannot differ; monthBody.test.ts holds the bytes to what the objects of
// dayRecord() gave, serialized.
import { formatDate, fromEpochDay, toEpochDay } from '../../pipeline/zones/calendarDate.js';
import { hijriDate } from '../../pipeline/astronomy/hijri.js';
import { ZoneOffsets } from '../../pipeline/zones/localTime.js';
import { TIME_NAMES } from '../../pipeline/astronomy/methods.js';
import type { DaySeries } from '../../pipeline/astronomy/prayerTimes.js';
import { headText } from './headText.js';

/** What a month's body says before its days, in the order it says it (the API's MonthResponse). */
export interface MonthHead {
  location: Record<string, unknown>;
  method: { id: string; name: string };
  madhab: string;
  timeZone: string;
  year: number;
  month: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DAY_MINUTES = 1440;

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;
/** `HH:mm` of every minute of a day, five bytes each. */
const CLOCK = Buffer.from(Array.from({ length: DAY_MINUTES }, (_, m) => `${pad2(Math.floor(m / 60))}:${pad2(m % 60)}`).join(''), 'latin1');

/**
 * A day's times between its opening and its close, `HH:mm","fajr":"HH:mm",…,"isha":"HH:mm`: copied, then each time
 * written into its five-byte hole (HOLES, TIME_NAMES order).
 */
const HOLES: number[] = [];
let timesText = '';
for (const [i, name] of TIME_NAMES.entries()) {
  if (i > 0) timesText += `","${name}":"`;
  HOLES.push(timesText.length);
  timesText += '00:00';
}
const TIMES = Buffer.from(timesText, 'latin1');

/** `"},"estimated":[…]}` closing a day, for each combination of the estimated bits (TIME_NAMES order). */
const CLOSES = Array.from({ length: 1 << TIME_NAMES.length }, (_, bits) =>
  Buffer.from(`"},"estimated":${JSON.stringify(TIME_NAMES.filter((_, b) => bits & (1 << b)))}}`, 'latin1'),
);

/** `{"date":…,"hijri":{…},"times":{"imsak":"` by epoch day: a date's opening is the same for every place. */
const openings = new Map<number, Buffer>();
const OPENINGS_LIMIT = 40_000;

function dayOpening(epochDay: number): Buffer {
  let opening = openings.get(epochDay);
  if (opening === undefined) {
    const date = fromEpochDay(epochDay);
    opening = Buffer.from(`{"date":"${formatDate(date)}","hijri":${JSON.stringify(hijriDate(date))},"times":{"imsak":"`);
    if (openings.size >= OPENINGS_LIMIT) openings.clear();
    openings.set(epochDay, opening);
  }
  return opening;
}

// Written here, then copied out: one month at a time, on one thread. About 6 KB for a month with its head.
let scratch = new Uint8Array(16 * 1024);

/** The scratch buffer with room for `needed` bytes, what was written up to `used` kept. */
function roomFor(needed: number, used: number): Uint8Array {
  if (needed > scratch.length) {
    const larger = new Uint8Array(2 * needed);
    larger.set(scratch.subarray(0, used));
    scratch = larger;
  }
  return scratch;
}

/** The wall-clock instant `localMs` (an instant plus its zone's offset), `HH:mm`, into `out` at `at` (clockTime's arithmetic, localTime.ts). */
function putClock(out: Uint8Array, at: number, localMs: number): void {
  let minute = Math.floor(localMs / MINUTE_MS) % DAY_MINUTES;
  if (minute < 0) minute += DAY_MINUTES;
  const from = 5 * minute;
  out[at] = CLOCK[from];
  out[at + 1] = CLOCK[from + 1];
  out[at + 2] = CLOCK[from + 2];
  out[at + 3] = CLOCK[from + 3];
  out[at + 4] = CLOCK[from + 4];
}

/**
 * The body `{…head, "days": [{date, hijri, times, estimated}, …]}` of the series' days, their times on the zone's wall
 * clock (as dayRecord.ts writes them); a date the zone's clocks skipped (Samoa's 30 December 2011) is left out. Imsak
 * is fajr, or ten minutes before it, as `imsakIsFajr` says. The bytes JSON.stringify would give for those objects.
 */
export function monthBytes(head: MonthHead, series: DaySeries, imsakIsFajr: boolean): Buffer {
  const { values, count, estimated } = series;
  const zone = new ZoneOffsets(head.timeZone);
  const firstDay = toEpochDay(series.first);
  // One offset from the day before the month to the day after it, as in most months of most zones: no lookup per
  // time. NaN when the clocks change in between: each time then asks the zone.
  const steady = zone.offsetThroughout((firstDay - 1) * DAY_MS, (firstDay + count + 1) * DAY_MS);
  const local = (ms: number): number => ms + (steady === steady ? steady : zone.offsetMs(ms));
  const open = Buffer.from(`${headText(head as unknown as Record<string, unknown>)},"days":[`);
  let out = roomFor(open.length, 0);
  out.set(open, 0);
  let at = open.length;
  for (let i = 0; i < count; i++) {
    if (!zone.dateExists(firstDay + i)) continue;
    const opening = dayOpening(firstDay + i);
    const close = CLOSES[estimated[i]];
    out = roomFor(at + 1 + opening.length + TIMES.length + close.length + 2, at);
    if (at > open.length) out[at++] = 0x2c; // ,
    out.set(opening, at);
    at += opening.length;
    out.set(TIMES, at);
    const fajr = Math.round(values[i] * MINUTE_MS);
    putClock(out, at + HOLES[0], local(imsakIsFajr ? fajr : fajr - 10 * MINUTE_MS));
    putClock(out, at + HOLES[1], local(fajr));
    // Sunrise to isha: the series after fajr (PRAYERS order), the times after fajr (TIME_NAMES order).
    for (let s = 1; s < 6; s++) putClock(out, at + HOLES[s + 1], local(Math.round(values[s * count + i] * MINUTE_MS)));
    at += TIMES.length;
    out.set(close, at);
    at += close.length;
  }
  out = roomFor(at + 2, at);
  out[at++] = 0x5d; // ]
  out[at++] = 0x7d; // }
  const body = Buffer.allocUnsafe(at);
  body.set(out.subarray(0, at));
  return body;
}
