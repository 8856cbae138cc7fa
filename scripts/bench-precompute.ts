// The precompute, timed against plain adhan-js in the same run: place-days per second of the precompute over all its
// workers, against adhan-js's PrayerTimes computing the same places' days on one core (measured before and after the
// precompute, on this process's thread), times the workers. Also the total time, store size and the main process's
// peak resident memory. Into BENCH_DATA_DIR (default: a new temporary directory holding a copy of DATA_DIR's
// catalog), which keeps the store for `bench:lookup`'s memory measurement.
//
// Usage: npm run bench:precompute [-- --scope all|quick|top:N|TR,DE --years Y[,Y] --workers N --adhan-seconds S]
// The default is the full default precompute (every place, this year and next: a few minutes on 2 cores);
// `--scope top:20000 --years 2026` takes well under a minute.
import { CalculationMethod, Coordinates, PrayerTimes } from 'adhan';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { catalogPath, readCatalog } from '../pipeline/catalog/catalogFile.js';
import { precompute, progressReporter, selectPlaces } from '../pipeline/precompute.js';
import { dataDirFrom } from '../server/process/config.js';

const { values: args } = parseArgs({
  options: {
    scope: { type: 'string', default: 'all' },
    years: { type: 'string' },
    workers: { type: 'string' },
    'adhan-seconds': { type: 'string', default: '4' },
  },
});
const dataDir = dataDirFrom();
if (!existsSync(catalogPath(dataDir))) {
  console.error(`No catalog under ${dataDir}; build it first: npm run cli -- catalog build`);
  process.exit(1);
}
const target = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'bench-precompute-'));
if (!existsSync(catalogPath(target))) cpSync(path.dirname(catalogPath(dataDir)), path.dirname(catalogPath(target)), { recursive: true });
const thisYear = new Date().getUTCFullYear();
const years = args.years ? args.years.split(',').map(Number) : [thisYear, thisYear + 1];
const workers = args.workers ? Number(args.workers) : availableParallelism();

/** adhan-js's PrayerTimes (Muslim World League, its defaults) over the places' days, on this thread, for `seconds`. */
function adhanPlaceDaysPerSecond(places: { latitude: number; longitude: number }[], seconds: number): number {
  const params = CalculationMethod.MuslimWorldLeague();
  let placeDays = 0;
  let sink = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  for (let p = 0; performance.now() < deadline; p = (p + 1) % places.length) {
    const coordinates = new Coordinates(places[p].latitude, places[p].longitude);
    for (let day = 0; day < 365; day++) {
      const t = new PrayerTimes(coordinates, new Date(years[0], 0, 1 + day, 12), params);
      sink += t.fajr.getTime() + t.sunrise.getTime() + t.dhuhr.getTime() + t.asr.getTime() + t.maghrib.getTime() + t.isha.getTime();
    }
    placeDays += 365;
  }
  if (sink === 42) console.log('');
  return placeDays / ((performance.now() - started) / 1000);
}

// Every 7th place of the scope, so that the sample spans its latitudes like the precompute does; only their
// coordinates are kept, so that this process's catalog does not count in the precompute's peak memory.
const sample = selectPlaces(readCatalog(target)!.places, args.scope)
  .filter((_, i) => i % 7 === 0)
  .map((p) => ({ latitude: p.latitude, longitude: p.longitude }));
const adhanSeconds = Number(args['adhan-seconds']);
const adhanBefore = adhanPlaceDaysPerSecond(sample, adhanSeconds);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
const summary = await precompute({
  dataDir: target,
  years,
  methods: 'default',
  madhabs: 'default',
  scope: args.scope,
  workers,
  onProgress: progressReporter(process.stderr),
});
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const adhanAfter = adhanPlaceDaysPerSecond(sample, adhanSeconds);

const rate = summary.days / summary.seconds;
const adhanMean = (adhanBefore + adhanAfter) / 2;
const fmt = (n: number) => Math.round(n).toLocaleString('en');
console.log(
  `precompute --scope ${args.scope} --year ${years.join(',')} on ${workers} workers (${cpus().length} cores, ${cpus()[0].model}):\n` +
    `  ${summary.places.toLocaleString('en')} places, ${summary.done.toLocaleString('en')} place-years, ${summary.days.toLocaleString('en')} place-days\n` +
    `  ${summary.seconds.toFixed(1)} s: ${fmt(rate)} place-days/s (${(summary.done / summary.seconds).toFixed(0)} place-years/s)\n` +
    `  adhan-js PrayerTimes on one core: ${fmt(adhanBefore)} place-days/s before, ${fmt(adhanAfter)} after\n` +
    `  ratio: ${(rate / (adhanMean * workers)).toFixed(2)}x adhan-js per core (precompute over ${workers} workers / (adhan one core × ${workers}); ` +
    `${(rate / (adhanBefore * workers)).toFixed(2)}–${(rate / (adhanAfter * workers)).toFixed(2)} with either adhan measurement)\n` +
    `  store ${(summary.storeBytes / 1e9).toFixed(3)} GB (${(summary.storeBytes / summary.done / 1024).toFixed(1)} KiB a place-year)\n` +
    `  peak resident memory of the main process ${(peakRss / 1e6).toFixed(0)} MB\n` +
    `  data directory: ${target}`,
);
