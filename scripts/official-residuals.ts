// Residual windows: published minute − our unrounded astronomical time (before any adjustment), per authority,
// prayer and place-month, under several solar models, to read an authority's rules off its tables
// (docs/authorities.md, "How rules were read off the tables"). A time printed as ceil(t) + k puts every residual in
// [k, k+1); the best one-minute window's share of the rows is the exact share the best constant and rounding could
// reach with that model, so a model is better when that share is higher (on the development part: rules are chosen
// there only).
// Usage: node --import tsx scripts/official-residuals.ts [file.csv] [model …]
import { fileURLToPath } from 'node:url';
import { offsetSeconds } from '../pipeline/zones/localTime.js';
import { methodById, type MethodDefinition } from '../pipeline/astronomy/methods.js';
import { almanacSunPosition, julianDay, sunPosition, type SunPosition } from '../pipeline/astronomy/sunPosition.js';
import { AUTHORITIES, officialRows, type OfficialRow } from './official-agreement.js';

const RAD = Math.PI / 180;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

type Sun = (ms: number) => SunPosition;

/** Meeus's low-precision sun (the pipeline's). */
const meeus: Sun = (ms) => sunPosition(julianDay(ms));

/** The Astronomical Almanac's low-precision sun (USNO "approximate solar coordinates"): ~0.01°, EoT ~0.1 min. */
const almanac: Sun = (ms) => almanacSunPosition(julianDay(ms));

/** NOAA's fractional-year formulas (Spencer 1971): EoT good to ~0.5 min, declination to ~0.05°. */
const noaa: Sun = (ms) => {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const daysInYear = d.getUTCFullYear() % 4 === 0 ? 366 : 365;
  const dayOfYear = Math.floor((ms - start) / DAY_MS) + 1;
  const hour = (ms - start - (dayOfYear - 1) * DAY_MS) / 3_600_000;
  const g = ((2 * Math.PI) / daysInYear) * (dayOfYear - 1 + (hour - 12) / 24);
  const eot = 229.18 * (0.000075 + 0.001868 * Math.cos(g) - 0.032077 * Math.sin(g) - 0.014615 * Math.cos(2 * g) - 0.040849 * Math.sin(2 * g));
  const dec =
    0.006918 - 0.399912 * Math.cos(g) + 0.070257 * Math.sin(g) - 0.006758 * Math.cos(2 * g) + 0.000907 * Math.sin(2 * g) - 0.002697 * Math.cos(3 * g) + 0.00148 * Math.sin(3 * g);
  return { declination: dec / RAD, equationOfTime: eot };
};

export const SUNS: Record<string, Sun> = { meeus, almanac, noaa };

/** When the sun is read: at each event (iterated), or once at a fixed instant of the day. */
type Instant = 'event' | '0hUT' | 'localMidnight' | 'localNoon' | '12hUT' | 'transit' | `h${number}`;

export interface Model {
  sun: string;
  instant: Instant;
  /** Asr's declination: the model's instant, or the transit's. */
  asrAtNoon?: boolean;
  /** The sun read this many hours after the instant it should be (an epoch error). */
  lagHours?: number;
  /** Sun tabulated every N days (from 1 Jan), read at the last tabulated day. */
  tableEvery?: number;
  label?: string;
}

export function modelName(m: Model): string {
  return m.label ?? `${m.sun}@${m.instant}${m.asrAtNoon ? '+asrNoon' : ''}${m.tableEvery ? `/${m.tableEvery}d` : ''}${m.lagHours ? `~${m.lagHours}h` : ''}`;
}

export interface Events {
  fajr: number;
  sunrise: number;
  dhuhr: number;
  asr: number;
  maghrib: number;
  isha: number;
}

