// The sunrise/maghrib family (issue 17, third pass; docs/authorities.md): published minute − our unrounded sunrise and
// sunset under several horizons (the sun's altitude at the event), per authority, and the elevation evidence for Morocco.
//   1. Per authority: the best rule window [k, k+1) (k in halves: any rounding and whole or half-minute constant),
//      chosen on development, its share on development | held out, for horizons: the standard −0.8333° (50′), −0.833°,
//      refraction 34′ + the sun's true semidiameter of the day (15.7′…16.3′), the topocentric sun (+8.8″ parallax),
//      −1° and −1.25°; and the horizon whose best free one-minute window holds most development rows.
//   2. Morocco: every 2020 Habous table of adhan's fixtures (pipeline/astronomy/fixtures/adhan, 17 cities × 366 days; a different
//      year and season from habous.csv) and the 2026 sample, per city: the SRTM elevation GeoNames gives at the city
//      (cities500 `dem`), the mean of (maghrib − sunrise)/2 against the standard horizon (the part a horizon moves), and
//      the mean of dhuhr's residual (the part a longitude moves); then horizon-from-elevation models, their best
//      constant and rounding chosen on 2020 + the 2026 development cities, and their exact share.
//   3. JAKIM: syuruk at the earliest and the other times at the latest of a zone's reference points (the multipoint
//      practice JAKIM's Jurnal Falak describes), where the sample's README lists several points.
// Usage: node --import tsx scripts/official-horizon.ts
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { offsetSeconds } from '../pipeline/zones/localTime.js';
import { julianDay, sunPosition } from '../pipeline/astronomy/sunPosition.js';
import { AUTHORITIES, officialRows, type OfficialRow } from './official-agreement.js';

const RAD = Math.PI / 180;
const MINUTE_MS = 60_000;

/** The sun's semidiameter (degrees) at an instant: 959.63″ over its distance in AU (Meeus, ch. 25). */
function semidiameter(ms: number): number {
  const T = (julianDay(ms) - 2451545) / 36525;
  const M = (357.52911 + 35999.05029 * T) * RAD;
  const e = 0.016708634 - 0.000042037 * T;
  const nu = M + (1.914602 * Math.sin(M) + 0.019993 * Math.sin(2 * M)) * RAD;
  return 959.63 / ((1.000001018 * (1 - e * e)) / (1 + e * Math.cos(nu))) / 3600;
}

type Horizon = number | ((ms: number) => number);

/** Local minutes of the day of sunrise (sign −1) or sunset (+1) with the sun at `horizon`, the sun iterated to the event. */
export function riseSet(r: Pick<OfficialRow, 'latitude' | 'longitude' | 'timeZone' | 'date'>, sign: number, horizon: Horizon, dayShift = 0): number {
  const [y, mo, d] = r.date.split('-').map(Number);
  const midnightUT = Date.UTC(y, mo - 1, d);
  const phi = r.latitude * RAD;
  let t = midnightUT + (720 - 4 * r.longitude + sign * 360) * MINUTE_MS;
  for (let i = 0; i < 6; i++) {
    const p = sunPosition(julianDay(t + dayShift * 86_400_000));
    const dec = p.declination * RAD;
    const h = typeof horizon === 'number' ? horizon : horizon(t);
    const H = Math.acos((Math.sin(h * RAD) - Math.sin(phi) * Math.sin(dec)) / (Math.cos(phi) * Math.cos(dec))) / RAD;
    t = midnightUT + (720 - 4 * r.longitude - p.equationOfTime + sign * 4 * H) * MINUTE_MS;
  }
  return (t - midnightUT) / MINUTE_MS + offsetSeconds(r.timeZone, t) / 60;
}

/** Local minutes of the sun's transit. */
function transit(r: Pick<OfficialRow, 'longitude' | 'timeZone' | 'date'>): number {
  const [y, mo, d] = r.date.split('-').map(Number);
  const midnightUT = Date.UTC(y, mo - 1, d);
  let t = midnightUT + (720 - 4 * r.longitude) * MINUTE_MS;
  for (let i = 0; i < 4; i++) t = midnightUT + (720 - 4 * r.longitude - sunPosition(julianDay(t)).equationOfTime) * MINUTE_MS;
  return (t - midnightUT) / MINUTE_MS + offsetSeconds(r.timeZone, t) / 60;
}

const published = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const share = (v: number[], k: number) => v.filter((x) => x >= k && x < k + 1).length / v.length;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
function bestFree(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while (j < s.length && s[j] < s[i] + 1) j++;
    best = Math.max(best, (j - i) / s.length);
  }
  return best;
}
/** The best rule window on development and its share on both parts, as `dev|held@k`. */
function ruleWindow(dev: number[], held: number[]): string {
  let k = 0;
  for (let c = -8; c <= 8; c += 0.5) if (share(dev, c) > share(dev, k)) k = c;
  const pct = (x: number) => (100 * x).toFixed(0);
  return `${pct(share(dev, k))}|${held.length ? pct(share(held, k)) : '–'}@${k}`;
}

