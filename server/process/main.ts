// The server's primary thread: owns the account store and the usage counts, starts the serving threads (WORKERS,
// one per core by default, each a uWebSockets.js app on the same port), restarts a thread that dies, writes usage
// back every second, and stops everything cleanly on SIGTERM/SIGINT.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { openStores, type AccountsStores } from '../accounts/openStores.js';
import { demoKeyFile } from '../accounts/demoKey.js';
import { answerCountsBuffer } from '../timetables/answerCounts.js';
import { bannerAddresses } from './bannerAddresses.js';
import { SAMPLE_API_REQUEST } from '../links.js';
import { loadConfig, type Config } from './config.js';
import type { FromWorker, ToWorker } from './httpWorker.js';
import { flushLog, log, setLogLevel } from '../log.js';
import type { ServeOptions } from './serve.js';
import { SharedUsage } from '../access/sharedUsage.js';
import type { UsageWriter } from '../access/usageWriter.js';
import type { DailyUsagePruner } from '../access/dailyUsagePruner.js';
import { shareUsageTable } from '../access/openUsageLedger.js';
import { usingFallback } from '../edge/uws.js';
import type { SharedCatalog } from '../places/catalogTables.js';
import type { FromCatalogLoader } from './catalogLoader.js';
import type { SharedZoneIndex } from '../../pipeline/zones/zoneIndex.js';
import { BundleFollower, type BundleStatus } from '../timetables/bundleFollower.js';
import { bundleLocation } from '../../pipeline/store/bundleLocation.js';
import { bundleForThread } from '../../pipeline/precompute/threadBundle.js';
import { claimPort, PortTakenError, type PortClaim } from './portClaim.js';
import { TZDATA_FROM_PACKAGE, TZDATA_SOURCE, TZDATA_VERSION } from '../../pipeline/zones/zoneRules.js';
import { threadCountersBuffer } from '../threadCounters.js';
import { ProcessMetrics, type ThreadView } from './processMetrics.js';
import { startMetricsListener, METRICS_PATH, type MetricsListener } from './metricsListener.js';
import type { ThreadAbout } from './httpWorker.js';
import type { ThreadReport } from './threadMetrics.js';

const RESTART_AFTER_MS = 1000;
/** How long a scrape waits for a serving thread's own figures (threadMetrics.ts) before it goes on without them. */
const THREAD_REPORT_TIMEOUT_MS = 1000;
/** The young generation of each serving thread, in MB (see ServingThread.start). */
const THREAD_YOUNG_GENERATION_MB = 8;
/** Room in the usage table for accounts created while the server runs (sharedUsage.ts). */
const NEW_ACCOUNTS_HEADROOM = 10_000;

function fail(message: string, error?: unknown): never {
  process.stderr.write(`error: cannot start: ${message}\n`);
  log('error', 'start_failed', { error: String(error ?? message) });
  flushLog();
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  fail((error as Error).message, error);
}
setLogLevel(config.logLevel);

if (usingFallback) {
  const banner = '!'.repeat(78);
  process.stderr.write(
    `${banner}\n!! uWebSockets.js could not load its native binary for this Node.js (ABI ${process.versions.modules}).\n` +
      `!! It fell back to its slow JavaScript implementation: expect a fraction of the normal throughput.\n${banner}\n`,
  );
  log('error', 'uws_fallback', { abi: process.versions.modules, node: process.version });
}

if (TZDATA_FROM_PACKAGE) {
  // No compiled zoneinfo as new as the package on this machine: its JSON compiles close to zic's output, not to it
  // (docs/time-zones.md).
  process.stderr.write(
    `!! Zone rules from the npm package (${TZDATA_SOURCE}, ${TZDATA_VERSION}): the system has no compiled tz database as new.\n` +
      `!! Install Debian's tzdata (make tzdata, or apt-get install tzdata) for zic's own tables; /healthz names the source.\n`,
  );
  log('error', 'tzdata_from_package', { tzdata: TZDATA_VERSION, source: TZDATA_SOURCE });
}

// The port first: a second server on a port already served says so at once, before any work (portClaim.ts).
let claim: PortClaim;
try {
  claim = await claimPort(config.host, config.port);
} catch (error) {
  fail(error instanceof PortTakenError ? error.message : `cannot bind ${config.host}:${config.port}: ${(error as Error).message}`, error);
}