/** Unrounded events (UTC ms) of a local date at a point with a method's angles; shafi asr, horizon −0.8333°. */
export function events(row: OfficialRow, method: MethodDefinition, model: Model): Events {
  const [y, mo, d] = row.date.split('-').map(Number);
  const midnightUT = Date.UTC(y, mo - 1, d);
  const offset = offsetSeconds(row.timeZone, midnightUT + 12 * 3_600_000) * 1000;
  const sun = SUNS[model.sun];
  const at = (ms0: number): SunPosition => {
    const ms = ms0 + (model.lagHours ?? 0) * 3_600_000;
    if (model.tableEvery) {
      const start = Date.UTC(y, 0, 1);
      const day = Math.floor((ms - start) / DAY_MS);
      return sun(start + Math.floor(day / model.tableEvery) * model.tableEvery * DAY_MS + (ms - start - day * DAY_MS));
    }
    return sun(ms);
  };
  const phi = row.latitude * RAD;
  const hourAngle = (altitude: number, dec: number): number =>
    (Math.acos((Math.sin(altitude * RAD) - Math.sin(phi) * Math.sin(dec * RAD)) / (Math.cos(phi) * Math.cos(dec * RAD))) / RAD) * 4;
  const transitAt = (p: SunPosition) => midnightUT + (720 - 4 * row.longitude - p.equationOfTime) * MINUTE_MS;
  const asrAltitude = (dec: number) => Math.atan(1 / (1 + Math.tan(Math.abs(phi - dec * RAD)))) / RAD;

  let fixed: SunPosition | undefined;
  if (model.instant !== 'event') {
    const instant =
      model.instant.startsWith('h') ? midnightUT + Number(model.instant.slice(1)) * 3_600_000 : model.instant === '0hUT' ? midnightUT : model.instant === '12hUT' ? midnightUT + DAY_MS / 2 : model.instant === 'localMidnight' ? midnightUT - offset : model.instant === 'localNoon' ? midnightUT + DAY_MS / 2 - offset : NaN;
    if (model.instant === 'transit') {
      let t = midnightUT + (720 - 4 * row.longitude) * MINUTE_MS;
      for (let i = 0; i < 3; i++) t = transitAt(at(t));
      fixed = at(t);
    } else fixed = at(instant);
  }
  const pos = (ms: number) => fixed ?? at(ms);
  let transit = midnightUT + (720 - 4 * row.longitude) * MINUTE_MS;
  for (let i = 0; i < 4; i++) transit = transitAt(pos(transit));
  const noon = pos(transit);
  /** An event at `sign` × hour angle from the transit, iterated where the sun moves. */
  const event = (sign: number, altitudeOf: (dec: number) => number, useNoon = false): number => {
    let t = transit + sign * 360 * MINUTE_MS;
    for (let i = 0; i < 5; i++) {
      const p = useNoon ? noon : pos(t);
      const tr = transitAt(p);
      t = tr + sign * hourAngle(altitudeOf(p.declination), p.declination) * MINUTE_MS;
    }
    return t;
  };
  const sunset = event(1, () => -0.8333);
  return {
    fajr: event(-1, () => -method.fajrAngle),
    sunrise: event(-1, () => -0.8333),
    dhuhr: transit,
    asr: event(1, asrAltitude, model.asrAtNoon),
    maghrib: sunset,
    isha: method.ishaAngle !== undefined ? event(1, () => -method.ishaAngle!) : sunset + (method.ishaInterval ?? 0) * MINUTE_MS,
  };
}

const PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;
type P = (typeof PRAYERS)[number];

const localMinutes = (ms: number, row: OfficialRow): number => {
  const [y, mo, d] = row.date.split('-').map(Number);
  const midnight = Date.UTC(y, mo - 1, d) - offsetSeconds(row.timeZone, ms) * 1000;
  return (ms - midnight) / MINUTE_MS;
};
const published = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Published − computed (minutes), per row and prayer. */
export function residuals(rows: OfficialRow[], method: MethodDefinition, model: Model): Partial<Record<P, number>>[] {
  return rows.map((r) => {
    const e = events(r, method, model);
    const out: Partial<Record<P, number>> = {};
    for (const p of PRAYERS) {
      const t = r.times[p];
      if (t !== undefined) out[p] = published(t) - localMinutes(e[p], r);
    }
    return out;
  });
}

/** The best half-open one-minute window [c, c+1): its start and the share of values inside. */
export function bestWindow(values: number[]): { start: number; share: number } {
  const v = [...values].sort((a, b) => a - b);
  let best = { start: NaN, share: 0 };
  for (let i = 0; i < v.length; i++) {
    let j = i;
    while (j < v.length && v[j] < v[i] + 1) j++;
    if ((j - i) / v.length > best.share) best = { start: v[i], share: (j - i) / v.length };
  }
  return best;
}

