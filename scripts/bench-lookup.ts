// Requests per second for /times and /month by city, answered from the precomputed store and computed live, for the
// same city in one run; and, when FULL_STORE_DATA_DIR names a data directory holding the full default store, the
// server's resident memory over it before and after requests for random places.
// Usage: npm run bench:lookup   [FULL_STORE_DATA_DIR=/path npm run bench:lookup]   (installs wrk when missing)
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { precompute } from '../pipeline/precompute/precompute.js';
import { dataDirWithCatalog, startServerWithKey } from '../testing/serverProcess.js';
import { readCatalog } from '../pipeline/catalog/catalogFile.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, runWrk, type WrkResult } from './lib/wrk.js';

const ROUNDS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 64;
const CITY = 'istanbul';
const CITY_ID = 'g745044';

ensureWrk();
const { dataDir, catalog } = requireCatalog();
const server = (dir: string) => startServerWithKey({ DATA_DIR: dir, LOG_LEVEL: 'warn', PUBLIC_BASE_URL: 'https://bench.example' });
const withCatalog = () => dataDirWithCatalog(dataDir);

const today = new Date();
const year = today.getUTCFullYear();
const lookupDir = withCatalog();
await precompute({ dataDir: lookupDir, years: [year, year + 1], methods: 'default', madhabs: 'default', scope: `places:${CITY_ID}` });
const lookup = await server(lookupDir);
const live = await server(withCatalog());
const endpoints = {
  '/times': `/api/v1/times?city=${CITY}&date=${today.toISOString().slice(0, 10)}`,
  '/month': `/api/v1/month?city=${CITY}&year=${year}&month=${today.getUTCMonth() + 1}`,
};
const median = (xs: WrkResult[]) => [...xs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(xs.length / 2)];
const lines: string[] = [];
try {
  for (const [name, url] of Object.entries(endpoints)) {
    const results: Record<'lookup' | 'live', WrkResult[]> = { lookup: [], live: [] };
    for (const s of [lookup, live]) runWrk(s.server.baseUrl + url, { connections: CONNECTIONS, seconds: 2, headers: { 'X-API-Key': s.key } });
    for (let round = 1; round <= ROUNDS; round++) {
      for (const which of ['lookup', 'live'] as const) {
        const s = which === 'lookup' ? lookup : live;
        const r = runWrk(s.server.baseUrl + url, { connections: CONNECTIONS, seconds: SECONDS, headers: { 'X-API-Key': s.key } });
        if (r.non2xx || r.errors) throw new Error(`${name} ${which}: ${r.non2xx} non-2xx, ${r.errors} socket errors`);
        results[which].push(r);
        console.log(`${name} round ${round} ${which.padEnd(6)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50ms.toFixed(2)} ms  p99 ${r.p99ms.toFixed(2)} ms`);
      }
    }
    const a = median(results.lookup);
    const b = median(results.live);
    lines.push(
      `${name} by city (${url}):\n  lookup ${a.requestsPerSecond.toFixed(0)} req/s (p50 ${a.p50ms.toFixed(2)} ms, p99 ${a.p99ms.toFixed(2)} ms), ` +
        `live ${b.requestsPerSecond.toFixed(0)} req/s (p50 ${b.p50ms.toFixed(2)} ms, p99 ${b.p99ms.toFixed(2)} ms): ${(a.requestsPerSecond / b.requestsPerSecond).toFixed(1)}x`,
    );
  }
} finally {
  await lookup.server.stop();
  await live.server.stop();
}
console.log(`\nwrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} alternating rounds, medians, ${cpus().length} cores:\n${lines.join('\n')}\n(targets: /times at least 3x, /month at least 10x)`);

const fullDir = process.env.FULL_STORE_DATA_DIR;
if (fullDir) {
  const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  const full = await server(fullDir);
  try {
    const pid = full.server.process.pid!;
    const atStart = rss(pid);
    // Random places of the store's scope, so that the requests touch pages all over it.
    const fullCatalog = readCatalog(fullDir)!;
    const sample = Array.from({ length: 20_000 }, () => fullCatalog.places[Math.floor(Math.random() * fullCatalog.places.length)].path);
    const script = path.join(mkdtempSync(path.join(tmpdir(), 'bench-wrk-')), 'random.lua');
    writeFileSync(
      script,
      `local paths = {${sample.map((p) => JSON.stringify(`/api/v1/times?city=${encodeURIComponent(p)}&date=${today.toISOString().slice(0, 10)}`)).join(',')}}\n` +
        `request = function() return wrk.format("GET", paths[math.random(#paths)], { ["X-API-Key"] = "${full.key}" }) end\n`,
    );
    const r = runWrk(full.server.baseUrl + '/', { connections: CONNECTIONS, seconds: 20, script });
    const after = rss(pid);
    const health = (await (await fetch(`${full.server.baseUrl}/healthz`)).json()) as { answers: { store: number; live: number } };
    console.log(
      `\nresident memory of the server with the full store (${fullDir}):\n` +
        `  at start ${(atStart / 1e6).toFixed(0)} MB; after 20 s of /times for random places (${r.requestsPerSecond.toFixed(0)} req/s, ` +
        `${health.answers.store} from the store, ${health.answers.live} live) ${(after / 1e6).toFixed(0)} MB`,
    );
  } finally {
    await full.server.stop();
  }
}

