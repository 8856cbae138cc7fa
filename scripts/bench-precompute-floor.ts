// How far the precompute's computation is from the work a place-day cannot do without: the same places' days computed
// by storedYear (what a precompute worker runs) and by a bare loop that does only the astronomy and the rounding
// (the sun of each date, taken once for all places; adhan's six hour angles and the asr angle's trigonometry, written
// as adhanCore writes them; seven instants floored to seconds; eleven roundings to the minute at a fixed offset; no
// high-latitude checks, time zones, objects per day or encoding). Alternating rounds of a second on one thread; the
// ratio says how much of storedYear's time is the glue around the astronomy (issue 18's next step).
//
// Usage: node --import tsx scripts/bench-precompute-floor.ts [--scope top:20000] [--rounds 7]
import { parseArgs } from 'node:util';
import { degreesToRadians, julianDayOfDate, radiansToDegrees, sunOfDate, unwindAngle, type SunOfDate } from '../pipeline/astronomy/adhanSunOfDate.js';
import { readCatalog } from '../pipeline/catalog/catalogFile.js';
import { methodById } from '../pipeline/astronomy/methods.js';
import { planJobs, selectPlaces } from '../pipeline/precompute/precompute.js';
import { placeColumns } from '../pipeline/precompute/placeColumns.js';
import { storedYear } from '../pipeline/store/storedYear.js';
import { dataDirFrom } from '../server/process/config.js';

const { values: args } = parseArgs({ options: { scope: { type: 'string', default: 'top:20000' }, rounds: { type: 'string', default: '7' } } });
const catalog = readCatalog(dataDirFrom());
if (!catalog) throw new Error('no catalog under DATA_DIR; build it first: npm run cli -- catalog build');
const YEAR = 2026;
const jobs = [...planJobs(placeColumns(selectPlaces(catalog.places, args.scope)), { years: [YEAR], methods: 'default', madhabs: 'default' })].filter((_, i) => i % 7 === 0);
const queries = jobs.map((j) => ({ latitude: j.latitude, longitude: j.longitude, timeZone: j.timeZone, method: methodById(j.method), madhab: j.madhab, zone: j.zone }));

/** adhan's corrected hour angle (Astronomical.correctedHourAngle), in hours of the UTC date. */
function hourAngle(sun: SunOfDate, m0: number, sinLat: number, cosLat: number, westLongitude: number, angle: number, sinAngle: number, afterTransit: boolean): number {
  const H0 = radiansToDegrees(Math.acos((sinAngle - sinLat * sun.sinDeclination) / (cosLat * sun.cosDeclination)));
  const m = afterTransit ? m0 + H0 / 360 : m0 - H0 / 360;
  const theta = unwindAngle(sun.siderealTime + 360.985647 * m);
  const a = unwindAngle(sun.rightAscension + (m / 2) * (sun.rightAscensionAB + m * sun.rightAscensionC));
  const delta = sun.declination + (m / 2) * (sun.declinationAB + m * sun.declinationC);
  const H = theta - westLongitude - a;
  const cosDelta = Math.cos(degreesToRadians(delta));
  const h = radiansToDegrees(Math.asin(sinLat * Math.sin(degreesToRadians(delta)) + cosLat * cosDelta * Math.cos(degreesToRadians(H))));
  return (m + (h - angle) / (360 * cosDelta * cosLat * Math.sin(degreesToRadians(H)))) * 24;
}

const toSeconds = (hours: number, midnight: number): number => {
  const h = Math.floor(hours);
  const minutes = Math.floor((hours - h) * 60);
  return midnight + h * 3_600_000 + minutes * 60_000 + Math.floor((hours - (h + minutes / 60)) * 3600) * 1000;
};
const roundMinute = (ms: number, offset: number): number => Math.round((ms + offset) / 60_000) * 60_000 - offset;
const SIN_HORIZON = Math.sin(degreesToRadians(-50 / 60));
const series = new Float64Array(11 * 366);
const events = new Float64Array(6);

function floorYear(latitude: number, longitude: number, fajrAngle: number, ishaAngle: number, offset: number): void {
  const sinLat = Math.sin(degreesToRadians(latitude));
  const cosLat = Math.cos(degreesToRadians(latitude));
  const sinFajr = Math.sin(degreesToRadians(-fajrAngle));
  const sinIsha = Math.sin(degreesToRadians(-ishaAngle));
  const m0 = 0.5 - longitude / 360;
  for (let d = 0; d < 365; d++) {
    const sun = sunOfDate(julianDayOfDate(YEAR, 1, 1 + d));
    const midnight = Date.UTC(YEAR, 0, 1 + d);
    const asrAngle = radiansToDegrees(Math.atan(1 / (1 + Math.tan(degreesToRadians(Math.abs(latitude - sun.declination))))));
    events[0] = hourAngle(sun, m0, sinLat, cosLat, -longitude, -fajrAngle, sinFajr, false);
    events[1] = hourAngle(sun, m0, sinLat, cosLat, -longitude, -50 / 60, SIN_HORIZON, false);
    events[2] = m0 * 24;
    events[3] = hourAngle(sun, m0, sinLat, cosLat, -longitude, asrAngle, Math.sin(degreesToRadians(asrAngle)), true);
    events[4] = hourAngle(sun, m0, sinLat, cosLat, -longitude, -50 / 60, SIN_HORIZON, true);
    events[5] = hourAngle(sun, m0, sinLat, cosLat, -longitude, -ishaAngle, sinIsha, true);
    for (let k = 0; k < 6; k++) series[k * 366 + d] = roundMinute(toSeconds(events[k], midnight), offset);
    for (let k = 6; k < 11; k++) series[k * 366 + d] = roundMinute(toSeconds(events[k - 5], midnight) + 900_000, offset);
  }
}

function rate(ms: number, year: (i: number) => number): number {
  let days = 0;
  let sink = 0;
  const started = performance.now();
  for (let p = 0; performance.now() - started < ms; p = (p + 1) % queries.length) {
    sink += year(p);
    days += 365;
  }
  if (sink === 42) console.log('');
  return days / ((performance.now() - started) / 1000);
}
const stored = (p: number): number => storedYear(queries[p], YEAR).length;
const bare = (p: number): number => {
  const q = queries[p];
  floorYear(q.latitude, q.longitude, q.method.fajrAngle, q.method.ishaAngle ?? 17, 10_800_000);
  return series[p % series.length];
};

rate(2000, stored);
rate(2000, bare);
const ratios: number[] = [];
for (let round = 0; round < Number(args.rounds); round++) {
  const ours = rate(1000, stored);
  const floor = rate(1000, bare);
  ratios.push(floor / ours);
  console.log(`round ${round + 1}: storedYear ${Math.round(ours).toLocaleString('en')} place-days/s, the bare astronomy ${Math.round(floor).toLocaleString('en')}: ${(floor / ours).toFixed(2)}x`);
}
ratios.sort((a, b) => a - b);
console.log(`the bare astronomy and rounding run ${ratios[ratios.length >> 1].toFixed(2)}x as fast as storedYear (median; ${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)}), --scope ${args.scope}`);