/** Share of values in [k, k+1). */
export const windowShare = (values: number[], k: number): number => values.filter((x) => x >= k && x < k + 1).length / values.length;

const f2 = (x: number) => (x >= 0 ? '+' : '') + x.toFixed(2);

export const MODELS: Model[] = [
  { sun: 'meeus', instant: 'event' },
  { sun: 'meeus', instant: '0hUT' },
  { sun: 'meeus', instant: 'localMidnight' },
  { sun: 'meeus', instant: 'localNoon' },
  { sun: 'meeus', instant: 'transit' },
  { sun: 'meeus', instant: 'event', asrAtNoon: true },
  { sun: 'almanac', instant: 'event' },
  { sun: 'noaa', instant: 'event' },
  { sun: 'noaa', instant: '0hUT' },
  { sun: 'noaa', instant: 'localNoon' },
  { sun: 'noaa', instant: 'localMidnight' },
];

function parseModel(s: string): Model {
  const [sun, rest] = s.split('@');
  const [instantLag, ...flags] = (rest ?? 'event').split('+');
  const [instant, lag] = instantLag.split('~');
  const m: Model = { sun, instant: instant.split('/')[0] as Instant };
  if (instant.includes('/')) m.tableEvery = Number(instant.split('/')[1]);
  if (flags.includes('asrNoon')) m.asrAtNoon = true;
  if (lag) m.lagHours = Number(lag);
  return m;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [fileArg, ...modelArgs] = process.argv.slice(2);
  const authorities = AUTHORITIES.filter((a) => !fileArg || a.file === fileArg);
  const models = modelArgs.length ? modelArgs.map(parseModel) : MODELS;
  const detail = modelArgs.length > 0;
  for (const { file, method } of authorities) {
    const rows = officialRows(file);
    const m = methodById(method);
    console.log(`\n${file} (${method}): best free one-minute window's share / best rule window [k, k+1) (k in halves), development | held out, @k`);
    console.log(`${'model'.padEnd(28)}${PRAYERS.map((p) => p.padStart(16)).join('')}`);
    for (const model of models) {
      const res = residuals(rows, m, model);
      const cells = PRAYERS.map((p) => {
        const dev = res.filter((_, i) => !rows[i].heldOut).map((x) => x[p]).filter((x): x is number => x !== undefined);
        const held = res.filter((_, i) => rows[i].heldOut).map((x) => x[p]).filter((x): x is number => x !== undefined);
        if (!dev.length) return ''.padStart(16);
        // A rule is ceil(t) + k (window [k, k+1)) or round(t) + k ([k − ½, k + ½)): the best such k on development.
        let k = 0;
        for (let c = -5; c <= 5; c += 0.5) if (windowShare(dev, c) > windowShare(dev, k)) k = c;
        const free = bestWindow(dev);
        return `${(100 * free.share).toFixed(0)}/${(100 * windowShare(dev, k)).toFixed(0)}|${(100 * windowShare(held, k)).toFixed(0)}@${k}`.padStart(16);
      });
      console.log(`${modelName(model).padEnd(28)}${cells.join('')}`);
      if (!detail) continue;
      // Per place-month windows.
      const units = [...new Set(rows.map((r) => `${r.place}|${r.date.slice(0, 7)}`))];
      for (const u of units) {
        const idx = rows.map((r, i) => (`${r.place}|${r.date.slice(0, 7)}` === u ? i : -1)).filter((i) => i >= 0);
        const line = PRAYERS.map((p) => {
          const v = idx.map((i) => res[i][p]).filter((x): x is number => x !== undefined);
          if (!v.length) return ''.padStart(16);
          return `[${f2(Math.min(...v))},${f2(Math.max(...v))}]`.padStart(16);
        });
        console.log(`  ${(u + (rows[idx[0]].heldOut ? ' *' : '')).slice(0, 26).padEnd(26)}${line.join('')}`);
      }
    }
  }
}
