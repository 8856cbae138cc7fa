// /sitemap.xml, an index of the sitemaps under /sitemaps/{name}.xml: `pages-N` holds the fixed pages (/, /tr, /en,
// the docs, pricing) and the index page of every country and region, `places-N` every place page, each place in both
// languages with its hreflang alternates (tr, en, and x-default = English, as the pages' own <head> says), and
// `ramadan-N` every place's Ramadan timetable the same way (chunks of their own: the place chunks keep their URLs).
//
// The protocol allows 50,000 URLs a sitemap; ours hold 10,000 (5,000 places in two languages, about 4 MB): a chunk is
// rendered on request and not kept (place pages should keep the page cache), so what one request costs in memory
// and time is what one chunk costs, and a crawler's fetch of every chunk must not push 150 MB through the cache.
import { ApiError } from '../errors.js';
import {
  API_REFERENCE_PATH,
  AUTHENTICATION_DOCS_PATH,
  CHOOSER_PATH,
  DOCS_PATH,
  ERRORS_DOCS_PATH,
  LANGUAGE_HOME_PATH,
  MCP_DOCS_PATH,
  placePagePath,
  PRICING_PATH,
  ramadanPagePath,
  SITEMAP_INDEX_PATH,
  SITEMAPS_PREFIX,
} from '../links.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { directoryOf } from '../places/placeDirectory.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';

/** The sitemaps protocol's limit per sitemap. */
export const PROTOCOL_MAX_URLS = 50_000;
/** Ours: see above. */
export const URLS_PER_SITEMAP = 10_000;
export const XML_TYPE = 'application/xml; charset=utf-8';
/** The index is small and changes with the catalog only: kept an hour. Chunks are not kept (maxAge 0, ETag). */
const INDEX_VALID_MS = 3_600_000;

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** One page, or one page in both languages (two <url>s, each naming both). */
type Entry = string | { tr: string; en: string };

interface SitemapPlan {
  /** The fixed and index pages. */
  pages: readonly Entry[];
  /** Place pages in the directory's order (country, region, place by name): catalog indices. */
  places: Int32Array;
  /** A place's site path, by catalog index. */
  pathOf: (i: number) => string;
  /** How many of `pages` are the fixed ones (first): they say no lastmod, the index pages the catalog's. */
  fixedPages: number;
  names: readonly string[];
  lastmod: string;
}

const urlsOf = (entry: Entry): number => (typeof entry === 'string' ? 1 : 2);

/** How the entries are cut: consecutive runs of at most URLS_PER_SITEMAP URLs, a pair never split. */
function chunkStarts(entries: readonly Entry[]): number[] {
  const starts: number[] = [];
  let urls = URLS_PER_SITEMAP;
  entries.forEach((entry, i) => {
    if (urls + urlsOf(entry) > URLS_PER_SITEMAP) {
      starts.push(i);
      urls = 0;
    }
    urls += urlsOf(entry);
  });
  return starts;
}

const plans = new WeakMap<PlaceCatalog, SitemapPlan & { pageStarts: number[] }>();

function planOf(catalog: PlaceCatalog): SitemapPlan & { pageStarts: number[] } {
  let plan = plans.get(catalog);
  if (plan) return plan;
  const directory = directoryOf(catalog);
  const both = (sitePath: string): Entry => ({ tr: placePagePath('tr', sitePath), en: placePagePath('en', sitePath) });
  const pages: Entry[] = [
    CHOOSER_PATH,
    { tr: LANGUAGE_HOME_PATH.tr, en: LANGUAGE_HOME_PATH.en },
    DOCS_PATH,
    API_REFERENCE_PATH,
    ERRORS_DOCS_PATH,
    AUTHENTICATION_DOCS_PATH,
    MCP_DOCS_PATH,
    PRICING_PATH,
  ];
  const fixedPages = pages.length;
  const order: number[] = [];
  for (const country of directory.countries) {
    pages.push(both(country.path));
    for (const region of country.regions) {
      pages.push(both(region.path));
      for (const i of region.indices) order.push(i);
    }
  }
  const places = Int32Array.from(order);
  const pageStarts = chunkStarts(pages);
  const placeChunks = Math.ceil(places.length / (URLS_PER_SITEMAP / 2));
  const names = [
    ...pageStarts.map((_, i) => `pages-${i + 1}`),
    ...Array.from({ length: placeChunks }, (_, i) => `places-${i + 1}`),
    ...Array.from({ length: placeChunks }, (_, i) => `ramadan-${i + 1}`),
  ];
  plan = { pages, places, pathOf: (i) => catalog.tables.path(i), fixedPages, names, pageStarts, lastmod: catalog.builtAt.slice(0, 10) };
  plans.set(catalog, plan);
  return plan;
}

