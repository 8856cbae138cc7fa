// Two versions of the server side by side in one run: this checkout and another (a `git worktree` of an older
// commit, say), one serving thread each, keys off, the same catalog, wrk taking turns between them so that the
// machine's noise falls on both alike. Prints each path's requests per second (median of the rounds) and the ratio.
// Usage: npm run bench:compare -- <other checkout> [path …]   (BENCH_SECONDS per round, default 5; 3 rounds)
import path from 'node:path';
import { dataDirWithCatalog, startServer, type RunningServer } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const [other, ...given] = process.argv.slice(2);
if (!other) {
  console.error('Usage: npm run bench:compare -- <other checkout> [path …]');
  process.exit(2);
}
const paths = given.length
  ? given
  : [
      '/api/v1/times?lat=41.0082&lon=28.9784&date=2026-11-22',
      '/api/v1/times?lat=33.5731&lon=-7.5898&date=2026-11-22',
      '/api/v1/month?lat=52.52&lon=13.405&year=2026&month=3',
      '/api/v1/next?lat=40.7128&lon=-74.006',
    ];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;

ensureWrk();
const { dataDir } = requireCatalog();
const env = { ACCESS_CONTROL: 'off', LOG_LEVEL: 'warn', WORKERS: '1' };
const servers: Array<[string, RunningServer]> = [
  ['this', await startServer({ ...env, DATA_DIR: dataDirWithCatalog(dataDir) })],
  ['other', await startServer({ ...env, DATA_DIR: dataDirWithCatalog(dataDir) }, 30_000, path.resolve(other))],
];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  console.log(`this checkout against ${path.resolve(other)}: wrk 1 thread, 32 connections, ${ROUNDS} alternating rounds of ${SECONDS} s, medians`);
  for (const p of paths) {
    const rates: Record<string, number[]> = { this: [], other: [] };
    for (const [, server] of servers) runWrk(server.baseUrl + p, { connections: 32, seconds: 1 }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, server] of round % 2 ? [...servers].reverse() : servers) {
        const result = runWrk(server.baseUrl + p, { connections: 32, seconds: SECONDS });
        if (result.non2xx || result.errors) throw new Error(`${name} ${p}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        rates[name].push(result.requestsPerSecond);
      }
    }
    const [a, b] = [median(rates.this), median(rates.other)];
    console.log(`${p}\n  this ${a.toFixed(0)} req/s, other ${b.toFixed(0)} req/s: ratio ${(a / b).toFixed(3)}`);
  }
} finally {
  for (const [, server] of servers) await server.stop();
}
