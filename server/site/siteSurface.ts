// The public site as a surface of the edge: pages in Turkish and English, docs, pricing, sitemaps and the static
// assets. Every HTML answer gets the security headers; every answer an ETag (304 when it matches) and a
// Cache-Control; pages that hold for a while are kept rendered (pageCache.ts) and answered without rendering.
// Text answers go out compressed as Accept-Encoding asks (brotli, gzip: web/compression.ts; kept pages from 1 KB, each
// form made once and kept with the page), each form with its own ETag: the plain one's with the coding added
// (`"…-br"`). The homes and a place page are rendered before the thread takes requests (warm), so the first visitor
// waits no longer than the next.
import { largestPlaces } from '../places/placeDirectory.js';
import type { EdgeRequest, Reply, Surface } from '../edge/edge.js';
import { clipped, headerBlock } from '../edge/edge.js';
import { chosenCoding, formsFor, MIN_COMPRESSED_BYTES, MIN_COMPRESSED_ONCE_BYTES, VARY_ACCEPT_ENCODING, type CompressedForms, type ContentCoding } from '../web/compression.js';
import { ApiError } from '../errors.js';
import { ASSETS_PREFIX, CHOOSER_PATH, DOCS_PATH, EMBED_ROOT, LANGUAGE_HOME_PATH, placePagePath, PRICING_PATH, ROBOTS_PATH, SITE_LANGUAGES, SITEMAP_INDEX_PATH, SITEMAPS_PREFIX } from '../links.js';
import { log } from '../log.js';
import { ASSETS } from '../web/assets.js';
import { messagePage, notFoundPage } from './errorPages.js';
import { PageCache, type CachedPage } from './pageCache.js';
import { etagMatches, etagOf } from '../web/entityTags.js';
import { EMBEDDABLE_SECURITY_HEADER_LINES, HTML_TYPE, SECURITY_HEADER_LINES } from '../web/securityHeaders.js';
import type { SiteContext, SiteOptions } from './siteContext.js';
import { pageQuery, type SitePage, type SiteRequest } from './sitePage.js';
import { PAGE_PARAMETERS, SITE_HANDLERS } from './siteRoutes.js';
import { ROOT_FILES } from './webApp.js';

const SECURITY_HEADERS = headerBlock(SECURITY_HEADER_LINES);
const EMBEDDABLE_SECURITY_HEADERS = headerBlock(EMBEDDABLE_SECURITY_HEADER_LINES);

const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;
const YEAR_SECONDS = 365 * 86_400;
/** How long a redirect of a wrong-case path is kept, as the place pages' own redirects are. */
const REDIRECT_VALID_MS = 3_600_000;
const CAPITAL = /[A-Z]/;
const NO_QUERY: ReadonlyMap<string, string> = new Map();
const ASSET_PATHS = `${ASSETS_PREFIX}/`;

/** The ETag of a page's form in a coding: the plain one's with the coding added, so each form has its own. */
const etagFor = (etag: string, coding: ContentCoding | undefined): string => (coding ? `${etag.slice(0, -1)}-${coding}"` : etag);

/** The forms of a body in the order of their heads (CachedPage.heads): plain, brotli, gzip. */
const SLOTS: Readonly<Record<ContentCoding, number>> = { br: 1, gzip: 2 };

/** The coding a request takes of a body's forms (undefined: the plain body), kept pages' hot path: no allocation. */
function codingFor(forms: CompressedForms | undefined, acceptEncoding: string): ContentCoding | undefined {
  if (forms === undefined || acceptEncoding === '') return undefined;
  const coding = chosenCoding(acceptEncoding);
  return coding !== undefined && forms.form(coding) !== undefined ? coding : undefined;
}

/**
 * Every header of an answer but X-Request-Id, as (name, value) pairs: the security headers, the type, the form's
 * ETag, `Vary` for a body that has compressed forms, its coding, Cache-Control and a redirect's Location.
 */
function headLines(page: { contentType: string; location?: string; embeddable?: boolean }, etag: string, varies: boolean, coding: ContentCoding | undefined, cacheControl: string): Array<readonly [string, string]> {
  const security = page.embeddable ? EMBEDDABLE_SECURITY_HEADER_LINES : SECURITY_HEADER_LINES;
  const lines: Array<readonly [string, string]> = [...security, ['Content-Type', page.contentType], ['ETag', etag]];
  if (varies) lines.push(['Vary', VARY_ACCEPT_ENCODING]);
  if (coding) lines.push(['Content-Encoding', coding]);
  lines.push(['Cache-Control', cacheControl]);
  if (page.location) lines.push(['Location', page.location]);
  return lines;
}

