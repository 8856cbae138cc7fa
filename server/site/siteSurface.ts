// The public site as a surface of the edge: pages in Turkish and English, docs, pricing, sitemaps and the static
// assets. Every HTML answer gets the security headers; every answer an ETag (304 when it matches) and a
// Cache-Control; pages that hold for a while are kept rendered (pageCache.ts) and answered without rendering.
import type { EdgeRequest, Reply, Surface } from '../edge/edge.js';
import { clipped, headerBlock } from '../edge/edge.js';
import { ApiError } from '../errors.js';
import { ASSETS_PREFIX, CHOOSER_PATH, DOCS_PATH, LANGUAGE_HOME_PATH, PRICING_PATH, ROBOTS_PATH, SITEMAP_INDEX_PATH, SITEMAPS_PREFIX } from '../links.js';
import { log } from '../log.js';
import { ASSETS } from '../web/assets.js';
import { messagePage, notFoundPage } from './errorPages.js';
import { PageCache, type CachedPage } from './pageCache.js';
import { etagMatches, etagOf } from '../web/entityTags.js';
import { HTML_TYPE, SECURITY_HEADER_LINES } from '../web/securityHeaders.js';
import type { SiteContext, SiteOptions } from './siteContext.js';
import { pageQuery, type SitePage, type SiteRequest } from './sitePage.js';
import { PAGE_PARAMETERS, SITE_HANDLERS } from './siteRoutes.js';

const SECURITY_HEADERS = headerBlock(SECURITY_HEADER_LINES);

const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;
const YEAR_SECONDS = 365 * 86_400;

const plainPage = (status: 500 | 503, text: string): Reply => ({
  status,
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status}</title></head><body><main><h1>${text}</h1></main></body></html>`,
  headerBlock: SECURITY_HEADERS,
  contentType: HTML_TYPE,
  headers: { 'Cache-Control': 'no-store' },
});

export function siteSurface(options: SiteOptions): Surface {
  const cache = new PageCache(options.pageCacheBytes ?? DEFAULT_PAGE_CACHE_BYTES);
  let cachedBase = options.publicBaseUrl;

  function cacheKey(path: string, query: ReadonlyMap<string, string>): string {
    let key = path;
    for (const name of PAGE_PARAMETERS) {
      const value = query.get(name);
      if (value !== undefined) key += `&${name}=${value}`;
    }
    return key;
  }

  function answer(cached: CachedPage, request: EdgeRequest, now: number): Reply {
    const maxAge = Math.max(0, Math.floor((cached.validUntil - now) / 1000));
    const headers: Record<string, string> = {
      ETag: cached.etag,
      'Cache-Control': maxAge === 0 ? 'no-cache' : `public, max-age=${Math.min(maxAge, YEAR_SECONDS)}`,
    };
    if (cached.location) headers.Location = cached.location;
    if (cached.status === 200 && etagMatches(request.headers['if-none-match'], cached.etag)) {
      return { status: 304, body: '', headerBlock: SECURITY_HEADERS, headers };
    }
    return { status: cached.status, body: cached.body, headerBlock: SECURITY_HEADERS, contentType: cached.contentType, headers };
  }

  function rendered(result: SitePage, now: number): CachedPage {
    const body = Buffer.from(typeof result.body === 'string' ? result.body : result.body.text);
    return {
      status: result.status,
      body,
      contentType: result.contentType ?? HTML_TYPE,
      etag: etagOf(body),
      validUntil: result.validUntil ?? now + (result.maxAgeSeconds ?? 0) * 1000,
      location: result.location,
    };
  }

  function assetReply(request: EdgeRequest): Reply | undefined {
    const name = request.url.slice(ASSETS_PREFIX.length + 1);
    const asset = ASSETS.get(name);
    if (!asset) return undefined;
    const etag = etagOf(asset.body);
    const headers = { ETag: etag, 'Cache-Control': `public, max-age=${YEAR_SECONDS}, immutable` };
    if (etagMatches(request.headers['if-none-match'], etag)) return { status: 304, body: '', headerBlock: SECURITY_HEADERS, headers };
    return { status: 200, body: asset.body, headerBlock: SECURITY_HEADERS, contentType: asset.contentType, headers };
  }

  return {
    patterns: [
      CHOOSER_PATH,
      ...Object.values(LANGUAGE_HOME_PATH).flatMap((home) => [home, `${home}/*`]),
      DOCS_PATH,
      `${DOCS_PATH}/*`,
      PRICING_PATH,
      ROBOTS_PATH,
      SITEMAP_INDEX_PATH,
      `${SITEMAPS_PREFIX}/*`,
      `${ASSETS_PREFIX}/*`,
    ],
    headers: ['if-none-match'],
    answer(request) {
      const now = options.now();
      const base = options.publicBaseUrl;
      if (request.method !== 'get' && request.method !== 'head') {
        const page = messagePage(base, request.url, 405, `${request.method.toUpperCase()} is not allowed here; pages answer GET and HEAD.`, { Allow: 'GET, HEAD' });
        return { ...answer(rendered(page, now), request, now), headers: { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' } };
      }
      if (request.url.startsWith(`${ASSETS_PREFIX}/`)) {
        const asset = assetReply(request);
        if (asset) return asset;
      }
      if (base !== cachedBase) {
        cache.clear();
        cachedBase = base;
      }
      const query = pageQuery(request.query);
      const key = cacheKey(request.url, query);
      const kept = cache.get(key, now);
      if (kept) return answer(kept, request, now);

      const siteRequest: SiteRequest = { path: request.url, query, now, base };
      const ctx: SiteContext = { catalog: options.state.catalog, data: options.data, plans: options.plans };
      let result: SitePage | undefined;
      try {
        for (const handler of SITE_HANDLERS) {
          result = handler(siteRequest, ctx);
          if (result) break;
        }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.status === 503) return plainPage(503, error.message);
        result = messagePage(base, request.url, 400, error.message);
      }
      const page = rendered(result ?? notFoundPage(base, request.url), now);
      if (page.validUntil > now) cache.keep(key, page);
      return answer(page, request, now);
    },
    failure(error, request) {
      log('error', 'site_failed', { requestId: request.requestId, path: clipped(request.url), error: String((error as Error)?.stack ?? error) });
      return { ...plainPage(500, `Something went wrong on our side (request ${request.requestId}); it has been logged.`), code: 'internal_error' };
    },
  };
}
