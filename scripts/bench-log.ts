// What the request log costs: `/times` by city (from the store) on a server with the default log level (info: one
// line per request) against the same server with LOG_LEVEL=warn (no request lines), alternating in one run; given
// another checkout, its pair too, so that the log's cost before and after a change is measured side by side.
// The servers' stdout is read and dropped all along (wrk runs in the background), as a terminal or a log collector
// would take it: a log that nobody reads fills its pipe, and the server's writes fail or wait.
// Usage: npm run bench:log [-- <other checkout>]   (BENCH_SECONDS per round, default 5; BENCH_ROUNDS, default 5; WORKERS, default 1)
import path from 'node:path';
import { precompute } from '../pipeline/precompute/precompute.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, startWrk } from './lib/wrk.js';

const other = process.argv[2];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WORKERS = process.env.WORKERS ?? '1';
ensureWrk();
const { dataDir } = requireCatalog();
const year = new Date().getUTCFullYear();
const dir = dataDirWithCatalog(dataDir);
await precompute({ dataDir: dir, years: [year], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
const url = `/api/v1/times?city=istanbul&date=${year}-03-01`;

async function start(level: 'info' | 'warn', root?: string): Promise<RunningServer> {
  const server = await startServer({ ACCESS_CONTROL: 'off', LOG_LEVEL: level, WORKERS, DATA_DIR: dir }, 60_000, root);
  server.process.stdout!.removeAllListeners('data');
  server.process.stdout!.resume(); // read and dropped
  return server;
}
const servers: Array<[string, RunningServer]> = [
  ['this, info', await start('info')],
  ['this, warn', await start('warn')],
];
if (other) servers.push([`other, info`, await start('info', path.resolve(other))], [`other, warn`, await start('warn', path.resolve(other))]);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rates = new Map<string, number[]>(servers.map(([name]) => [name, []]));
try {
  for (const [, server] of servers) await startWrk(server.baseUrl + url, { connections: 64, seconds: 1 });
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, server] of round % 2 ? [...servers].reverse() : servers) {
      // wrk runs in the background, so that this process goes on reading the servers' stdout meanwhile.
      const r = await startWrk(server.baseUrl + url, { connections: 64, seconds: SECONDS });
      if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      rates.get(name)!.push(r.requestsPerSecond);
    }
  }
} finally {
  for (const [, server] of servers) await server.stop();
}
console.log(`GET ${url}, WORKERS=${WORKERS}, keys off, wrk 1 thread, 64 connections, ${ROUNDS} alternating rounds of ${SECONDS} s, medians:`);
for (const [name, xs] of rates) console.log(`  ${name.padEnd(12)} ${median(xs).toFixed(0).padStart(7)} req/s  (${xs.map((x) => x.toFixed(0)).join(', ')})`);
for (const which of other ? ['this', 'other'] : ['this']) {
  const ratio = median(rates.get(`${which}, info`)!) / median(rates.get(`${which}, warn`)!);
  console.log(`${which}: with the request log / without: ${ratio.toFixed(3)} (the log costs ${((1 - ratio) * 100).toFixed(1)}%; target at most 5%)`);
}