let stores: AccountsStores | undefined;
let usage: SharedUsage | undefined;
let usageWriter: UsageWriter | undefined;
let dailyUsagePruner: DailyUsagePruner | undefined;
if (process.env.ACCESS_CONTROL === 'off') {
  process.stderr.write('!! ACCESS_CONTROL=off: no API keys are checked and nothing is counted. For benchmarks only.\n');
  log('error', 'access_control_off', {});
} else {
  try {
    // The accounts layer's stores (embedded, or Redis with REDIS_URL); the primary uses the account store only.
    stores = await openStores(config, 'primary');
    // Embedded: the stored counts, written back every second. Fleet mode: Redis holds them (openUsageLedger.ts).
    ({ table: usage, writer: usageWriter, pruner: dailyUsagePruner } = shareUsageTable(config.fleet, stores.accounts, NEW_ACCOUNTS_HEADROOM));
  } catch (error) {
    fail((error as Error).message, error);
  }
}

/** What the bundle follower (STORE_URL) last said: sent to each thread as it changes and when a thread starts. */
let bundleStatus: BundleStatus | undefined;
/** For the metrics: threads started again after they ended, and scrapes a thread did not answer in time. */
let threadRestarts = 0;
let threadReportTimeouts = 0;

/** A serving thread in a worker, restarted if it ever ends without being asked to. */
class ServingThread {
  private worker: Worker | undefined;
  private stopping = false;
  private listened = false;
  private exited: Promise<void> = Promise.resolve();
  /** What the thread said when it listened (its request kinds, its methods). */
  about: ThreadAbout | undefined;
  /** Scrapes waiting for this thread's figures, by request id. */
  private readonly reports = new Map<number, (report: ThreadReport | undefined) => void>();
  private static reportIds = 0;

  constructor(
    private readonly options: ServeOptions,
    private readonly entry: URL,
  ) {}

  /** Starts the worker; resolves with the port once it listens. */
  start(): Promise<number> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(this.entry, {
        workerData: this.options,
        // A bound on the old generation makes V8 collect before a thread's heap grows far past what it holds; the young
        // generation's bound keeps V8 from growing it to its default 48 MB per thread (resident once used), which
        // bought no measurable throughput here (docs/operations.md, "Several cores, faults and limits").
        resourceLimits: { maxOldGenerationSizeMb: this.options.config.threadHeapMb, maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
      });
      this.worker = worker;
      this.exited = new Promise((done) => worker.once('exit', () => done()));
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'metrics') {
          this.reports.get(message.id)?.(message.report);
          return;
        }
        if (message.type === 'listening') {
          this.options.port = message.port; // a restart binds the same port
          this.about = message.about;
          this.listened = true;
          if (bundleStatus) this.tell({ type: 'bundle', status: bundleStatus });
          resolve(message.port);
        } else if (message.type === 'failed') reject(new Error(message.error));
      });
      worker.on('error', (error) => {
        log('error', 'worker_error', { thread: this.options.thread, error: String(error?.stack ?? error) });
        reject(error);
      });
      worker.once('exit', (code) => {
        reject(new Error(`serving thread ${this.options.thread} ended (${code}) before it listened`));
        // A thread that never served failed at start, and the start fails with it; one that served is replaced.
        if (this.stopping || !this.listened) return;
        log('error', 'worker_exited', { thread: this.options.thread, code, restartInMs: RESTART_AFTER_MS });
        setTimeout(() => {
          if (this.stopping) return;
          threadRestarts++;
          this.start().then(
            () => log('warn', 'worker_restarted', { thread: this.options.thread }),
            (error) => log('error', 'worker_restart_failed', { thread: this.options.thread, error: String(error) }),
          );
        }, RESTART_AFTER_MS).unref();
      });
    });
  }

  tell(message: ToWorker): void {
    if (this.listened && !this.stopping) this.worker?.postMessage(message);
  }

  /** The thread's figures for a scrape and its event loop's busy time; no report when it does not answer in time. */
  async view(): Promise<ThreadView> {
    const worker = this.worker;
    const busyMs = this.listened ? worker?.performance.eventLoopUtilization().active : undefined;
    if (!this.listened || this.stopping || !worker) return { about: this.about, report: undefined, busyMs };
    const id = ++ServingThread.reportIds;
    const report = await new Promise<ThreadReport | undefined>((resolve) => {
      const timer = setTimeout(() => {
        threadReportTimeouts++;
        resolve(undefined);
      }, THREAD_REPORT_TIMEOUT_MS);
      this.reports.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      worker.postMessage({ type: 'metrics', id } satisfies ToWorker);
    }).finally(() => this.reports.delete(id));
    return { about: this.about, report, busyMs };
  }

  /** Asks the thread to close its app and connections; resolves when it has ended. */
  stop(): Promise<void> {
    this.stopping = true;
    this.worker?.postMessage({ type: 'stop' } satisfies ToWorker);
    return this.exited;
  }
}

