// A day's response body (`/times`) as UTF-8 bytes, written from the day's series (decoded from the store or computed
// live): no record object per day, no JSON.stringify walking the place's Location again. Stored and live days both
// come through here, so they cannot differ; dayBody.test.ts holds the bytes to what dayRecord() and JSON.stringify
// gave for the same day.
import { formatDate, fromEpochDay, toEpochDay } from '../../pipeline/zones/calendarDate.js';
import { hijriDate } from '../../pipeline/astronomy/hijri.js';
import { clockTime, isoInstant, ZoneOffsets } from '../../pipeline/zones/localTime.js';
import { PRAYERS, TIME_NAMES } from '../../pipeline/astronomy/methods.js';
import { EXTRA_NAMES, type DaySeries } from '../../pipeline/astronomy/prayerTimes.js';
import { headText } from './headText.js';

/** What a day's body says before the day, in the order it says it (the API's DailyResponse). */
export interface DayHead {
  location: Record<string, unknown>;
  method: { id: string; name: string };
  madhab: string;
  timeZone: string;
}

const MINUTE_MS = 60_000;

/** `"date":"…","hijri":{…}` by epoch day: the same for every place. */
const dateTexts = new Map<number, string>();
const DATE_TEXTS_LIMIT = 40_000;

function dateText(epochDay: number): string {
  let text = dateTexts.get(epochDay);
  if (text === undefined) {
    const date = fromEpochDay(epochDay);
    text = `"date":"${formatDate(date)}","hijri":${JSON.stringify(hijriDate(date))}`;
    if (dateTexts.size >= DATE_TEXTS_LIMIT) dateTexts.clear();
    dateTexts.set(epochDay, text);
  }
  return text;
}

/** `"estimated":[…]}` closing a day, for each combination of the estimated bits (TIME_NAMES order). */
const CLOSES = Array.from({ length: 1 << TIME_NAMES.length }, (_, bits) => `"estimated":${JSON.stringify(TIME_NAMES.filter((_, b) => bits & (1 << b)))}}`);

/**
 * The body `{…head, date, hijri, times, iso, extras, estimated}` of the series' first day, its times on the zone's
 * wall clock and as UTC instants (as dayRecord.ts writes them). Imsak is fajr, or ten minutes before it, as
 * `imsakIsFajr` says; the extras are those the series holds for the day.
 */
export function dayBytes(head: DayHead, series: DaySeries, imsakIsFajr: boolean): Buffer {
  const { values, count } = series;
  const zone = new ZoneOffsets(head.timeZone);
  const local = (ms: number): string => clockTime(ms, zone.offsetMs(ms) / 1000);
  const fajr = Math.round(values[0] * MINUTE_MS);
  // TIME_NAMES order: imsak, then the series' prayers (PRAYERS order) from fajr to isha.
  const at = [imsakIsFajr ? fajr : fajr - 10 * MINUTE_MS, fajr];
  for (let s = 1; s < PRAYERS.length; s++) at.push(Math.round(values[s * count] * MINUTE_MS));
  let times = '';
  let iso = '';
  for (let t = 0; t < TIME_NAMES.length; t++) {
    const comma = t === 0 ? '' : ',';
    times += `${comma}"${TIME_NAMES[t]}":"${local(at[t])}"`;
    iso += `${comma}"${TIME_NAMES[t]}":"${isoInstant(at[t])}"`;
  }
  let extras = '';
  const extrasBits = series.extras[0];
  for (let b = 0; b < EXTRA_NAMES.length; b++) {
    if (!(extrasBits & (1 << b))) continue;
    extras += `${extras === '' ? '' : ','}"${EXTRA_NAMES[b]}":"${local(Math.round(values[(PRAYERS.length + b) * count] * MINUTE_MS))}"`;
  }
  const day = `,${dateText(toEpochDay(series.first))},"times":{${times}},"iso":{${iso}},"extras":{${extras}},${CLOSES[series.estimated[0]]}`;
  return Buffer.from(headText(head as unknown as Record<string, unknown>) + day);
}
