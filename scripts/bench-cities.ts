// Server time of /api/v1/cities for 2-, 3- and 6-letter queries, and for names with a typo (one edit, and two in
// names of 8 letters or more): the whole route as the server runs it (parameter validation, search, Location
// objects, JSON), in process, without the network.
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
// In 32-bit integers: in doubles the product loses its low bits and the sequence falls into a cycle after some
// 14,000 draws (later queries were then repeats, answered from the kept answers).
let seed = 7;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 2 ** 31;
function queries(length: number): string[] {
  const out: string[] = [];
  while (out.length < QUERIES_PER_LENGTH) {
    const prefix = catalog!.places[Math.floor(random() * catalog!.places.length)].name.slice(0, length);
    // Letters only (no spaces or marks), so the query has exactly `length` letters.
    if (prefix.length === length && /^\p{L}+$/u.test(prefix) && foldName(prefix).length === length) out.push(prefix);
  }
  return out;
}

/** Real place names (letters and spaces, at least `shortest` letters) with `edits` random edits, none of them a name. */
function typos(edits: 1 | 2, shortest: number): string[] {
  const out: string[] = [];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const letter = () => letters[Math.floor(random() * letters.length)];
  while (out.length < QUERIES_PER_LENGTH) {
    let q = foldName(catalog!.places[Math.floor(random() * catalog!.places.length)].name);
    if (!/^[a-z ]+$/.test(q) || q.length < shortest) continue;
    for (let e = 0; e < edits; e++) {
      const at = 1 + Math.floor(random() * (q.length - 2));
      const kind = Math.floor(random() * 4);
      q = kind === 0 ? q.slice(0, at) + q.slice(at + 1) : kind === 1 ? q.slice(0, at) + letter() + q.slice(at) : kind === 2 ? q.slice(0, at) + letter() + q.slice(at + 1) : q.slice(0, at) + q[at + 1] + q[at] + q.slice(at + 2);
    }
    if (catalog!.find(q, 1).length === 0) out.push(q);
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
console.log('query               p50 µs   p99 µs   max µs   mean results   distinct queries');
const rows: Array<[string, () => string[]]> = [
  ['2 letters', () => queries(2)],
  ['3 letters', () => queries(3)],
  ['6 letters', () => queries(6)],
  ['a typo', () => typos(1, 4)],
  ['two typos, 8+', () => typos(2, 8)],
];
for (const [label, make] of rows) {
  const list = make();
  // Warmed up on other queries of the kind: /cities keeps its answers, so a measured query asked in the warm-up would
  // be measured as a kept answer.
  const asked = new Set(list);
  for (const q of make().filter((q) => !asked.has(q)).slice(0, WARM_UP)) serve(q);
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
    `${label.padEnd(17)}  ${percentile(times, 50).toFixed(1).padStart(7)}  ${percentile(times, 99).toFixed(1).padStart(7)}  ${times[times.length - 1].toFixed(0).padStart(7)}   ${(results / list.length).toFixed(1).padStart(12)}   ${asked.size}`,
  );
}
