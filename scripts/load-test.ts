// The load test: a fresh server (serving threads as by default: one per core) held at its peak for 60 seconds by wrk
// at 64 connections, with a mix of every endpoint over thousands of places, and a trial key whose 429s are intended.
// Passes when every answer is a 200 but the trial key's refusals, no socket errors, and resident memory and open
// file descriptors are flat (start, after a 5-second warm-up, against end). Prints one table; exits 1 otherwise.
// Usage: npm run load   (DATA_DIR must hold a catalog; LOAD_SECONDS=60; installs wrk when missing)
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { precompute } from '../pipeline/precompute/precompute.js';
import { dataDirWithCatalog, provisionKey, startServerWithKey } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, startWrk } from './lib/wrk.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const WARM_UP_SECONDS = 5;
const SAMPLE_SECONDS = 5;
const CONNECTIONS = 64;
const PLACES = 2000;
const WORKERS = process.env.WORKERS ?? String(availableParallelism());
/** "Flat": the end within this much of the start. */
const RSS_TOLERANCE = { ratio: 0.1, mb: 25 };
const FD_TOLERANCE = 2;

ensureWrk();
const { dataDir, catalog } = requireCatalog();
const today = new Date();
const year = today.getUTCFullYear();
const dir = dataDirWithCatalog(dataDir);
console.error(`precomputing the ${PLACES} most populous places for ${year}…`);
await precompute({ dataDir: dir, years: [year], methods: 'default', madhabs: 'default', scope: `top:${PLACES}` });
const { server, key } = await startServerWithKey({ DATA_DIR: dir, LOG_LEVEL: 'warn', WORKERS });
const trialKey = await provisionKey(dir, 'trial-load@example.com', 'trial');
await new Promise((r) => setTimeout(r, 600)); // the new key reaches the server within a second

