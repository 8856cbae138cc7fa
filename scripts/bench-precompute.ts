// The full default precompute (every catalog place, the current and the next year, each place's country default
// method and madhab), timed: rate, total time, store size, peak memory. Into BENCH_DATA_DIR (default: a new
// temporary directory holding a copy of DATA_DIR's catalog), which keeps the store for `bench:lookup`'s memory
// measurement. Usage: npm run bench:precompute   (about half an hour on 2 cores)
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { catalogPath } from '../pipeline/catalog/catalogFile.js';
import { precompute, progressReporter } from '../pipeline/precompute.js';
import { dataDirFrom } from '../server/process/config.js';

const dataDir = dataDirFrom();
if (!existsSync(catalogPath(dataDir))) {
  console.error(`No catalog under ${dataDir}; build it first: npm run cli -- catalog build`);
  process.exit(1);
}
const target = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'bench-precompute-'));
if (!existsSync(catalogPath(target))) cpSync(path.dirname(catalogPath(dataDir)), path.dirname(catalogPath(target)), { recursive: true });
const year = new Date().getUTCFullYear();
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
const summary = await precompute({
  dataDir: target,
  years: [year, year + 1],
  methods: 'default',
  madhabs: 'default',
  scope: 'all',
  onProgress: progressReporter(process.stderr),
});
clearInterval(sampler);
console.log(
  `full default precompute on ${cpus().length} cores (${cpus()[0].model}):\n` +
    `  ${summary.places.toLocaleString('en')} places, ${summary.done.toLocaleString('en')} place-years, ${summary.days.toLocaleString('en')} days\n` +
    `  ${summary.seconds.toFixed(0)} s: ${(summary.done / summary.seconds).toFixed(0)} place-years/s\n` +
    `  store ${(summary.storeBytes / 1e9).toFixed(2)} GB (${(summary.storeBytes / summary.done / 1024).toFixed(1)} KiB a place-year)\n` +
    `  peak resident memory of the main process ${(peakRss / 1e6).toFixed(0)} MB (workers share it)\n` +
    `  data directory: ${target}`,
);
