// `make bench`: a fresh server, every endpoint through the whole path (key, quota, parameters, answer) at 64
// connections, beside this machine's ceiling for the stack measured in the same run: with one serving thread, then
// with one per core (the default), each beside a ceiling with as many threads. The site's place page is measured
// kept (the page cache answers) and rendered on every request (a second server with PAGE_CACHE_MB=0), beside a
// ceiling that answers a constant body of the page's size. The servers run as `make run` starts them: the default
// log level (info, a line per request), their stdout read and dropped all along as a terminal or log collector would
// take it (wrk runs in the background so that this process keeps reading). Besides the requests that can be kept, it
// measures what clients mostly send: today's times and the next prayer by city with no date, and a new point on every
// request (scripts/wrk/newPoint.lua: near one of the 60 largest places, or anywhere on the globe) for /times and
// /month. Each row is set against the ceiling for a body of its own size: the /times body's, or the month's. The
// kept place page is measured compressed too (wrk asking for brotli, as browsers do), beside a ceiling answering the
// very bytes it sends.
// Usage: npm run bench   (DATA_DIR must hold a catalog; installs wrk when missing)
//   BENCH_SECONDS=3 BENCH_ONLY=pages npm run bench   measures the place page's rows alone, quickly
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompute } from '../pipeline/precompute/precompute.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../testing/serverProcess.js';
import { requireCatalog } from './lib/catalog.js';
import { ensureWrk, startWrk } from './lib/wrk.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** `pages`: only the place page's rows (a quick check of the site's path). */
const ONLY = process.env.BENCH_ONLY;
const CONNECTIONS = 64;

ensureWrk();
const { dataDir, catalog } = requireCatalog();
const today = new Date();
const year = today.getUTCFullYear();
const date = today.toISOString().slice(0, 10);
const dir = dataDirWithCatalog(dataDir);
// The benchmarked city is precomputed, as every catalog city is after `make precompute`.
await precompute({ dataDir: dir, years: [year, year + 1], methods: 'default', madhabs: 'default', scope: 'places:g745044' });

/** A path, or a new point on every request: the path's start (ending in ? or &) and where the points lie. */
type Request = string | { pointsAfter: string; near: boolean };

// The 60 largest places, for the points near places.
const placesFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-')), 'places.txt');
const largest = catalog.places.filter((p) => p.population).sort((a, b) => b.population! - a.population!).slice(0, 60);
writeFileSync(placesFile, largest.map((p) => `${p.latitude} ${p.longitude}\n`).join(''));
const NEW_POINT_SCRIPT = fileURLToPath(new URL('./wrk/newPoint.lua', import.meta.url));
const monthQuery = `year=${year}&month=${today.getUTCMonth() + 1}`;

/** Rows against the ceiling for the /times body's size. */
const endpoints: Array<[string, Request]> = [
  ['/times by city (lookup)', `/api/v1/times?city=istanbul&date=${date}`],
  ['/times by city, today', '/api/v1/times?city=istanbul'],
  ['/next by city', '/api/v1/next?city=istanbul'],
  ['/times by lat/lon (live)', `/api/v1/times?lat=41.0082&lon=28.9784&date=${date}`],
  ['/times new point near', { pointsAfter: '/api/v1/times?', near: true }],
  ['/times new point, globe', { pointsAfter: '/api/v1/times?', near: false }],
  ['/cities', '/api/v1/cities?q=ist'],
  ['/qibla', '/api/v1/qibla?city=istanbul'],
];
/** Rows against the ceiling for a month's body size. */
const monthEndpoints: Array<[string, Request]> = [
  ['/month by city (lookup)', `/api/v1/month?city=istanbul&${monthQuery}`],
  ['/month new point near', { pointsAfter: `/api/v1/month?${monthQuery}&`, near: true }],
  ['/month new point, globe', { pointsAfter: `/api/v1/month?${monthQuery}&`, near: false }],
];

/** wrk's target and options for a request: its URL, or the server with the new-point script. */
function wrkTarget(baseUrl: string, request: Request): [string, { script?: string; scriptArgs?: string[] }] {
  if (typeof request === 'string') return [baseUrl + request, {}];
  return [`${baseUrl}/`, { script: NEW_POINT_SCRIPT, scriptArgs: [request.pointsAfter, request.near ? 'near' : 'globe', placesFile] }];
}

/** An endpoint at 64 connections, after a short warm-up; every answer must be a 2xx. */
async function endpointRow(name: string, baseUrl: string, request: Request, key: string): Promise<Row> {
  const [url, script] = wrkTarget(baseUrl, request);
  const options = { connections: CONNECTIONS, headers: { 'X-API-Key': key }, ...script };
  await startWrk(url, { ...options, seconds: 2 });
  const r = await startWrk(url, { ...options, seconds: SECONDS });
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx responses, ${r.errors} socket errors`);
  return { name, rps: r.requestsPerSecond, p50: r.p50ms, p99: r.p99ms };
}

const PLACE_PAGE = '/en/prayer-times/turkey/istanbul/istanbul';

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  note?: string;
}

/** A server as `make run` starts it (the default log level), its stdout read and dropped rather than kept. */
async function startDefault(env: Record<string, string>): Promise<{ server: RunningServer; key: string }> {
  const started = await startServerWithKey({ DATA_DIR: dir, LOG_LEVEL: 'info', ...env });
  started.server.process.stdout!.removeAllListeners('data');
  started.server.process.stdout!.resume();
  return started;
}

/** The ceiling and every endpoint, with `threads` serving threads on each side. */
async function measure(threads: number): Promise<Row[]> {
  const { server, key } = await startDefault({ WORKERS: String(threads) });
  const rows: Row[] = [];
  let ceiling: ChildProcess | undefined;
  try {
    if (ONLY === 'pages') return await placePageRows(server.baseUrl, threads);
    const timesBytes = (await (await fetch(server.baseUrl + endpoints[0][1], { headers: { 'X-API-Key': key } })).text()).length;
    ceiling = spawn(process.execPath, [fileURLToPath(new URL('./ceilingServer.mjs', import.meta.url)), '0', String(timesBytes), String(threads)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const ceilingPort = await new Promise<number>((resolve) => ceiling!.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).port)));
    // This machine shares its cores with neighbours: the ceiling is measured before and after the endpoints, and the
    // better of the two is the one the endpoints are set against.
    const ceilingUrl = `http://127.0.0.1:${ceilingPort}/`;
    await startWrk(ceilingUrl, { connections: CONNECTIONS, seconds: 2 });
    const before = await startWrk(ceilingUrl, { connections: CONNECTIONS, seconds: SECONDS });
    for (const [name, request] of endpoints) rows.push(await endpointRow(name, server.baseUrl, request, key));
    const after = await startWrk(ceilingUrl, { connections: CONNECTIONS, seconds: SECONDS });
    const c = before.requestsPerSecond >= after.requestsPerSecond ? before : after;
    const other = c === before ? after : before;
    rows.unshift({ name: `ceiling (${timesBytes} B constant)`, rps: c.requestsPerSecond, p50: c.p50ms, p99: c.p99ms, note: `${other.requestsPerSecond.toFixed(0)} in its other run` });
    const monthBytes = (await (await fetch(server.baseUrl + monthEndpoints[0][1], { headers: { 'X-API-Key': key } })).text()).length;
    rows.push(await ceilingFor(monthBytes, threads, `ceiling (${monthBytes} B, month)`));
    for (const [name, request] of monthEndpoints) rows.push(await endpointRow(name, server.baseUrl, request, key));
    rows.push(...(await placePageRows(server.baseUrl, threads)));
  } finally {
    ceiling?.kill();
    await server.stop();
  }
  return rows;
}

