// What the metrics cost: `/times` by city (Istanbul from the store, no date, as clients ask) on a server with the
// metrics on (METRICS_PORT, scraped every SCRAPE_SECONDS all along: 5 by default, three times as often as the usual
// 15 s) against the same code with them off, alternating in one run so that the machine's noise falls on both alike.
// Prints each one's requests per second (median of the rounds), the ratio, the server's CPU time per request (the
// process's user and system time over a round, all threads), which a loaded machine moves far less, and how long a
// scrape takes. The request log at the server's default (LOG_LEVEL=info: sampled, and the clock read at an answer's
// end shared with the metrics); BENCH_LOG_LEVEL=warn turns it off on both, so that the clock read is all the metrics'.
// The servers' stdout is read and dropped all along, as bench-log.ts does. Last, what the metrics add to a request
// by themselves, free of the machine's noise: the edge's hook (requestKinds.ts) called in a loop, beside a clock read.
// Usage: npm run bench:metrics   (BENCH_SECONDS per round, default 5; BENCH_ROUNDS, default 6; WORKERS, default 1;
// BENCH_KEYS=on to count with a key as production does, off by default: the cheapest request, the largest share;
// BENCH_SAME=1 runs both servers with the metrics on, to see the noise between two alike)
import { readFileSync, writeFileSync } from 'node:fs';
import { precompute } from '../pipeline/precompute/precompute.js';
import { dataDirWithCatalog, provisionKey, startServer, type RunningServer } from '../testing/serverProcess.js';
import { metricsUrl } from '../testing/metricsText.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, startWrk } from './lib/wrk.js';
import { countAnswered } from '../server/process/requestKinds.js';
import type { EdgeRequest, Reply } from '../server/edge/edge.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const WORKERS = process.env.WORKERS ?? '1';
const KEYS = process.env.BENCH_KEYS === 'on';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const SCRAPE_MS = Number(process.env.SCRAPE_SECONDS ?? 5) * 1000;
ensureWrk();
const { dataDir } = requireCatalog();
const year = new Date().getUTCFullYear();
const url = '/api/v1/times?city=istanbul';

async function start(metrics: boolean): Promise<{ server: RunningServer; key: string | undefined }> {
  const dir = dataDirWithCatalog(dataDir);
  await precompute({ dataDir: dir, years: [year, year + 1], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
  const env: Record<string, string> = { LOG_LEVEL, WORKERS, DATA_DIR: dir };
  if (metrics) env.METRICS_PORT = '0';
  let key: string | undefined;
  if (KEYS) {
    key = await provisionKey(dir, 'bench@example.com', 'business');
    env.PLANS_FILE = `${dir}/plans.json`;
    writeFileSync(env.PLANS_FILE, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
  } else env.ACCESS_CONTROL = 'off';
  const server = await startServer(env, 60_000);
  return { server, key };
}

/** Reads and drops a server's stdout from now on (its metrics URL has been read from it before). */
function drain(server: RunningServer): void {
  server.process.stdout!.removeAllListeners('data');
  server.process.stdout!.resume();
}

/** The process's user and system CPU time so far, all its threads, in milliseconds (Linux's /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const servers: Array<[string, { server: RunningServer; key: string | undefined }]> = [
  ['metrics on', await start(true)],
  ['metrics off', await start(process.env.BENCH_SAME === '1')],
];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rates = new Map<string, number[]>(servers.map(([name]) => [name, []]));
const cpu = new Map<string, number[]>(servers.map(([name]) => [name, []]));
const scrapeMs: number[] = [];
const metrics = metricsUrl(servers[0][1].server);
for (const [, { server }] of servers) drain(server);
const scraper = setInterval(() => {
  const started = performance.now();
  void fetch(metrics)
    .then((r) => r.text())
    .then(() => scrapeMs.push(performance.now() - started));
}, SCRAPE_MS);
try {
  const headers = (key: string | undefined) => (key ? { 'X-API-Key': key } : undefined);
  for (const [, { server, key }] of servers) await startWrk(server.baseUrl + url, { connections: 64, seconds: 1, headers: headers(key) });
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, { server, key }] of round % 2 ? [...servers].reverse() : servers) {
      const before = cpuMs(server.process.pid!);
      const r = await startWrk(server.baseUrl + url, { connections: 64, seconds: SECONDS, headers: headers(key) });
      const used = cpuMs(server.process.pid!) - before;
      if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      rates.get(name)!.push(r.requestsPerSecond);
      cpu.get(name)!.push((1000 * used) / (r.requestsPerSecond * SECONDS));
    }
  }
} finally {
  clearInterval(scraper);
  for (const [, { server }] of servers) await server.stop();
}
console.log(
  `GET ${url}, WORKERS=${WORKERS}, keys ${KEYS ? 'on' : 'off'}, LOG_LEVEL=${LOG_LEVEL}, wrk 1 thread, 64 connections, ${ROUNDS} alternating rounds of ${SECONDS} s ` +
    `(the metrics scraped every ${SCRAPE_MS / 1000} s: ${scrapeMs.length} scrapes, ${median(scrapeMs).toFixed(1)} ms each), medians:`,
);
for (const [name, xs] of rates) {
  console.log(`  ${name.padEnd(12)} ${median(xs).toFixed(0).padStart(7)} req/s  (${xs.map((x) => x.toFixed(0)).join(', ')}); CPU ${median(cpu.get(name)!).toFixed(1)} µs a request`);
}
// Each round's two runs were back to back: their ratio sees the least of the machine's drift.
const paired = (m: Map<string, number[]>) => median(m.get('metrics on')!.map((x, i) => x / m.get('metrics off')![i]));
const ratio = paired(rates);
const cpuRatio = paired(cpu);
console.log(
  `with the metrics / without, the median of the rounds' ratios: throughput ${ratio.toFixed(3)} (the metrics cost ${((1 - ratio) * 100).toFixed(1)}%; ` +
    `target at most 3%), CPU a request ${cpuRatio.toFixed(3)} (${((cpuRatio - 1) * 100).toFixed(1)}% more)`,
);

/** Nanoseconds a call of `work` takes, the best of five rounds of a few million calls. */
function nanoseconds(work: (i: number) => void): number {
  const calls = 4_000_000;
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) work(i);
    best = Math.min(best, ((performance.now() - started) * 1e6) / calls);
  }
  return best;
}
const requests: EdgeRequest[] = ['/api/v1/times', '/en/prayer-times/turkey/istanbul'].map((path) => ({
  method: 'get',
  url: `${path}?`.slice(0, -1), // a string of its own, as uWS gives one per request
  query: '',
  headers: {},
  requestId: 'bench',
  clientAddress: '',
}));
const answered: Reply = { status: 200, body: '', headerBlock: ['Content-Type', 'application/json'] };
let sink = 0;
const hook = nanoseconds((i) => countAnswered(i & 1 ? 2 : 1, requests[i & 1], answered, 0.0001));
const clock = nanoseconds(() => (sink += performance.now()));
console.log(`the hook alone (kind, status class, latency bucket): ${hook.toFixed(0)} ns a request, and its clock read ${clock.toFixed(0)} ns (shared with the request log at LOG_LEVEL=info)${sink < 0 ? '' : ''}`);