/**
 * The catalog, read once for the process (in a thread of its own, catalogLoader.ts) into shared memory that every
 * serving thread attaches; undefined when there is none or it cannot be read (city= and /cities answer 503). The zone
 * index beside it likewise; without it, zones come from geo-tz in each thread (slower for points never seen).
 */
async function shareCatalog(): Promise<{ catalog: SharedCatalog | undefined; zones: SharedZoneIndex | undefined }> {
  const started = performance.now();
  const message = await new Promise<FromCatalogLoader>((resolve) => {
    // trackUnmanagedFds off: the zone index file the loader opens stays open for the serving threads after it ends.
    const loader = new Worker(new URL('./catalogLoaderEntry.mjs', import.meta.url), { workerData: { dataDir: config.dataDir }, trackUnmanagedFds: false });
    // Taken when the thread has ended, not when it has answered: the serving threads start after it, and one of them
    // then reuses the memory its loading freed (glibc gives an ended thread's arena to the next new thread), which
    // would otherwise stay resident in an arena no thread uses (6 to 8 MB of the resident memory after start, measured).
    let answer: FromCatalogLoader | undefined;
    loader.once('message', (message: FromCatalogLoader) => (answer = message));
    loader.once('error', (error) => resolve({ type: 'failed', error: String(error) }));
    loader.once('exit', (code) => resolve(answer ?? { type: 'failed', error: `the catalog loader ended (${code})` }));
  });
  if (message.type === 'failed') {
    log('error', 'catalog_unreadable', { dataDir: config.dataDir, error: message.error });
    return { catalog: undefined, zones: undefined };
  }
  const zones = message.zones.index;
  if (!message.zones.index) {
    log('warn', `zone_index_${message.zones.problem}`, {
      detail: message.zones.detail,
      hint: 'npm run cli -- catalog zones; until then each thread finds zones with geo-tz (slower for points never seen)',
    });
  }
  if (!message.catalog) {
    log('warn', 'catalog_missing', { dataDir: config.dataDir, hint: 'npm run cli -- catalog build; city= and /cities answer 503 until then' });
    return { catalog: undefined, zones };
  }
  const { count: places, builtAt, buffer } = message.catalog;
  log('warn', 'catalog_loaded', {
    places,
    builtAt,
    ms: Math.round(performance.now() - started),
    sharedMb: Math.round(buffer.byteLength / 1e5) / 10,
    ...(zones ? { zoneIndexMb: Math.round(zones.buffer.byteLength / 1e5) / 10 } : {}),
  });
  return { catalog: message.catalog, zones };
}

/**
 * The serving threads' code compiled into one JavaScript file (pipeline/precompute/threadBundle.ts): a thread that loads it needs no
 * module-hooks thread of its own. Should that fail, each thread loads the TypeScript through tsx, as before.
 */
async function threadEntry(): Promise<URL> {
  const started = performance.now();
  try {
    const entry = await bundleForThread(new URL('./httpWorker.ts', import.meta.url));
    log('info', 'thread_code_compiled', { ms: Math.round(performance.now() - started) });
    return entry;
  } catch (error) {
    log('warn', 'thread_code_not_compiled', { error: String(error), hint: 'each serving thread loads its TypeScript through tsx (about 33 MB more each)' });
    return new URL('./httpWorkerEntry.mjs', import.meta.url);
  }
}
const [{ catalog, zones }, entry] = await Promise.all([shareCatalog(), threadEntry()]);

const countsBuffer = answerCountsBuffer(config.workers);
const countersBuffer = threadCountersBuffer(config.workers);
const serveOptions = (thread: number, port: number): ServeOptions => ({
  config,
  catalog,
  zones,
  thread,
  usageBuffer: usage?.buffer,
  answerCountsBuffer: countsBuffer,
  countersBuffer,
  port,
});

const threads: ServingThread[] = [];
// With STORE_URL, this process (not each thread) fetches published store bundles and switches `current`; the
// threads' store followers pick the switch up.
const bundleFollower = config.fleet.storeUrl
  ? new BundleFollower({
      dataDir: config.dataDir,
      location: bundleLocation(config.fleet.storeUrl),
      pollMs: config.fleet.storePollSeconds * 1000,
      catalogBuiltAt: catalog?.builtAt,
      onStatus: (status) => {
        bundleStatus = status;
        for (const thread of threads) thread.tell({ type: 'bundle', status });
      },
    })
  : undefined;