/**
 * A ceiling of one body size, measured once (the API's ceiling is measured twice, around the endpoints); with `body`,
 * answering those bytes in that content coding.
 */
async function ceilingFor(bytes: number, threads: number, name: string, body?: { file: string; coding: string }): Promise<Row> {
  const args = [fileURLToPath(new URL('./ceilingServer.mjs', import.meta.url)), '0', String(bytes), String(threads), ...(body ? [body.file, body.coding] : [])];
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve) => server.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).port)));
    await startWrk(`http://127.0.0.1:${port}/`, { connections: CONNECTIONS, seconds: 2 });
    const r = await startWrk(`http://127.0.0.1:${port}/`, { connections: CONNECTIONS, seconds: SECONDS });
    return { name, rps: r.requestsPerSecond, p50: r.p50ms, p99: r.p99ms };
  } finally {
    server.kill();
  }
}

async function wrkRow(name: string, url: string, headers?: Record<string, string>): Promise<Row> {
  await startWrk(url, { connections: CONNECTIONS, seconds: 2, headers });
  const r = await startWrk(url, { connections: CONNECTIONS, seconds: SECONDS, headers });
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx responses, ${r.errors} socket errors`);
  return { name, rps: r.requestsPerSecond, p50: r.p50ms, p99: r.p99ms };
}

/** An answer's bytes as sent (compressed ones too), on a connection of its own (a kept-alive one may have timed out). */
function bodyOf(url: string, headers: Record<string, string> = {}): Promise<{ body: Buffer; coding: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ body: Buffer.concat(chunks), coding: response.headers['content-encoding'] }));
      })
      .on('error', reject);
  });
}

/**
 * The place page kept and rendered each time, beside the ceiling for a body of its size; and the kept page asked in
 * brotli, as browsers ask, beside a ceiling answering the same compressed bytes.
 */
async function placePageRows(baseUrl: string, threads: number): Promise<Row[]> {
  const bytes = (await bodyOf(baseUrl + PLACE_PAGE)).body.length;
  const ceilingRow = await ceilingFor(bytes, threads, `ceiling (${bytes} B, page size)`);
  const kept = await wrkRow('place page (kept)', baseUrl + PLACE_PAGE);
  const brotli = { 'Accept-Encoding': 'br' };
  const compressed = await bodyOf(baseUrl + PLACE_PAGE, brotli);
  if (compressed.coding !== 'br') throw new Error(`the place page came back in ${compressed.coding ?? 'no coding'}, not brotli`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'bench-')), 'page.br');
  writeFileSync(file, compressed.body);
  const ceilingBrotli = await ceilingFor(compressed.body.length, threads, `ceiling (${compressed.body.length} B, page br)`, { file, coding: 'br' });
  const keptBrotli = await wrkRow('place page (kept, br)', baseUrl + PLACE_PAGE, brotli);
  const { server } = await startDefault({ WORKERS: String(threads), PAGE_CACHE_MB: '0' });
  try {
    return [ceilingRow, kept, await wrkRow('place page (rendered)', server.baseUrl + PLACE_PAGE), ceilingBrotli, keptBrotli];
  } finally {
    await server.stop();
  }
}

const cores = availableParallelism();
const single = await measure(1);
const several = cores > 1 ? await measure(cores) : undefined;
/** Each row against its ceiling: the API's for the API rows, the page-size one for the page rows after it. */
const referenceOf = (rows: Row[], i: number): Row => rows.slice(0, i + 1).findLast((r) => r.name.startsWith('ceiling')) ?? rows[0];
const line = (r: Row, ceiling: Row, extra = '') =>
  `| ${r.name.padEnd(26)} | ${r.rps.toFixed(0).padStart(8)} | ${r.p50.toFixed(2).padStart(7)} | ${r.p99.toFixed(2).padStart(7)} | ${`${((100 * r.rps) / ceiling.rps).toFixed(0)}%`.padStart(11)} |${extra}`;
console.log(
  `\nwrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s each, valid key (business plan, limits raised), request log on (LOG_LEVEL=info, the default), ${cpus().length} cores (${cpus()[0].model}), Node ${process.version}\n` +
    `\nOne serving thread (WORKERS=1), beside a one-thread ceiling:\n` +
    `| endpoint                   |    req/s | p50 ms  | p99 ms  | of ceiling  |\n|---|---|---|---|---|\n${single.map((r, i) => line(r, referenceOf(single, i))).join('\n')}\n` +
    (several
      ? `\n${cores} serving threads (WORKERS=${cores}, the default here), beside a ${cores}-thread ceiling; gain over one thread:\n` +
        `| endpoint                   |    req/s | p50 ms  | p99 ms  | of ceiling  | gain  |\n|---|---|---|---|---|---|\n` +
        several.map((r, i) => line(r, referenceOf(several, i), ` ${`${(r.rps / single[i].rps).toFixed(2)}x`.padStart(5)} |`)).join('\n')
      : '') +
    (ONLY ? '' : `\n\nThe ceilings' other runs: ${[single, several].filter((t) => t).map((t) => `${t![0].note}`).join('; ')} req/s.`),
);