const HORIZONS: [string, Horizon][] = [
  ['−0.8333° (50′)', -0.8333],
  ['−0.833°', -0.833],
  ['34′ + semidiameter', (ms) => -(34 / 60 + semidiameter(ms))],
  ['topocentric', -0.8333 + 8.8 / 3600],
  ['−1°', -1],
  ['−1.25°', -1.25],
];

// SRTM elevations (m) that GeoNames' cities500 gives for the cities of the Moroccan tables (`dem`; Ifrane and
// Guercif: the towns, the fixtures' points lie 20 and 17 km off them, so those two are left out of the models).
const ELEVATION: Record<string, number> = {
  Agadir: 31, Arfoud: 809, Assila: 17, Berkane: 173, Boujdour: 28, Casablanca: 27, Dakhla: 6, Errachidia: 1039, Feguig: 898,
  Fes: 406, Guersif: 367, Ifrane: 1648, Khenifra: 868, Marrakech: 457, Oujda: 549, Rabat: 46, Tanger: 20,
  '104': 457, '99': 531, '7': 13, '15': 121, '39': 19,
};
type CityRow = OfficialRow & { city: string; elevation: number; year: string };

function moroccanRows(): CityRow[] {
  const dir = fileURLToPath(new URL('../pipeline/astronomy/fixtures/adhan/', import.meta.url));
  const to24 = (t: string) => {
    const m = /^(\d{1,2}):(\d{2}) ([AP]M)$/.exec(t.trim())!;
    return `${String((Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0)).padStart(2, '0')}:${m[2]}`;
  };
  const out: CityRow[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('-Morocco.json'))) {
    const data = JSON.parse(readFileSync(dir + file, 'utf8'));
    const city = file.split('-')[0];
    for (const t of data.times) {
      // The ministry's clock is back on UTC+1 a week before the tz database (adhanFixtures.test.ts).
      if (t.date >= '2020-05-24' && t.date <= '2020-05-30') continue;
      const times = { sunrise: to24(t.sunrise), dhuhr: to24(t.dhuhr), maghrib: to24(t.maghrib) };
      out.push({ place: city, latitude: data.params.latitude, longitude: data.params.longitude, timeZone: data.params.timezone, date: t.date, times, heldOut: false, city, elevation: ELEVATION[city], year: '2020' });
    }
  }
  for (const r of officialRows('habous.csv')) {
    const id = r.place.split(' ')[0];
    out.push({ ...r, city: r.place.split(' ').slice(1).join(' ') + ' 2026' + (r.heldOut ? ' (held out)' : ''), elevation: ELEVATION[id], year: '2026' });
  }
  return out;
}

function part1(): void {
  console.log('1. Sunrise and maghrib: best rule window, development | held out @k, per horizon (best free window on development in brackets)');
  for (const { file, method } of AUTHORITIES) {
    const rows = officialRows(file);
    const dayShift = method === 'singapore' ? 1 : 0; // MUIS: the next day's sun (docs/authorities.md)
    for (const [sign, name] of [[-1, 'sunrise'], [1, 'maghrib']] as const) {
      const cells = HORIZONS.map(([, h]) => {
        const v = rows.map((r) => (r.times[name] ? published(r.times[name]!) - riseSet(r, sign, h, dayShift) : NaN));
        const dev = v.filter((x, i) => !rows[i].heldOut && !Number.isNaN(x));
        const held = v.filter((x, i) => rows[i].heldOut && !Number.isNaN(x));
        return `${ruleWindow(dev, held)} (${(100 * bestFree(dev)).toFixed(0)})`.padEnd(18);
      });
      console.log(`  ${file.padEnd(14)} ${name.padEnd(8)} ${cells.join('')}`);
    }
  }
  console.log(`  ${''.padEnd(23)}${HORIZONS.map(([n]) => n.padEnd(18)).join('')}`);
}

