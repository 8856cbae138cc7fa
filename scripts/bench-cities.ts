// Server time of /api/v1/cities for 2-, 3- and 6-letter queries: the whole route as the server runs it
// (parameter validation, search, Location objects, JSON), in process, without the network.
// Usage: npm run bench:cities   (DATA_DIR must hold a catalog: npm run cli -- catalog build)
import { dataDirFrom } from '../server/process/config.js';
import { parseQuery, validateParams } from '../server/api/params.js';
import { PlaceCatalog } from '../server/places/placeCatalog.js';
import { ROUTES_BY_PATH } from '../server/api/routes.js';
import { foldName } from '../pipeline/catalog/textFold.js';
import { RenderedBody } from '../server/timetables/renderedResponses.js';

const QUERIES_PER_LENGTH = 5000;
const WARM_UP = 1000;

const dataDir = dataDirFrom();
const loadStarted = performance.now();
const catalog = PlaceCatalog.load(dataDir, { publicBaseUrl: () => 'http://localhost:8080' });
if (!catalog) {
  console.error(`No catalog under ${dataDir}; build it first: npm run cli -- catalog build`);
  process.exit(1);
}
const loadMs = performance.now() - loadStarted;
const route = ROUTES_BY_PATH.get('/api/v1/cities')!;

// Queries people type: prefixes of real place names, places drawn uniformly (a fixed seed, so runs compare).
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
function queries(length: number): string[] {
  const out: string[] = [];
  while (out.length < QUERIES_PER_LENGTH) {
    const prefix = catalog!.places[Math.floor(random() * catalog!.places.length)].name.slice(0, length);
    // Letters only (no spaces or marks), so the query has exactly `length` letters.
    if (prefix.length === length && /^\p{L}+$/u.test(prefix) && foldName(prefix).length === length) out.push(prefix);
  }
  return out;
}

function serve(q: string): string {
  const params = validateParams(route.params, parseQuery(`q=${encodeURIComponent(q)}`));
  const result = route.handle(params, { now: Date.now(), catalog, store: undefined });
  return result instanceof RenderedBody ? result.json : JSON.stringify(result);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

console.log(`catalog: ${catalog.places.length} places, loaded in ${loadMs.toFixed(0)} ms; ${QUERIES_PER_LENGTH} queries per length, limit 10`);
console.log('letters   p50 µs   p99 µs   max µs   mean results');
for (const length of [2, 3, 6]) {
  const list = queries(length);
  for (const q of list.slice(0, WARM_UP)) serve(q);
  const times: number[] = [];
  let results = 0;
  for (const q of list) {
    const started = process.hrtime.bigint();
    const body = serve(q);
    times.push(Number(process.hrtime.bigint() - started) / 1000);
    results += (JSON.parse(body).cities as unknown[]).length;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${String(length).padStart(7)}  ${percentile(times, 50).toFixed(1).padStart(7)}  ${percentile(times, 99).toFixed(1).padStart(7)}  ${times[times.length - 1].toFixed(0).padStart(7)}   ${(results / list.length).toFixed(1)}`,
  );
}
