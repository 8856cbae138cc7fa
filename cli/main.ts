// The operator's CLI (contract, "Operator interface"): `npm run cli -- <command>`. It reads the same environment
// as the server (DATA_DIR and the rest), so what it writes is what `make run` serves.
import { Command } from 'commander';
import { registerAccountCommands } from './accounts.js';
import { registerBackupCommands } from './backup.js';
import { dataDirFrom } from '../server/process/config.js';
import { formatCatalogReport, formatZoneIndexReport, runCatalogBuild, runZoneIndexBuild } from '../pipeline/catalog/catalogBuild.js';
import { CatalogInputError } from '../pipeline/catalog/sources.js';
import { precompute, PrecomputeError, progressReporter } from '../pipeline/precompute/precompute.js';
import { recordPrecompute } from '../pipeline/precompute/precomputeRecord.js';
import { bundleLocation, BundleLocationError } from '../pipeline/store/bundleLocation.js';
import { publishBundle, StorePublishError } from '../pipeline/store/storeBundle.js';

const program = new Command('cli').description('Prayer Times API operator commands').showHelpAfterError();

const catalog = program.command('catalog').description('the catalog of places (cities and Turkish districts)');
catalog
  .command('build')
  .description('build DATA_DIR/catalog/catalog.msgpack and zone-index.bin from the pinned data packages; a failure keeps the old ones')
  .action(() => {
    const dataDir = dataDirFrom();
    try {
      const result = runCatalogBuild(dataDir);
      process.stdout.write(formatCatalogReport(result) + '\n');
    } catch (error) {
      if (error instanceof CatalogInputError) {
        process.stderr.write(`catalog build failed: ${error.message}\nThe previous catalog, if any, is unchanged.\n`);
        process.exitCode = 1;
        return;
      }
      throw error;
    }
  });
catalog
  .command('zones')
  .description("build DATA_DIR/catalog/zone-index.bin alone (the zone of a point, from geo-tz's polygons), as catalog build does")
  .action(() => {
    process.stdout.write(formatZoneIndexReport(runZoneIndexBuild(dataDirFrom())) + '\n');
  });

program
  .command('precompute')
  .description('precompute yearly timetables into a new store under DATA_DIR/timetables; it goes live when complete')
  .option('--year <years>', 'year or comma-separated years (default: the current and the next year, UTC)')
  .option('--methods <methods>', 'default (each place’s country default), all, or method ids separated by commas', 'default')
  .option('--madhabs <madhabs>', 'default (each place’s country default), all, or shafi,hanafi', 'default')
  .option('--scope <scope>', 'all, quick (all Turkish districts and the 1,000 largest cities), top:N, places:<id>,<id>, or country codes like TR,DE', 'all')
  .option('--workers <n>', 'worker threads (default: one per core)')
  .action(async (options: { year?: string; methods: string; madhabs: string; scope: string; workers?: string }) => {
    const dataDir = dataDirFrom();
    const thisYear = new Date().getUTCFullYear();
    const years = options.year ? options.year.split(',').map(Number) : [thisYear, thisYear + 1];
    // The outcome is kept for the server's metrics (precomputeRecord.ts): running now, then succeeded or failed.
    const startedAt = new Date();
    const finished = (outcome: 'succeeded' | 'failed', more: { build?: string; error?: string }) =>
      recordPrecompute(dataDir, { outcome, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), seconds: (Date.now() - startedAt.getTime()) / 1000, ...more });
    recordPrecompute(dataDir, { outcome: 'running', startedAt: startedAt.toISOString() });
    try {
      const summary = await precompute({
        dataDir,
        years,
        methods: options.methods,
        madhabs: options.madhabs,
        scope: options.scope,
        workers: options.workers ? Number(options.workers) : undefined,
        onProgress: progressReporter(process.stderr),
      });
      finished('succeeded', { build: summary.build });
      const scope = options.scope.length > 60 ? `${options.scope.slice(0, 40)}… (${summary.places} places)` : options.scope;
      process.stdout.write(
        `Precomputed ${summary.done.toLocaleString('en')} place-years (${summary.places.toLocaleString('en')} places, ` +
          `${summary.days.toLocaleString('en')} days, years ${years.join(', ')}, methods ${options.methods}, madhabs ${options.madhabs}, scope ${scope}) ` +
          `in ${summary.seconds.toFixed(1)} s: ${(summary.done / summary.seconds).toFixed(0)} place-years/s.\n` +
          `Store ${summary.build}: ${(summary.storeBytes / 1e6).toFixed(1)} MB, now live.` +
          (summary.removedBuilds.length ? ` Removed older builds: ${summary.removedBuilds.join(', ')}.` : '') +
          '\n',
      );
    } catch (error) {
      finished('failed', { error: String((error as Error)?.message ?? error).slice(0, 300) });
      if (!(error instanceof PrecomputeError)) throw error;
      process.stderr.write(`precompute failed: ${error.message}\n`);
      process.exitCode = 1;
    }
  });

const store = program.command('store').description('the precomputed store as a bundle for servers with STORE_URL (docs/fleet.md)');
store
  .command('publish')
  .description('publish the live build as a versioned bundle (build id, SHA-256) to a directory or an http(s) location; the latest.json pointer is written last')
  .requiredOption('--to <location>', 'a directory, or an http(s):// URL that accepts PUT (the servers’ STORE_URL)')
  .action(async (options: { to: string }) => {
    const dataDir = dataDirFrom();
    try {
      const { manifest, location } = await publishBundle(dataDir, bundleLocation(options.to));
      const bytes = manifest.files.reduce((total, f) => total + f.bytes, 0);
      process.stdout.write(
        `Published ${manifest.build} (${(bytes / 1e6).toFixed(1)} MB, SHA-256 ${manifest.sha256}, years ${manifest.meta.years.join(', ')}, ` +
          `${manifest.meta.placeYears.toLocaleString('en')} place-years) to ${location}; latest.json names it.\n`,
      );
    } catch (error) {
      // What an operator can fix (no store, a bad location, a server that refuses) is said in one line, no stack.
      const known = error instanceof StorePublishError || error instanceof BundleLocationError || (error as NodeJS.ErrnoException).code !== undefined;
      if (!known) throw error;
      process.stderr.write(`store publish failed: ${(error as Error).message}\nThe latest.json there, if any, is unchanged.\n`);
      process.exitCode = 1;
    }
  });

registerAccountCommands(program);
registerBackupCommands(program);

await program.parseAsync(process.argv);
