// Two versions of the server side by side in one run: this checkout and another (a `git worktree` of an older
// commit, say), one serving thread each, keys off, the same catalog, wrk taking turns between them so that the
// machine's noise falls on both alike. Prints each request's requests per second (median of the rounds) and the
// ratio, and the server's CPU time per request (its process's user and system time over the round, all threads): on a
// machine shared with other work the rate follows the load, the CPU a request costs much less so.
// A request is a path, or `near:<path start>` / `globe:<path start>` for a new point on every request
// (scripts/lib/newPoints.ts), e.g. 'near:/api/v1/times?'.
// Usage: npm run bench:compare -- <other checkout> [request …]   (BENCH_SECONDS per round, default 5; 3 rounds;
// OTHER_DATA_DIR: a data directory whose catalog the other checkout reads, when its catalog format is older)
import path from 'node:path';
import { dataDirWithCatalog, startServer, type RunningServer } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { readFileSync } from 'node:fs';
import { wrkTarget } from './lib/newPoints.js';
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
const { dataDir, catalog } = requireCatalog();
const env = { ACCESS_CONTROL: 'off', LOG_LEVEL: 'warn', WORKERS: '1' };
const servers: Array<[string, RunningServer]> = [
  ['this', await startServer({ ...env, DATA_DIR: dataDirWithCatalog(dataDir) })],
  ['other', await startServer({ ...env, DATA_DIR: dataDirWithCatalog(process.env.OTHER_DATA_DIR ?? dataDir) }, 30_000, path.resolve(other))],
];
/** The process's user and system CPU time so far, all its threads, in milliseconds (Linux's /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command; in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  console.log(`this checkout against ${path.resolve(other)}: wrk 1 thread, 32 connections, ${ROUNDS} alternating rounds of ${SECONDS} s, medians`);
  for (const p of paths) {
    const rates: Record<string, number[]> = { this: [], other: [] };
    const cpu: Record<string, number[]> = { this: [], other: [] };
    for (const [, server] of servers) {
      const { url, options } = wrkTarget(server.baseUrl, p, catalog);
      runWrk(url, { connections: 32, seconds: 1, ...options }); // warm-up
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, server] of round % 2 ? [...servers].reverse() : servers) {
        const { url, options } = wrkTarget(server.baseUrl, p, catalog);
        const before = cpuMs(server.process.pid!);
        const result = runWrk(url, { connections: 32, seconds: SECONDS, ...options });
        const used = cpuMs(server.process.pid!) - before;
        if (result.non2xx || result.errors) throw new Error(`${name} ${p}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        rates[name].push(result.requestsPerSecond);
        cpu[name].push((1000 * used) / (result.requestsPerSecond * SECONDS));
      }
    }
    const [a, b] = [median(rates.this), median(rates.other)];
    const [ca, cb] = [median(cpu.this), median(cpu.other)];
    console.log(
      `${p}\n  this ${a.toFixed(0)} req/s, other ${b.toFixed(0)} req/s: ratio ${(a / b).toFixed(3)}\n` +
        `  CPU per request: this ${ca.toFixed(1)} µs, other ${cb.toFixed(1)} µs: other / this ${(cb / ca).toFixed(3)}`,
    );
  }
} finally {
  for (const [, server] of servers) await server.stop();
}
