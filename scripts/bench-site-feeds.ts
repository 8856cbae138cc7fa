// Server time of a place's calendar feed (.ics, 12 months, about 2,190 events) and of a sitemap chunk: the site's
// handlers as the server runs them (the API's operations by name, the iCalendar and XML writers), in process,
// without the network or the page cache. Feeds are computed live (no store), the slow path; a stored year is faster.
// Usage: node --import tsx scripts/bench-site-feeds.ts   (DATA_DIR must hold a catalog: npm run cli -- catalog build)
import { answerOperation } from '../server/api/operations.js';
import { loadPlans } from '../server/accounts/plans.js';
import { dataDirFrom } from '../server/process/config.js';
import { PlaceCatalog } from '../server/places/placeCatalog.js';
import { calendarFeeds } from '../server/site/calendarFeed.js';
import type { SiteContext } from '../server/site/siteContext.js';
import { pageQuery, type SiteRequest } from '../server/site/sitePage.js';
import { sitemaps } from '../server/site/sitemaps.js';

const BASE = 'https://prayer-times.example';
const catalog = PlaceCatalog.load(dataDirFrom(), { publicBaseUrl: () => BASE });
if (!catalog) {
  console.error('No catalog under DATA_DIR; build it first: npm run cli -- catalog build');
  process.exit(1);
}
const ctx: SiteContext = {
  catalog,
  plans: loadPlans(undefined),
  data: {
    answer: (operationId, query, now) => answerOperation(operationId, query, { now, catalog, store: undefined }),
    openApi: () => ({}),
  },
};
const request = (path: string): SiteRequest => {
  const [p, q = ''] = path.split('?');
  return { path: p, query: pageQuery(q), now: Date.now(), base: BASE };
};

function time(label: string, paths: readonly string[], rounds: number, handler: typeof calendarFeeds): void {
  for (const path of paths.slice(0, 3)) handler(request(path), ctx); // warm up
  const ms: number[] = [];
  let bytes = 0;
  for (let r = 0; r < rounds; r++) {
    for (const path of paths) {
      const started = performance.now();
      const page = handler(request(path), ctx)!;
      ms.push(performance.now() - started);
      bytes += Buffer.byteLength(typeof page.body === 'string' ? page.body : page.body.text);
    }
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  console.log(`${label}: ${ms.length} renders, median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms, ${(bytes / ms.length / 1024).toFixed(0)} KB each`);
}

const feeds = ['turkey/istanbul/kadikoy', 'germany/state-of-berlin/berlin', 'norway/all/tromso', 'australia/new-south-wales/sydney', 'united-states/new-york/new-york-city']
  .filter((p) => catalog.byPath(p))
  .flatMap((p) => [`/en/prayer-times/${p}.ics`, `/tr/namaz-vakitleri/${p}.ics?madhab=hanafi`]);
const sampled = catalog.places.filter((_, i) => i % 9973 === 0).map((p) => `/en/prayer-times/${p.path}.ics`);
time('feed (.ics)', [...feeds, ...sampled], 3, calendarFeeds);
const index = sitemaps(request('/sitemap.xml'), ctx)!;
const names = [...String(index.body).matchAll(/sitemaps\/([a-z0-9-]+)\.xml/g)].map((m) => `/sitemaps/${m[1]}.xml`);
time('sitemap chunk', names, 2, sitemaps);