function part2(): void {
  const rows = moroccanRows();
  console.log('\n2. Morocco (Habous): per city, against the standard horizon: sunrise and maghrib mean residual, their symmetric part (maghrib − sunrise)/2, dhuhr');
  const cities = [...new Set(rows.map((r) => r.city))].sort((a, b) => rows.find((r) => r.city === a)!.elevation - rows.find((r) => r.city === b)!.elevation);
  for (const c of cities) {
    const rr = rows.filter((r) => r.city === c);
    const s = rr.map((r) => published(r.times.sunrise!) - riseSet(r, -1, -0.8333));
    const m = rr.map((r) => published(r.times.maghrib!) - riseSet(r, 1, -0.8333));
    const d = rr.map((r) => published(r.times.dhuhr!) - transit(r));
    console.log(`  ${c.padEnd(26)} ${String(rr[0].elevation).padStart(5)} m  sunrise ${mean(s).toFixed(2).padStart(6)}  maghrib ${mean(m).toFixed(2).padStart(6)}  symmetric ${mean(m.map((x, i) => (x - s[i]) / 2)).toFixed(2).padStart(5)}  dhuhr ${mean(d).toFixed(2)}`);
  }
  const usable = rows.filter((r) => r.city !== 'Ifrane' && r.city !== 'Guersif');
  const parts = { '2020 (17−2 cities)': usable.filter((r) => r.year === '2020'), '2026 development': usable.filter((r) => r.year === '2026' && !r.heldOut), '2026 held out (Nador)': usable.filter((r) => r.heldOut) };
  const models: [string, (e: number) => number][] = [
    ['standard horizon, no elevation', () => -0.8333],
    ['dip 0.0347°·√h (PrayTimes)', (e) => -0.8333 - 0.0347 * Math.sqrt(e)],
    ['dip 1.76′·√h (almanac)', (e) => -0.8333 - (1.76 / 60) * Math.sqrt(e)],
    ['0.0006°·h', (e) => -0.8333 - 0.0006 * e],
    ['0.0007°·h', (e) => -0.8333 - 0.0007 * e],
    ['−1° for all', () => -1],
  ];
  const ROUNDINGS: [string, (x: number) => number][] = [['nearest', Math.round], ['up', Math.ceil], ['down', Math.floor]];
  console.log('\n   horizon from the elevation: best constant and rounding on 2020 + 2026 development; exact share 2020 / 2026 development / 2026 held out');
  for (const [name, horizonOf] of models) {
    const cells: string[] = [];
    for (const [sign, prayer] of [[-1, 'sunrise'], [1, 'maghrib']] as const) {
      const res = Object.fromEntries(Object.entries(parts).map(([k, rr]) => [k, rr.map((r) => riseSet(r, sign, horizonOf(r.elevation)) - published(r.times[prayer]!))]));
      // Published = round(t + c): exact when round(residual + c) = 0 (t − published = residual).
      const exact = (v: number[], f: (x: number) => number, c: number) => v.filter((x) => f(x + c) === 0).length / v.length;
      let best = { score: -1, label: '', f: Math.round, c: 0 };
      const dev = [...res['2020 (17−2 cities)'], ...res['2026 development']];
      for (const [rn, f] of ROUNDINGS) for (let c = -8; c <= 8; c++) { const s = exact(dev, f, c); if (s > best.score) best = { score: s, label: `${rn} ${c >= 0 ? '+' : ''}${c}`, f, c }; }
      cells.push(`${prayer} ${best.label.padEnd(10)} ${Object.values(res).map((v) => (100 * exact(v, best.f, best.c)).toFixed(0).padStart(3) + '%').join(' ')}`);
    }
    console.log(`  ${name.padEnd(32)} ${cells.join('   ')}`);
  }
}

function part3(): void {
  console.log('\n3. JAKIM: syuruk at the earliest of the zone\'s points, maghrib at the latest (points: ../shared/reference/official/README.md)');
  const POINTS: Record<string, [number, number][]> = {
    SGR01: [[3.7333, 101.3833], [2.6378, 101.6167], [2.94, 101.9114]],
    PRK02: [[4.5167, 100.7125], [4.8917, 101.4458]],
  };
  const rows = officialRows('jakim.csv');
  for (const zone of Object.keys(POINTS)) {
    const rr = rows.filter((r) => r.place.startsWith(zone));
    for (const [label, pts] of [['the CSV point', [[rr[0].latitude, rr[0].longitude]]], ['all points', POINTS[zone]]] as const) {
      const s = rr.map((r) => published(r.times.sunrise!) - Math.min(...pts.map(([la, lo]) => riseSet({ ...r, latitude: la, longitude: lo }, -1, -0.8333))));
      const m = rr.map((r) => published(r.times.maghrib!) - Math.max(...pts.map(([la, lo]) => riseSet({ ...r, latitude: la, longitude: lo }, 1, -0.8333))));
      const floorExact = s.filter((x) => x > -1 && x <= 0).length;
      const ceilExact = m.filter((x) => x >= 0 && x < 1).length;
      console.log(`  ${zone}${rr[0].heldOut ? ' (held out)' : ''} at ${label.padEnd(13)} syuruk [${Math.min(...s).toFixed(2)}, ${Math.max(...s).toFixed(2)}] rounded down exact ${floorExact}/${rr.length}; maghrib [${Math.min(...m).toFixed(2)}, ${Math.max(...m).toFixed(2)}] rounded up exact ${ceilExact}/${rr.length}`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  part1();
  part2();
  part3();
}