const sitemapUrl = (base: string, name: string): string => `${base}${SITEMAPS_PREFIX}/${name}.xml`;

function indexXml(base: string, plan: SitemapPlan): string {
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  for (const name of plan.names) out += `<sitemap><loc>${escapeXml(sitemapUrl(base, name))}</loc><lastmod>${plan.lastmod}</lastmod></sitemap>\n`;
  return `${out}</sitemapindex>\n`;
}

const URLSET_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';
const URLSET_CLOSE = '</urlset>\n';

/** The <url>s of an entry: a single page, or one per language, each with the alternates (x-default: English). */
function entryXml(base: string, entry: Entry, lastmod: string | undefined): string {
  const mod = lastmod ? `<lastmod>${lastmod}</lastmod>` : '';
  if (typeof entry === 'string') return `<url><loc>${escapeXml(base + entry)}</loc>${mod}</url>\n`;
  const tr = escapeXml(base + entry.tr);
  const en = escapeXml(base + entry.en);
  const alternates = `<xhtml:link rel="alternate" hreflang="tr" href="${tr}"/><xhtml:link rel="alternate" hreflang="en" href="${en}"/><xhtml:link rel="alternate" hreflang="x-default" href="${en}"/>`;
  return `<url><loc>${tr}</loc>${mod}${alternates}</url>\n<url><loc>${en}</loc>${mod}${alternates}</url>\n`;
}

function pagesXml(base: string, plan: SitemapPlan & { pageStarts: number[] }, chunk: number): string {
  const from = plan.pageStarts[chunk];
  const to = plan.pageStarts[chunk + 1] ?? plan.pages.length;
  const parts = [URLSET_OPEN];
  for (let i = from; i < to; i++) parts.push(entryXml(base, plan.pages[i], i < plan.fixedPages ? undefined : plan.lastmod));
  parts.push(URLSET_CLOSE);
  return parts.join('');
}

/** A chunk of places' pages of one kind: their place pages, or their Ramadan timetables. */
function placesXml(base: string, plan: SitemapPlan, chunk: number, pagePath: (language: 'tr' | 'en', placePath: string) => string): string {
  const perChunk = URLS_PER_SITEMAP / 2;
  const parts = [URLSET_OPEN];
  const end = Math.min(plan.places.length, (chunk + 1) * perChunk);
  for (let i = chunk * perChunk; i < end; i++) {
    const path = plan.pathOf(plan.places[i]);
    parts.push(entryXml(base, { tr: pagePath('tr', path), en: pagePath('en', path) }, plan.lastmod));
  }
  parts.push(URLSET_CLOSE);
  return parts.join('');
}

const SITEMAP_NAME = new RegExp(`^${SITEMAPS_PREFIX}/(pages|places|ramadan)-([1-9][0-9]{0,5})\\.xml$`);

export function sitemaps(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  const isIndex = request.path === SITEMAP_INDEX_PATH;
  const match = isIndex ? undefined : SITEMAP_NAME.exec(request.path);
  if (!isIndex && !match) return undefined;
  const catalog = ctx.catalog;
  if (!catalog) throw new ApiError('service_unavailable', 'The place catalog has not been built yet; try again in a minute.');
  const plan = planOf(catalog);
  if (isIndex) return { status: 200, body: indexXml(request.base, plan), contentType: XML_TYPE, validUntil: request.now + INDEX_VALID_MS };
  const [, kind, number] = match!;
  const chunk = Number(number) - 1;
  if (!plan.names.includes(`${kind}-${number}`)) return undefined;
  const body = kind === 'pages' ? pagesXml(request.base, plan, chunk) : placesXml(request.base, plan, chunk, kind === 'places' ? placePagePath : ramadanPagePath);
  return { status: 200, body, contentType: XML_TYPE, maxAgeSeconds: 0 };
}
