// The precompute's computation on one core against adhan-js's PrayerTimes on the same core, alternating rounds of a
// second each, so that a busy host slows both alike: place-days per second of storedYear (what a precompute worker
// runs for each place-year: the days as series, encoded) over the scope's places with their default method and madhab,
// against PrayerTimes (Muslim World League) over the same places' days. No workers, no LMDB: the ratio of the
// computation alone, beside bench:precompute's ratio of the whole run.
//
// Usage: node --import tsx scripts/bench-precompute-kernel.ts [--scope top:20000] [--rounds 5]
import { parseArgs } from 'node:util';
import { readCatalog } from '../pipeline/catalog/catalogFile.js';
import { methodById } from '../pipeline/astronomy/methods.js';
import { planJobs, selectPlaces } from '../pipeline/precompute/precompute.js';
import { placeColumns } from '../pipeline/precompute/placeColumns.js';
import { storedYear } from '../pipeline/store/storedYear.js';
import { dataDirFrom } from '../server/process/config.js';
import { adhanPlaceDaysPerSecond } from './adhanRate.js';

const { values: args } = parseArgs({ options: { scope: { type: 'string', default: 'top:20000' }, rounds: { type: 'string', default: '5' } } });
const catalog = readCatalog(dataDirFrom());
if (!catalog) throw new Error('no catalog under DATA_DIR; build it first: npm run cli -- catalog build');
const YEAR = 2026;
// Every 7th place of the scope, as bench:precompute samples it.
const jobs = [...planJobs(placeColumns(selectPlaces(catalog.places, args.scope)), { years: [YEAR], methods: 'default', madhabs: 'default' })].filter((_, i) => i % 7 === 0);

const adhanRate = (ms: number): number => adhanPlaceDaysPerSecond({ places: jobs, year: YEAR, seconds: ms / 1000 });

function oursRate(ms: number): number {
  let days = 0;
  let sink = 0;
  const started = performance.now();
  for (let p = 0; performance.now() - started < ms; p = (p + 1) % jobs.length) {
    const j = jobs[p];
    const query = { latitude: j.latitude, longitude: j.longitude, timeZone: j.timeZone, method: methodById(j.method), madhab: j.madhab, zone: j.zone };
    sink += storedYear(query, j.year).length;
    days += 365;
  }
  if (sink === 42) console.log('');
  return days / ((performance.now() - started) / 1000);
}

adhanRate(1000);
oursRate(2000);
const ratios: number[] = [];
for (let round = 0; round < Number(args.rounds); round++) {
  const adhan = adhanRate(1000);
  const ours = oursRate(1000);
  ratios.push(ours / adhan);
  console.log(`round ${round + 1}: adhan-js ${Math.round(adhan).toLocaleString('en')} place-days/s, precompute ${Math.round(ours).toLocaleString('en')}: ${(ours / adhan).toFixed(2)}x`);
}
ratios.sort((a, b) => a - b);
console.log(`median ${ratios[ratios.length >> 1].toFixed(2)}x (${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)}) on one core, --scope ${args.scope}`);
