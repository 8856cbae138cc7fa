// The precompute, timed against plain adhan-js in the same run: place-days per second of the precompute over all its
// workers, against adhan-js's PrayerTimes computing the same places' days on one core (measured before and after the
// precompute, on this process's thread), times the workers; beside it adhan-js on every core at once (how this
// machine scales). Also the total time, store size and the main process's
// peak resident memory. Into BENCH_DATA_DIR (default: a new temporary directory holding a copy of DATA_DIR's
// catalog), which keeps the store for `bench:lookup`'s memory measurement.
//
// Usage: npm run bench:precompute [-- --scope all|quick|top:N|TR,DE --years Y[,Y] --workers N --adhan-seconds S]
// The default is the full default precompute (every place, this year and next: a few minutes on 2 cores);
// `--scope top:20000 --years 2026` takes well under a minute.
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { catalogPath } from '../pipeline/catalog/catalogFile.js';
import { choosePlaces } from '../pipeline/precompute/placeChoice.js';
import { startPipelineWorker } from '../pipeline/precompute/pipelineWorker.js';
import { precompute, progressReporter } from '../pipeline/precompute/precompute.js';
import { adhanPlaceDaysPerSecond, type AdhanRateInput } from './adhanRate.js';
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

/** adhan-js's PrayerTimes on every core at once: one thread per worker of the precompute, their rates summed. */
async function adhanOnAllCores(input: AdhanRateInput): Promise<number> {
  const threads = await Promise.all(Array.from({ length: workers }, () => startPipelineWorker(new URL('./adhanRate.ts', import.meta.url), { workerData: { adhanRate: input } })));
  const rates = await Promise.all(threads.map((t) => new Promise<number>((resolve, reject) => t.once('message', resolve).once('error', reject))));
  await Promise.all(threads.map((t) => t.terminate()));
  return rates.reduce((a, b) => a + b, 0);
}

// Every 7th place of the scope, so that the sample spans its latitudes like the precompute does; chosen as the
// precompute chooses them (in a thread of their own), so that no catalog of this script's counts in the peak.
const { places: chosen } = await choosePlaces(target, args.scope);
const sample = Array.from({ length: Math.ceil(chosen.ids.length / 7) }, (_, i) => ({ latitude: chosen.latitudes[i * 7], longitude: chosen.longitudes[i * 7] }));
const adhanInput: AdhanRateInput = { places: sample, year: years[0], seconds: Number(args['adhan-seconds']) };
const ADHAN_ROUNDS = 4;
/**
 * adhan-js on this thread: the best of a few rounds (in all `--adhan-seconds`), not their mean. A round the shared
 * host slowed (seen: one measurement at two thirds of the other) would otherwise lower the reference.
 */
function adhanBest(): number {
  const round = { ...adhanInput, seconds: adhanInput.seconds / ADHAN_ROUNDS };
  return Math.max(...Array.from({ length: ADHAN_ROUNDS }, () => adhanPlaceDaysPerSecond(round)));
}
const adhanBefore = adhanBest();

/** Resident memory now (kB from /proc/self/status): the process's own (anonymous) and file pages (the node binary, LMDB's map). */
function resident(): { anon: number; file: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { anon: kb('RssAnon'), file: kb('RssFile') };
}
let peak = resident();
const sampler = setInterval(() => {
  const now = resident();
  if (now.anon + now.file > peak.anon + peak.file) peak = now;
}, 200);
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
// The kernel's own high-water mark catches a peak between two samples.
const highWater = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const adhanAfter = adhanBest();
// The machine's own scaling: what adhan-js gets from every core at once (shared caches, a host's neighbours).
const adhanAllCores = await adhanOnAllCores(adhanInput);

const rate = summary.days / summary.seconds;
const adhanMean = (adhanBefore + adhanAfter) / 2;
const fmt = (n: number) => Math.round(n).toLocaleString('en');
console.log(
  `precompute --scope ${args.scope} --year ${years.join(',')} on ${workers} workers (${cpus().length} cores, ${cpus()[0].model}):\n` +
    `  ${summary.places.toLocaleString('en')} places, ${summary.done.toLocaleString('en')} place-years, ${summary.days.toLocaleString('en')} place-days\n` +
    `  ${summary.seconds.toFixed(1)} s: ${fmt(rate)} place-days/s (${(summary.done / summary.seconds).toFixed(0)} place-years/s)\n` +
    `  adhan-js PrayerTimes on one core (the best of ${ADHAN_ROUNDS} rounds): ${fmt(adhanBefore)} place-days/s before, ${fmt(adhanAfter)} after\n` +
    `  ratio: ${(rate / (adhanMean * workers)).toFixed(2)}x adhan-js per core (precompute over ${workers} workers / (adhan one core × ${workers}); ` +
    `${(rate / (adhanBefore * workers)).toFixed(2)}–${(rate / (adhanAfter * workers)).toFixed(2)} with either adhan measurement)\n` +
    `  adhan-js on ${workers} cores at once: ${fmt(adhanAllCores)} place-days/s (${(adhanAllCores / adhanMean).toFixed(2)}x its one core); ` +
    `the precompute against that: ${(rate / adhanAllCores).toFixed(2)}x\n` +
    `  store ${(summary.storeBytes / 1e9).toFixed(3)} GB (${(summary.storeBytes / summary.done / 1024).toFixed(1)} KiB a place-year)\n` +
    `  peak resident memory of the process ${(highWater / 1e6).toFixed(0)} MB (its high-water mark); at the sampled peak ` +
    `${((peak.anon + peak.file) / 1e6).toFixed(0)} MB: ${(peak.anon / 1e6).toFixed(0)} MB its own, ${(peak.file / 1e6).toFixed(0)} MB file pages\n` +
    `  data directory: ${target}`,
);