/** The 304 for a form: its ETag, `Vary` and how long it holds (no body, no type, no coding). */
function notModified(etag: string, varies: boolean, cacheControl: string, embeddable = false): Reply {
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': cacheControl };
  if (varies) headers.Vary = VARY_ACCEPT_ENCODING;
  return { status: 304, body: '', headerBlock: embeddable ? EMBEDDABLE_SECURITY_HEADERS : SECURITY_HEADERS, headers };
}

const cacheControlFor = (maxAge: number): string => (maxAge === 0 ? 'no-cache' : `public, max-age=${maxAge}`);

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

  /**
   * A rendered page's answer to a request, in the form it takes. The head of each form (every header line as one
   * block) is kept with the page and made again only when the max-age it says changes, once a second: a kept page
   * is answered with three calls into uWS (status, head, request id) and its bytes.
   */
  function replyOf(cached: CachedPage, request: EdgeRequest, now: number): Reply {
    const maxAge = Math.min(YEAR_SECONDS, Math.max(0, Math.floor((cached.validUntil - now) / 1000)));
    const coding = codingFor(cached.forms, request.headers['accept-encoding']);
    const slot = coding === undefined ? 0 : SLOTS[coding];
    const heads = (cached.heads ??= []);
    let head = heads[slot];
    if (head === undefined || head.maxAge !== maxAge) {
      const etag = etagFor(cached.etag, coding);
      heads[slot] = head = { maxAge, etag, block: headerBlock(headLines(cached, etag, cached.forms !== undefined, coding, cacheControlFor(maxAge))) };
    }
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== '' && cached.status === 200 && etagMatches(ifNoneMatch, head.etag)) return notModified(head.etag, cached.forms !== undefined, cacheControlFor(maxAge), cached.embeddable);
    return { status: cached.status, body: coding === undefined ? cached.body : cached.forms!.form(coding)!, headerBlock: head.block };
  }

  function rendered(result: SitePage, now: number): CachedPage {
    const body = Buffer.from(typeof result.body === 'string' ? result.body : result.body.text);
    const contentType = result.contentType ?? HTML_TYPE;
    const validUntil = result.validUntil ?? now + (result.maxAgeSeconds ?? 0) * 1000;
    return {
      status: result.status,
      body,
      // A page kept is compressed once for all; one rendered for its request alone only when large enough.
      forms: formsFor(body, contentType, 'answer', validUntil > now ? MIN_COMPRESSED_BYTES : MIN_COMPRESSED_ONCE_BYTES),
      contentType,
      etag: etagOf(body),
      validUntil,
      validFrom: now,
      location: result.location,
      embeddable: result.embeddable,
    };
  }

  // The static files with their compressed forms (made at start-up with the best ratio) and the head of each form, by
  // path: the versioned assets (kept a year) and the app's files at fixed URLs (webApp.ts: kept as each says).
  const ASSET_CACHE_CONTROL = `public, max-age=${YEAR_SECONDS}, immutable`;
  const staticFile = (file: { body: Buffer; contentType: string }, cacheControl: string) => {
    const forms = formsFor(file.body, file.contentType, 'static');
    const etag = etagOf(file.body);
    const heads = ([undefined, 'br', 'gzip'] as const).map((coding) => {
      const form = coding && forms?.form(coding);
      const tagged = etagFor(etag, form ? coding : undefined);
      return { etag: tagged, block: headerBlock(headLines(file, tagged, forms !== undefined, form ? coding : undefined, cacheControl)) };
    });
    return { body: file.body, forms, heads, cacheControl };
  };
  const staticFiles = new Map([
    ...[...ASSETS].map(([name, asset]) => [`${ASSET_PATHS}${name}`, staticFile(asset, ASSET_CACHE_CONTROL)] as const),
    ...[...ROOT_FILES].map(([path, file]) => [path, staticFile(file, file.cacheControl)] as const),
  ]);

  function staticReply(request: EdgeRequest): Reply | undefined {
    const file = staticFiles.get(request.url);
    if (!file) return undefined;
    const coding = codingFor(file.forms, request.headers['accept-encoding']);
    const head = file.heads[coding === undefined ? 0 : SLOTS[coding]];
    if (etagMatches(request.headers['if-none-match'], head.etag)) return notModified(head.etag, file.forms !== undefined, file.cacheControl);
    return { status: 200, body: coding === undefined ? file.body : file.forms!.form(coding)!, headerBlock: head.block };
  }

  /** What the page modules answer for a path (the localized 404 when none does); may throw the API's errors. */
  function pageFor(siteRequest: SiteRequest): SitePage | undefined {
    const ctx: SiteContext = { catalog: options.state.catalog, data: options.data, plans: options.plans };
    for (const handler of SITE_HANDLERS) {
      const result = handler(siteRequest, ctx);
      if (result) return result;
    }
    return undefined;
  }

  /**
   * A wrong-case path (`/en/Prayer-Times/Turkey`, `/docs/API`) that no page answers: the 301 to its lower-case form
   * when that is a page (tried only on a miss: nothing is added to the pages' own path). Asset names keep their case
   * and are not tried.
   */
  function lowerCaseRedirect(request: EdgeRequest, siteRequest: SiteRequest): SitePage | undefined {
    if (!CAPITAL.test(request.url) || request.url.startsWith(ASSET_PATHS)) return undefined;
    const lowered = request.url.toLowerCase();
    const found = pageFor({ ...siteRequest, path: lowered });
    if (!found || found.status === 404) return undefined;
    // Straight to where the lower-case path sends for good; anything else it answers is its own to give.
    const location = found.status === 301 && found.location ? found.location : `${siteRequest.base}${lowered}${request.query === '' ? '' : `?${request.query}`}`;
    return { status: 301, body: '', location, validUntil: siteRequest.now + REDIRECT_VALID_MS };
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
      ...ROOT_FILES.keys(),
      EMBED_ROOT,
      `${EMBED_ROOT}/*`,
    ],
    headers: ['if-none-match', 'accept-encoding'],
    lowerCasePaths: 'first',
    answer,
    warm() {
      // The homes (the place directory and the largest places they list) and the largest place's page in both
      // languages (its renderer, the nearby places' index), in every coding, into this thread's page cache.
      const started = performance.now();
      const paths = [CHOOSER_PATH, ...SITE_LANGUAGES.map((language) => LANGUAGE_HOME_PATH[language])];
      const catalog = options.state.catalog;
      const largest = catalog && largestPlaces(catalog, 1)[0];
      if (largest) paths.push(...SITE_LANGUAGES.map((language) => placePagePath(language, largest.path)));
      for (const url of paths) {
        for (const coding of ['', 'br', 'gzip']) {
          answer({ method: 'get', url, query: '', headers: { 'if-none-match': '', 'accept-encoding': coding }, requestId: 'warm', clientAddress: '' });
        }
      }
      log('info', 'site_warmed', { pages: paths.length, ms: Math.round(performance.now() - started) });
    },
    failure(error, request) {
      log('error', 'site_failed', { requestId: request.requestId, path: clipped(request.url), error: String((error as Error)?.stack ?? error) });
      return { ...plainPage(500, `Something went wrong on our side (request ${request.requestId}); it has been logged.`), code: 'internal_error' };
    },
  };

  function answer(request: EdgeRequest): Reply {
    const now = options.now();
    const base = options.publicBaseUrl;
    if (request.method !== 'get' && request.method !== 'head') {
      const page = messagePage(base, request.url, 405, `${request.method.toUpperCase()} is not allowed here; pages answer GET and HEAD.`, { Allow: 'GET, HEAD' });
      const cached = rendered(page, now);
      const coding = codingFor(cached.forms, request.headers['accept-encoding']);
      const head = headLines(cached, etagFor(cached.etag, coding), cached.forms !== undefined, coding, 'no-store');
      return { status: 405, body: coding === undefined ? cached.body : cached.forms!.form(coding)!, headerBlock: headerBlock([...head, ['Allow', 'GET, HEAD']]) };
    }
    const file = staticReply(request);
    if (file) return file;
    if (base !== cachedBase) {
      cache.clear();
      cachedBase = base;
    }
    const query = request.query === '' ? NO_QUERY : pageQuery(request.query);
    const key = query.size === 0 ? request.url : cacheKey(request.url, query);
    const kept = cache.get(key, now);
    if (kept) return replyOf(kept, request, now);

    const siteRequest: SiteRequest = { path: request.url, query, now, base };
    let result: SitePage | undefined;
    try {
      result = pageFor(siteRequest) ?? lowerCaseRedirect(request, siteRequest);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 503) return plainPage(503, error.message);
      result = messagePage(base, request.url, 400, error.message);
    }
    const page = rendered(result ?? notFoundPage(base, request.url), now);
    if (page.validUntil > now) cache.keep(key, page);
    return replyOf(page, request, now);
  }
}
