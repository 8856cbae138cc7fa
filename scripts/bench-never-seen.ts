// Live /times by lat/lon for points never asked before: each request a new point spread over the inhabited
// latitudes, so that nothing the server keeps (zones by point, kept answers) answers it, and geo-tz reads and decodes
// the border polygons of quads it has not got. One serving thread, keys off, this checkout and, given one, another
// (a `git worktree` of an older commit) taking turns, each round with points of its own. Prints the requests per
// second (median of the rounds) and the resident memory after start and after each round: with geo-tz's cache
// bounded it levels off; unbounded it grows with every quad touched.
// Usage: npm run bench:never-seen [-- <other checkout>]   (BENCH_SECONDS per round, default 8; BENCH_ROUNDS, default 4)
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataDirWithCatalog, startServer, type RunningServer } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const other = process.argv[2];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = 32;
ensureWrk();
const { dataDir } = requireCatalog();
/** The process's resident memory, NaN once it has ended. */
const rssMb = (pid: number): number => {
  const status = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return status ? Number(status[1]) / 1024 : NaN;
};
const dir = mkdtempSync(path.join(tmpdir(), 'bench-never-seen-'));

/** A wrk script whose every request is a point of its own: 55°S to 70°N, 4 decimals, no two alike in a run. */
function pointsScript(run: number): string {
  const file = path.join(dir, `points-${run}.lua`);
  writeFileSync(
    file,
    `local n = ${run * 10_000_000}
request = function()
  n = n + 1
  local lat = (n * 7919 % 1250000) / 10000 - 55
  local lon = (n * 104729 % 3600000) / 10000 - 180
  return wrk.format("GET", "/api/v1/times?lat=" .. lat .. "&lon=" .. lon .. "&date=2026-11-22")
end
`,
  );
  return file;
}

const env = { ACCESS_CONTROL: 'off', LOG_LEVEL: 'warn', WORKERS: '1' };
const servers: Array<{ name: string; server: RunningServer; rates: number[]; p99: number[]; rss: number[]; failed: string[] }> = [];
servers.push({ name: 'this checkout', server: await startServer({ ...env, DATA_DIR: dataDirWithCatalog(dataDir) }), rates: [], p99: [], rss: [], failed: [] });
if (other) servers.push({ name: path.resolve(other), server: await startServer({ ...env, DATA_DIR: dataDirWithCatalog(dataDir) }, 60_000, path.resolve(other)), rates: [], p99: [], rss: [], failed: [] });
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Errors a server writes while it serves (a thread out of heap, say): shown with the table.
const stderr = new Map<RunningServer, string[]>();
for (const { server } of servers) {
  const lines: string[] = [];
  stderr.set(server, lines);
  server.process.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
}
let run = 0;
try {
  await new Promise((r) => setTimeout(r, 3000));
  for (const s of servers) s.rss.push(rssMb(s.server.process.pid!));
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 ? [...servers].reverse() : servers) {
      if (s.server.process.exitCode !== null || s.server.process.signalCode !== null) continue; // ended: shown below
      const r = runWrk(s.server.baseUrl + '/', { connections: CONNECTIONS, seconds: SECONDS, script: pointsScript(run++) });
      // Kept, not thrown: a thread that runs out of heap and is restarted shows here as refused connections.
      if (r.non2xx || r.errors) s.failed.push(`round ${round + 1}: ${r.non2xx} non-2xx, ${r.output.match(/Socket errors:.*/)?.[0] ?? ''}`);
      s.rates.push(r.requestsPerSecond);
      s.p99.push(r.p99ms);
      s.rss.push(rssMb(s.server.process.pid!));
      if (s.server.process.exitCode !== null || s.server.process.signalCode !== null) {
        s.failed.push(`round ${round + 1}: the server ended (${s.server.process.exitCode ?? s.server.process.signalCode})`);
      }
    }
  }
} finally {
  for (const s of servers) await s.server.stop();
}
const first = median(servers[0].rates);
console.log(
  `\nLive /times by lat/lon, a new point every request, one serving thread, wrk 1 thread, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s taking turns:\n` +
    `| server | req/s (median) | each round | p99 ms (median) | RSS MB: after start, then after each round | ratio to this | failures |\n|---|---|---|---|---|---|---|\n` +
    servers
      .map(
        (s) =>
          `| ${s.name} | ${median(s.rates).toFixed(0)} | ${s.rates.map((x) => x.toFixed(0)).join(', ')} | ${median(s.p99).toFixed(1)} | ${s.rss.map((x) => x.toFixed(0)).join(' → ')} | ${(median(s.rates) / first).toFixed(2)} | ${s.failed.join('; ') || 'none'} |`,
      )
      .join('\n'),
);
for (const s of servers) {
  const text = stderr.get(s.server)!.join('').split('\n').filter((l) => !l.startsWith('!!')).join('\n').trim();
  if (text) console.log(`\n${s.name} wrote:\n${text.slice(-2000)}`);
}
