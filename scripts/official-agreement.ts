// How closely each national method prints its authority's published minute: every row of the official samples
// (../shared/reference/official/*.csv) computed with the authority's method through the pipeline the API uses
// (computeDay, then dayRecord), at the row's lat/lon, in the row's zone, on the row's date; per authority and
// prayer: the share of exact minutes, of minutes within one, and the worst difference (ours − published, signed).
//
// The split (decided before any rule was chosen; docs/authorities.md): each file's rows fall into place-months
// (place, YYYY-MM) in file order; the last two place-months are held out (the last one when a file has fewer than
// five). Rules were chosen on the development part only.
// Usage: npm run official:agreement
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDate } from '../pipeline/zones/calendarDate.js';
import { dayRecord } from '../pipeline/astronomy/dayRecord.js';
import { methodById, TIME_NAMES, type TimeName } from '../pipeline/astronomy/methods.js';
import { computeDay } from '../pipeline/astronomy/prayerTimes.js';
import { zoneFor } from '../pipeline/astronomy/methodZones.js';

export const OFFICIAL_DIR = fileURLToPath(new URL('../../shared/reference/official/', import.meta.url));

/**
 * Each sample file, its authority's method, and for a national table (a zone of the whole country) the country its
 * places are in: its rows are computed as the API computes that country's places (methodZones.ts).
 */
export const AUTHORITIES: readonly { file: string; method: string; country?: string }[] = [
  { file: 'jakim.csv', method: 'jakim' },
  { file: 'muis.csv', method: 'singapore' },
  { file: 'kemenag.csv', method: 'kemenag' },
  { file: 'awqaf.csv', method: 'dubai' },
  { file: 'habous.csv', method: 'morocco' },
  { file: 'marw.csv', method: 'algeria' },
  { file: 'ummalqura.csv', method: 'ummAlQura' },
  { file: 'egypt.csv', method: 'egyptian' },
  { file: 'qatar.csv', method: 'qatar' },
  { file: 'oman.csv', method: 'oman' },
  { file: 'moonsighting.csv', method: 'moonsighting' },
  { file: 'brunei.csv', method: 'brunei' },
  { file: 'kosovo.csv', method: 'kosovo', country: 'XK' },
  { file: 'bosnia.csv', method: 'bosnia', country: 'BA' },
] as const;

export interface OfficialRow {
  place: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  date: string;
  /** Published `HH:mm`, or undefined where the authority publishes none. */
  times: Partial<Record<TimeName, string>>;
  heldOut: boolean;
}

export function officialRows(file: string, dir = OFFICIAL_DIR): OfficialRow[] {
  const lines = readFileSync(dir + file, 'utf8').trim().split('\n');
  const header = lines[0].split(',');
  const rows = lines.slice(1).map((line) => {
    const cells = line.split(',');
    const cell = (name: string) => cells[header.indexOf(name)];
    const times: Partial<Record<TimeName, string>> = {};
    for (const name of TIME_NAMES) if (cell(name)) times[name] = cell(name);
    return {
      place: cell('place'),
      latitude: Number(cell('lat')),
      longitude: Number(cell('lon')),
      timeZone: cell('tz'),
      date: cell('date'),
      times,
      heldOut: false,
    };
  });
  // Place-months in file order; the last two (one if there are fewer than five) are held out.
  const units = [...new Set(rows.map((r) => `${r.place}|${r.date.slice(0, 7)}`))];
  const held = new Set(units.slice(units.length - (units.length >= 5 ? 2 : 1)));
  for (const r of rows) r.heldOut = held.has(`${r.place}|${r.date.slice(0, 7)}`);
  return rows;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** Ours minus theirs, across midnight the short way. */
const clockDifference = (ours: string, theirs: string): number => {
  const d = minutes(ours) - minutes(theirs);
  return d > 720 ? d - 1440 : d < -720 ? d + 1440 : d;
};

export type Differences = Partial<Record<TimeName, number>>;

/**
 * The row's zone code (its place key, `PLS01 …`) where the method defines that zone (methodZones.ts): the row is then
 * computed as the API computes the zone's places, at the zone's reference point with the zone's exceptions.
 */
const zoneCode = (r: OfficialRow): string | undefined => r.place.split(' ')[0];

/** Ours minus published, in minutes, per row and published time; `country`: the country of every row (a national table). */
export function differences(method: string, rows: OfficialRow[], country?: string): Differences[] {
  const m = methodById(method);
  const national = country === undefined ? undefined : zoneFor(m, { country })?.code;
  return rows.map((r) => {
    const day = computeDay({ latitude: r.latitude, longitude: r.longitude, timeZone: r.timeZone, method: m, madhab: 'shafi', zone: national ?? zoneCode(r) }, parseDate(r.date)!, false);
    const ours = dayRecord(day, r.timeZone).times;
    const out: Differences = {};
    for (const name of TIME_NAMES) {
      const theirs = r.times[name];
      if (theirs !== undefined) out[name] = clockDifference(ours[name], theirs);
    }
    return out;
  });
}

export interface Agreement {
  count: number;
  exact: number;
  withinOne: number;
  /** The largest difference in absolute value, with its sign (ours − published). */
  worst: number;
}

export function summarize(diffs: Differences[]): Partial<Record<TimeName, Agreement>> {
  const out: Partial<Record<TimeName, Agreement>> = {};
  for (const name of TIME_NAMES) {
    const d = diffs.map((x) => x[name]).filter((x): x is number => x !== undefined);
    if (d.length === 0) continue;
    const worst = d.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0);
    out[name] = { count: d.length, exact: d.filter((x) => x === 0).length / d.length, withinOne: d.filter((x) => Math.abs(x) <= 1).length / d.length, worst };
  }
  return out;
}

/** Both splits of one authority's sample, and the whole sample. */
export function agreement(file: string, method: string): { development: ReturnType<typeof summarize>; heldOut: ReturnType<typeof summarize>; whole: ReturnType<typeof summarize>; rows: OfficialRow[] } {
  const rows = officialRows(file);
  const country = AUTHORITIES.find((a) => a.file === file)?.country;
  const all = differences(method, rows, country);
  const part = (held: boolean) => summarize(all.filter((_, i) => rows[i].heldOut === held));
  return { development: part(false), heldOut: part(true), whole: summarize(all), rows };
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`.padStart(5);
const signed = (x: number) => (x > 0 ? `+${x}` : `${x}`).padStart(4);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { file, method } of AUTHORITIES) {
    const { development, heldOut, whole, rows } = agreement(file, method);
    const units = (held: boolean) => [...new Set(rows.filter((r) => r.heldOut === held).map((r) => `${r.place.split(' ')[0]} ${r.date.slice(0, 7)}`))];
    console.log(`\nmethod=${method} against ${file}: development ${rows.filter((r) => !r.heldOut).length} days, held out ${rows.filter((r) => r.heldOut).length} days (${units(true).join(', ')})`);
    console.log('prayer     development: exact  within 1  worst   held out: exact  within 1  worst   whole sample: exact  within 1  worst');
    for (const name of TIME_NAMES) {
      const d = development[name];
      const h = heldOut[name];
      if (!d && !h) continue;
      const part = (s?: Agreement) => (s ? `${pct(s.exact)}  ${pct(s.withinOne)}     ${signed(s.worst)}` : '    –      –        –');
      console.log(`${name.padEnd(8)}              ${part(d)}             ${part(h)}                 ${part(whole[name])}`);
    }
  }
}