// The mix: about 40% /times by city, 15% /month by city, 10% /next, 15% /times live, 10% /cities, 5% /qibla, and 5%
// with the trial key (10 a minute: nearly all of those are the intended 429s).
const places = [...catalog.places].sort((a, b) => (b.population ?? 0) - (a.population ?? 0)).slice(0, PLACES);
const requests: Array<[string, 1 | 2]> = [];
const month = today.getUTCMonth() + 1;
places.forEach((place, i) => {
  const city = encodeURIComponent(place.path);
  const day = `${year}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  requests.push([`/api/v1/times?city=${city}`, 1], [`/api/v1/times?city=${city}&date=${day}`, 1]);
  if (i % 8 < 3) requests.push([`/api/v1/month?city=${city}&year=${year}&month=${1 + (i % 12)}`, 1]);
  if (i % 5 === 0) requests.push([`/api/v1/month?city=${city}&year=${year}&month=${month}`, 1]);
  if (i % 2 === 0) requests.push([`/api/v1/next?city=${city}`, 1]);
  if (i % 4 < 3) {
    const lat = (place.latitude + 0.0137 * (i % 7)).toFixed(4);
    const lon = (place.longitude - 0.0113 * (i % 5)).toFixed(4);
    requests.push([`/api/v1/times?lat=${lat}&lon=${lon}`, 1]);
  }
  if (i % 2 === 1) requests.push([`/api/v1/cities?q=${encodeURIComponent(place.name.slice(0, 2 + (i % 4)))}`, 1]);
  if (i % 4 === 0) requests.push([`/api/v1/qibla?city=${city}`, 1]);
  if (i % 4 === 1) requests.push([`/api/v1/times?city=${city}`, 2]);
});
const lua = (text: string) => JSON.stringify(text); // a JSON string is a valid Lua string for these characters
const script = path.join(mkdtempSync(path.join(tmpdir(), 'prayer-times-load-')), 'mix.lua');
writeFileSync(
  script,
  `local paths = {\n${requests.map(([p, k]) => `  {${lua(p)}, ${k}},`).join('\n')}\n}
local keys = { ${lua(key)}, ${lua(trialKey)} }
local prepared = {}
local n = 0
counts = {}
function init(args)
  for i, p in ipairs(paths) do prepared[i] = wrk.format("GET", p[1], { ["X-API-Key"] = keys[p[2]] }) end
end
function request()
  n = n % #prepared + 1
  return prepared[n]
end
function response(status, headers, body)
  local k = (headers["RateLimit-Limit"] or "none") .. " " .. status
  counts[k] = (counts[k] or 0) + 1
end
local threads = {}
function setup(thread) table.insert(threads, thread) end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do io.write("COUNT\\t" .. k .. "\\t" .. v .. "\\n") end
  end
end
`,
);

const pid = server.process.pid!;
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const openFds = () => readdirSync(`/proc/${pid}/fd`).length;
const samples: Array<{ at: number; rssMb: number; fds: number }> = [];
const sample = (at: number) => samples.push({ at, rssMb: rssMb(), fds: openFds() });

sample(0);
const started = Date.now();
const running = startWrk(`${server.baseUrl}/`, { connections: CONNECTIONS, seconds: SECONDS, script });
const sampler = setInterval(() => sample(Math.round((Date.now() - started) / 1000)), SAMPLE_SECONDS * 1000);
let result;
try {
  result = await running;
} finally {
  clearInterval(sampler);
}
const end = samples[samples.length - 1]; // the last sample under load
// A moment after wrk has closed its connections, the server's descriptors are back where they were before the load.
await new Promise((r) => setTimeout(r, 1000));
const after = { rssMb: rssMb(), fds: openFds() };
await server.stop();

const counts = new Map<string, number>();
for (const [, k, v] of result.output.matchAll(/^COUNT\t(.+)\t(\d+)$/gm)) counts.set(k, (counts.get(k) ?? 0) + Number(v));
const total = [...counts.values()].reduce((a, b) => a + b, 0);
const ok = counts.get('1000000000 200') ?? 0;
const trialOk = counts.get('10 200') ?? 0;
const trialRefused = counts.get('10 429') ?? 0;
const unexpected = [...counts].filter(([k]) => !['1000000000 200', '10 200', '10 429'].includes(k));
const start = samples.find((s) => s.at >= WARM_UP_SECONDS)!;
const failures: string[] = [];
if (result.errors) failures.push(`${result.errors} socket errors`);
if (unexpected.length) failures.push(`unexpected answers: ${unexpected.map(([k, v]) => `${v} × "${k}"`).join(', ')}`);
// The trial key's window is a fixed minute: the run spans at most ceil(SECONDS / 60) + 1 of them.
if (trialOk > 10 * (Math.ceil(SECONDS / 60) + 1)) failures.push(`the trial key got ${trialOk} answers, more than its limit allows`);
if (end.rssMb > start.rssMb * (1 + RSS_TOLERANCE.ratio) + RSS_TOLERANCE.mb) failures.push(`resident memory grew from ${start.rssMb.toFixed(0)} to ${end.rssMb.toFixed(0)} MB`);
if (Math.abs(end.fds - start.fds) > FD_TOLERANCE) failures.push(`open file descriptors went from ${start.fds} to ${end.fds}`);
if (Math.abs(after.fds - samples[0].fds) > FD_TOLERANCE) failures.push(`${after.fds} descriptors open after the load, ${samples[0].fds} before`);

console.log(
  `\nLoad test: ${SECONDS} s, wrk 1 thread, ${CONNECTIONS} connections, ${requests.length} distinct requests over ${PLACES} places, ` +
    `server with ${WORKERS} serving thread(s), ${cpus().length} cores (${cpus()[0].model}), Node ${process.version}\n` +
    `| requests | req/s | p50 ms | p99 ms | 200 | intended 429 (trial key) | trial 200 | other | socket errors |\n|---|---|---|---|---|---|---|---|---|\n` +
    `| ${total} | ${result.requestsPerSecond.toFixed(0)} | ${result.p50ms.toFixed(2)} | ${result.p99ms.toFixed(2)} | ${ok} | ${trialRefused} | ${trialOk} | ${unexpected.reduce((n, [, v]) => n + v, 0)} | ${result.errors} |\n\n` +
    `| second | RSS MB | open fds |\n|---|---|---|\n${samples.map((s) => `| ${s.at} | ${s.rssMb.toFixed(0)} | ${s.fds} |`).join('\n')}\n` +
    `\nunder load, start (after ${WARM_UP_SECONDS} s warm-up) → end: RSS ${start.rssMb.toFixed(0)} → ${end.rssMb.toFixed(0)} MB, open fds ${start.fds} → ${end.fds}; ` +
    `a second after the load: RSS ${after.rssMb.toFixed(0)} MB, open fds ${after.fds} (${samples[0].fds} before it)\n` +
    (failures.length ? `FAILED: ${failures.join('; ')}` : 'PASSED: no errors but the intended 429s; memory and descriptors flat'),
);
process.exit(failures.length ? 1 : 0);
