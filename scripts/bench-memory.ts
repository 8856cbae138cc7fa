// Resident memory of the server as `make run` starts it (one serving thread per core, the default), for this
// checkout and, given one, another (a `git worktree` of an older commit) in the same run: after start, and after
// some seconds of live requests over many places (/times by lat/lon, /cities), which make each thread build and
// keep place and Location objects. Prints the RSS of the whole process (every thread) from /proc, 3 s and 15 s after
// each: loading the modules and the warm-up leave about 90 MB of garbage in the threads' heaps, which V8 collects and
// returns to the system when it finds the thread idle (its memory reducer, 8 s after the last full collection); the
// 15 s figure is what the server keeps.
// Usage: npm run bench:memory [-- <other checkout>]   (BENCH_SECONDS of load per endpoint, default 10)
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { dataDirWithCatalog, startServer, type RunningServer } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const other = process.argv[2];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
ensureWrk();
const { dataDir } = requireCatalog();
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The RSS 3 s and 15 s after now. */
async function rssAfter(pid: number): Promise<[number, number]> {
  await wait(3000);
  const soon = rssMb(pid);
  await wait(12_000);
  return [soon, rssMb(pid)];
}

// Requests spread over the map: each a different point, so that the nearest places and zones vary.
const script = path.join(mkdtempSync(path.join(tmpdir(), 'bench-memory-')), 'spread.lua');
writeFileSync(
  script,
  `local n = 0
request = function()
  n = n + 1
  local lat = (n * 7919 % 12000) / 100 - 55
  local lon = (n * 104729 % 36000) / 100 - 180
  if n % 2 == 0 then return wrk.format("GET", "/api/v1/times?lat=" .. lat .. "&lon=" .. lon .. "&date=2026-11-22") end
  local q = {"ist", "par", "ber", "new", "kad", "san", "mos", "lon", "tok", "del"}
  return wrk.format("GET", "/api/v1/cities?q=" .. q[n % 10 + 1] .. "&limit=20")
end
`,
);

const env = { ACCESS_CONTROL: 'off', LOG_LEVEL: 'warn', WORKERS: String(availableParallelism()) };
const rows: string[] = [];
for (const [name, root] of [['this checkout', undefined], ...(other ? [[path.resolve(other), path.resolve(other)]] : [])] as Array<[string, string | undefined]>) {
  const server: RunningServer = await startServer({ ...env, DATA_DIR: dataDirWithCatalog(dataDir) }, 60_000, root);
  try {
    const started = await rssAfter(server.process.pid!);
    const r = runWrk(server.baseUrl + '/', { connections: 64, seconds: SECONDS, script });
    const loaded = await rssAfter(server.process.pid!);
    const mb = ([soon, kept]: [number, number]) => `${soon.toFixed(0)}, ${kept.toFixed(0)}`;
    rows.push(`| ${name} | ${mb(started)} | ${mb(loaded)} | ${r.requestsPerSecond.toFixed(0)} |`);
  } finally {
    await server.stop();
  }
}
console.log(
  `\nResident memory, ${env.WORKERS} serving threads (the default here), after start and after ${SECONDS} s of live /times by lat/lon and /cities over many places, each 3 s and 15 s after:\n` +
    `| server | RSS after start MB (3 s, 15 s) | RSS after the load MB (3 s, 15 s) | req/s under it |\n|---|---|---|---|\n${rows.join('\n')}`,
);
