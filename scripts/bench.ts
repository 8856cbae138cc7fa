// `make bench`: a fresh server, every endpoint through the whole path (key, quota, parameters, answer) at 64
// connections, beside this machine's ceiling for the stack measured in the same run. One table.
// Usage: npm run bench   (DATA_DIR must hold a catalog; installs wrk when missing)
import { spawn } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readCatalog } from '../pipeline/catalog/catalogFile.js';
import { precompute } from '../pipeline/precompute.js';
import { loadConfig } from '../server/config.js';
import { dataDirWithCatalog, startServerWithKey } from '../server/serverProcess.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;

ensureWrk();
const { dataDir } = loadConfig();
if (!readCatalog(dataDir)) {
  console.error(`No catalog under ${dataDir}; build it first: npm run cli -- catalog build`);
  process.exit(1);
}
const today = new Date();
const year = today.getUTCFullYear();
const date = today.toISOString().slice(0, 10);
const dir = dataDirWithCatalog(dataDir);
// The benchmarked city is precomputed, as every catalog city is after `make precompute`.
await precompute({ dataDir: dir, years: [year, year + 1], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
const { server, key } = await startServerWithKey({ DATA_DIR: dir, LOG_LEVEL: 'warn' });

const endpoints: Array<[string, string]> = [
  ['/times by city (lookup)', `/api/v1/times?city=istanbul&date=${date}`],
  ['/month by city (lookup)', `/api/v1/month?city=istanbul&year=${year}&month=${today.getUTCMonth() + 1}`],
  ['/next by city', '/api/v1/next?city=istanbul'],
  ['/times by lat/lon (live)', `/api/v1/times?lat=41.0082&lon=28.9784&date=${date}`],
  ['/cities', '/api/v1/cities?q=ist'],
  ['/qibla', '/api/v1/qibla?city=istanbul'],
];
const timesBytes = (await (await fetch(server.baseUrl + endpoints[0][1], { headers: { 'X-API-Key': key } })).text()).length;

const ceiling = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./ceilingServer.ts', import.meta.url)), '0', String(timesBytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
const ceilingPort = await new Promise<number>((resolve) => ceiling.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).port)));

const rows: string[] = [];
const row = (name: string, rps: number, p50: number, p99: number, share: string) =>
  `| ${name.padEnd(26)} | ${rps.toFixed(0).padStart(8)} | ${p50.toFixed(2).padStart(7)} | ${p99.toFixed(2).padStart(7)} | ${share.padStart(11)} |`;
try {
  const ceilingResult = runWrk(`http://127.0.0.1:${ceilingPort}/`, { connections: CONNECTIONS, seconds: SECONDS });
  rows.push(row(`ceiling (${timesBytes} B constant)`, ceilingResult.requestsPerSecond, ceilingResult.p50ms, ceilingResult.p99ms, '100%'));
  for (const [name, url] of endpoints) {
    runWrk(server.baseUrl + url, { connections: CONNECTIONS, seconds: 2, headers: { 'X-API-Key': key } });
    const r = runWrk(server.baseUrl + url, { connections: CONNECTIONS, seconds: SECONDS, headers: { 'X-API-Key': key } });
    if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx responses, ${r.errors} socket errors`);
    rows.push(row(name, r.requestsPerSecond, r.p50ms, r.p99ms, `${((100 * r.requestsPerSecond) / ceilingResult.requestsPerSecond).toFixed(0)}%`));
  }
} finally {
  ceiling.kill();
  await server.stop();
}
console.log(
  `\nwrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s each, valid key (business plan, limits raised), ${cpus().length} cores (${cpus()[0].model}), Node ${process.version}\n` +
    `| endpoint                   |    req/s | p50 ms  | p99 ms  | of ceiling  |\n|---|---|---|---|---|\n${rows.join('\n')}`,
);
