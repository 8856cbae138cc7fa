// The requests the metrics tell apart: a fixed table of (surface, operation), numbered once, so that a label never
// carries a path, a key, an address or a place (a bounded set of series, whatever clients send). The edge calls
// `countAnswered` (its `answered` hook) once per answer with the surface's index in serve.ts's list; the operation is
// found from the path without allocating (a Map lookup, a few prefix tests) and counted in this thread's cells
// (threadCounters.ts).
import type { EdgeRequest, Reply } from '../edge/edge.js';
import { ROUTES } from '../api/routes.js';
import { HEALTH_PATH, READY_PATH } from '../api/apiSurface.js';
import { WEBHOOKS_PREFIX } from '../dashboard/dashboardPaths.js';
import { ASSETS_PREFIX, CALENDAR_SUFFIX, DOCS_PATH, NEAR_PATH, OPENAPI_PATH, ROBOTS_PATH, SEARCH_PATH, SITEMAP_INDEX_PATH, SITEMAPS_PREFIX } from '../links.js';
import { countRefusal, countRequest, MAX_OPERATIONS, REFUSAL_CODES } from '../threadCounters.js';

/** The surfaces in the order serve.ts hands them to the edge: the edge names a surface by this index. */
export const SURFACES = ['mcp', 'api', 'site', 'dashboard'] as const;
export type SurfaceName = (typeof SURFACES)[number];

/** Every (surface, operation) the metrics count, numbered by position. */
export const REQUEST_KINDS: ReadonlyArray<{ surface: SurfaceName; operation: string }> = [
  { surface: 'mcp', operation: 'mcp' },
  // The API's operations by their operationId (the OpenAPI document's, the MCP tools' names).
  ...ROUTES.map((route) => ({ surface: 'api' as const, operation: route.operationId })),
  { surface: 'api', operation: 'openapi' },
  { surface: 'api', operation: 'healthz' },
  { surface: 'api', operation: 'readyz' },
  // Any other path the API's catch-all answers: unknown /api/ paths and every path no surface serves (404).
  { surface: 'api', operation: 'other' },
  { surface: 'site', operation: 'page' },
  { surface: 'site', operation: 'search' },
  { surface: 'site', operation: 'near' },
  { surface: 'site', operation: 'calendar' },
  { surface: 'site', operation: 'docs' },
  { surface: 'site', operation: 'sitemap' },
  { surface: 'site', operation: 'asset' },
  { surface: 'dashboard', operation: 'page' },
  { surface: 'dashboard', operation: 'form' },
  { surface: 'dashboard', operation: 'webhook' },
];
if (REQUEST_KINDS.length > MAX_OPERATIONS) throw new Error(`REQUEST_KINDS holds ${REQUEST_KINDS.length} kinds; threadCounters.ts has room for ${MAX_OPERATIONS}`);

const kind = (surface: SurfaceName, operation: string): number => REQUEST_KINDS.findIndex((k) => k.surface === surface && k.operation === operation);

const MCP = kind('mcp', 'mcp');
const API_PATHS: ReadonlyMap<string, number> = new Map([
  ...ROUTES.map((route) => [route.path, kind('api', route.operationId)] as const),
  [OPENAPI_PATH, kind('api', 'openapi')],
  [HEALTH_PATH, kind('api', 'healthz')],
  [READY_PATH, kind('api', 'readyz')],
]);
const API_OTHER = kind('api', 'other');
const SITE = {
  page: kind('site', 'page'),
  search: kind('site', 'search'),
  near: kind('site', 'near'),
  calendar: kind('site', 'calendar'),
  docs: kind('site', 'docs'),
  sitemap: kind('site', 'sitemap'),
  asset: kind('site', 'asset'),
};
const SEARCH_PATHS = new Set(Object.values(SEARCH_PATH));
const NEAR_PATHS = new Set(Object.values(NEAR_PATH));
const DASHBOARD = { page: kind('dashboard', 'page'), form: kind('dashboard', 'form'), webhook: kind('dashboard', 'webhook') };
const SURFACE_API = SURFACES.indexOf('api');
const SURFACE_SITE = SURFACES.indexOf('site');
const SURFACE_DASHBOARD = SURFACES.indexOf('dashboard');

/** The kind of a request answered by surface number `surface` (SURFACES). */
export function requestKind(surface: number, method: string, url: string): number {
  if (surface === SURFACE_API) return API_PATHS.get(url) ?? API_OTHER;
  if (surface === SURFACE_SITE) {
    if (url.startsWith(ASSETS_PREFIX)) return SITE.asset;
    if (url.startsWith(DOCS_PATH)) return SITE.docs;
    if (url === SITEMAP_INDEX_PATH || url === ROBOTS_PATH || url.startsWith(SITEMAPS_PREFIX)) return SITE.sitemap;
    if (url.endsWith(CALENDAR_SUFFIX)) return SITE.calendar;
    if (SEARCH_PATHS.has(url)) return SITE.search;
    if (NEAR_PATHS.has(url)) return SITE.near;
    return SITE.page;
  }
  if (surface === SURFACE_DASHBOARD) {
    if (url.startsWith(WEBHOOKS_PREFIX)) return DASHBOARD.webhook;
    return method === 'get' || method === 'head' ? DASHBOARD.page : DASHBOARD.form;
  }
  return MCP;
}

/** The contract's refusal codes by name → their index in REFUSAL_CODES. */
const REFUSALS: ReadonlyMap<string, number> = new Map(REFUSAL_CODES.map((code, i) => [code, i]));

/**
 * The edge's `answered` hook: counts an answer (its kind, status class and latency) and, on the API and MCP, a key
 * refused (401, 403) or a limit reached (429: the minute's or the month's).
 */
export function countAnswered(surface: number, request: EdgeRequest, reply: Reply, seconds: number): void {
  countRequest(requestKind(surface, request.method, request.url), reply.status, seconds);
  const status = reply.status;
  if ((status === 401 || status === 403 || status === 429) && surface !== SURFACE_SITE && surface !== SURFACE_DASHBOARD && reply.code !== undefined) {
    const reason = REFUSALS.get(reply.code);
    if (reason !== undefined) countRefusal(reason);
  }
}