bundleFollower?.start();
let metricsListener: MetricsListener | undefined;
let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    // Every thread stops listening and closes its connections first; then the counts of every answered request
    // are written, and only then does the process end.
    bundleFollower?.stop();
    await metricsListener?.close();
    await Promise.all(threads.map((t) => t.stop()));
    dailyUsagePruner?.stop();
    await usageWriter?.stop();
    await stores?.close();
  } catch (error) {
    log('error', 'stop_failed', { error: String(error) });
  }
  log('warn', 'stopped', { signal });
  flushLog();
  process.exit(0);
}
// Installed before any thread serves: a signal that came before would end the process without the stop above.
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

// Every serving thread is a worker, also when there is one: one code path, and each gets the same heap budget. They
// all listen on the claimed port (PORT=0: the one the claim was given), sharing it.
const boundPort = claim.port;
try {
  await claim.recheck();
  threads.push(...Array.from({ length: config.workers }, (_, i) => new ServingThread(serveOptions(i, boundPort), entry)));
  await Promise.all(threads.map((t) => t.start()));
} catch (error) {
  if (stopping) await new Promise(() => undefined); // a signal came during start-up: stop() ends the process
  log('error', 'listen_failed', { host: config.host, port: boundPort, error: String(error) });
  await Promise.all(threads.map((t) => t.stop()));
  if (error instanceof PortTakenError) fail(error.message, error);
  const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
  fail(`${(error as Error).message}${outOfMemory ? ` (THREAD_HEAP_MB is ${config.threadHeapMb}; a thread holds about 60 MB besides the shared catalog)` : ''}`, error);
}

// The metrics on a listener of their own (METRICS_PORT), once the threads serve: a failure to bind stops the start,
// as the public port's does.
if (config.metrics && !stopping) {
  const processMetrics = new ProcessMetrics({
    dataDir: config.dataDir,
    fleet: config.fleet.redisUrl !== undefined,
    countersBuffer,
    answerCountsBuffer: countsBuffer,
    tzdata: { version: TZDATA_VERSION, source: TZDATA_FROM_PACKAGE ? 'npm' : 'system' },
    threads: () => Promise.all(threads.map((t) => t.view())),
    restarts: () => threadRestarts,
    reportTimeouts: () => threadReportTimeouts,
    usageWriter: () => usageWriter && { lastWrittenAt: usageWriter.lastWrittenAt, failures: usageWriter.failures },
  });
  try {
    metricsListener = await startMetricsListener(config.metrics.host, config.metrics.port, () => processMetrics.scrape());
  } catch (error) {
    await Promise.all(threads.map((t) => t.stop()));
    fail(`cannot serve the metrics on ${config.metrics.host}:${config.metrics.port} (METRICS_PORT): ${(error as Error).message}`, error);
  }
  const host = config.metrics.host.includes(':') ? `[${config.metrics.host}]` : config.metrics.host;
  log('warn', 'metrics_listening', { host: config.metrics.host, port: metricsListener.port, url: `http://${host}:${metricsListener.port}${METRICS_PATH}` });
}

/** A word for a POSIX shell, in single quotes. */
const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The banner's sample request, one that works: with the demo key when `npm run cli -- demo` left one, read from its
 * file by the shell (the key itself is never printed here, nor logged).
 */
function sampleRequest(url: string): string {
  const request = shellWord(`${url}${SAMPLE_API_REQUEST}`);
  if (!stores) return `Try (no key needed: ACCESS_CONTROL=off):\n  curl ${request}`;
  const keyFile = demoKeyFile(config.dataDir);
  if (existsSync(keyFile)) return `Try it with the demo key:\n  curl -H "X-API-Key: $(cat ${shellWord(keyFile)})" ${request}`;
  return (
    `Every request needs an API key: \`npm run cli -- demo\` makes one (kept in ${keyFile}), ` +
    `or \`npm run cli -- keys create --email you@example.com\`. Then:\n  curl -H 'X-API-Key: mk_your_key' ${request}`
  );
}

if (!stopping) {
  const url = `http://${config.host}:${boundPort}`;
  log('warn', 'listening', { host: config.host, port: boundPort, url, workers: config.workers, nativeUws: !usingFallback });
  // The site and the dashboard where passkeys work (localhost on loopback), the API where the server listens.
  const shown = bannerAddresses(config.host, boundPort, config.publicBaseUrl);
  const site = shown.browser;
  process.stdout.write(
    `\nServing on ${url} (${config.workers} thread${config.workers > 1 ? 's' : ''}). The site: ${site}/en and ${site}/tr, the docs: ${site}/docs, the dashboard: ${site}/dashboard${shown.note}.\n` +
      `${sampleRequest(shown.api)}\n` +
      (metricsListener ? `Metrics: http://${config.metrics!.host.includes(':') ? `[${config.metrics!.host}]` : config.metrics!.host}:${metricsListener.port}${METRICS_PATH}\n` : '') +
      '\n',
  );
}
