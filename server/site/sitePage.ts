// What a page of the site answers, before it goes on the wire (siteSurface.ts adds the headers, the ETag and the
// cache): each page module returns a SitePage, and the surface does the rest in one place.
import type { Html } from '../web/html.js';

export interface SitePage {
  status: 200 | 301 | 302 | 400 | 404 | 405 | 503;
  body: Html | string;
  /** `text/html; charset=utf-8` unless said otherwise. */
  contentType?: string;
  /**
   * Until when the answer holds (UTC ms): it is kept in the page cache until then and browsers may keep it as long.
   * Pages whose content changes with the clock (a place's day) set it; so do constant ones (docs: a day).
   */
  validUntil?: number;
  /** How long browsers and proxies may keep an answer without `validUntil` (seconds; 0: no-cache). */
  maxAgeSeconds?: number;
  /** Where a 301 or 302 goes. */
  location?: string;
  /** Extra headers (Allow). */
  headers?: Readonly<Record<string, string>>;
  /** Meant to be framed by any site (the widget): `frame-ancestors *` in place of `'none'` (securityHeaders.ts). */
  embeddable?: boolean;
}

/** A page's request, as the page modules see it. */
export interface SiteRequest {
  /** The path as sent (percent-encoded). */
  path: string;
  /** The query's parameters, the first of each name; tracking parameters and the like are simply not read. */
  query: ReadonlyMap<string, string>;
  /** The server's clock, UTC ms. */
  now: number;
  /** PUBLIC_BASE_URL, or the server's own address. */
  base: string;
}

export { HTML_TYPE } from '../web/securityHeaders.js';

/** Parses a query leniently: pages ignore what they do not read, and a bad escape is kept as it came. */
export function pageQuery(raw: string): Map<string, string> {
  const query = new Map<string, string>();
  if (raw === '') return query;
  for (const pair of raw.split('&')) {
    const eq = pair.indexOf('=');
    const name = decodeLeniently(eq < 0 ? pair : pair.slice(0, eq));
    if (name === '' || query.has(name)) continue;
    query.set(name, eq < 0 ? '' : decodeLeniently(pair.slice(eq + 1)));
  }
  return query;
}

export function decodeLeniently(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
