// /robots.txt and the sitemaps over real HTTP: the index lists its sitemaps, each parses as XML (@xmldom/xmldom,
// fatal errors thrown) with at most 50,000 <url>, every place page and every place's Ramadan timetable of the catalog
// is there once per language with its hreflang alternates, and a sample of the listed URLs answer 200.
import { get } from 'node:http';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readCatalog, type StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';

const BASE = 'https://prayer-times.example';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

let server: RunningServer;
let places: readonly StoredPlace[];
beforeAll(async () => {
  places = readCatalog(inject('catalogDataDir'))!.places;
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** A URL of the public base, fetched from the test's server. */
const local = (url: string): string => {
  expect(url.startsWith(`${BASE}/`)).toBe(true);
  return server.baseUrl + url.slice(BASE.length);
};

/** The status of a GET on a connection of its own (the chunks' long transfers leave pooled sockets the server has closed). */
const statusOf = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject);
  });

function parseXml(text: string): Document {
  return new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(text, 'application/xml');
}

const children = (parent: Element | Document, ns: string, name: string): Element[] => Array.from(parent.getElementsByTagNameNS(ns, name));
const textOf = (parent: Element, name: string): string | undefined => children(parent, SITEMAP_NS, name)[0]?.textContent ?? undefined;

describe('/robots.txt', () => {
  it('allows all but the dashboard and the API, and names the sitemap index', async () => {
    const res = await fetch(`${server.baseUrl}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(`User-agent: *\nAllow: /\nDisallow: /dashboard\nDisallow: /api/\n\nSitemap: ${BASE}/sitemap.xml\n`);
  });
});

describe('the sitemaps', () => {
  /** Every <url> of every sitemap: its loc and its alternates by hreflang. */
  const urls: Array<{ loc: string; sitemap: string; alternates: Record<string, string>; lastmod?: string }> = [];
  let sitemapUrls: string[] = [];

  beforeAll(async () => {
    const res = await fetch(`${server.baseUrl}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const index = parseXml(await res.text());
    expect(index.documentElement!.localName).toBe('sitemapindex');
    expect(index.documentElement!.namespaceURI).toBe(SITEMAP_NS);
    sitemapUrls = children(index, SITEMAP_NS, 'sitemap').map((s) => textOf(s, 'loc')!);
    // Every chunk read first, one after another, and parsed after: parsing 10,000 URLs can take longer than the
    // server keeps an idle connection (10 s) on a busy machine, and the next fetch would find the kept one closed.
    const texts: string[] = [];
    for (const sitemap of sitemapUrls) {
      const chunk = await fetch(local(sitemap));
      expect(chunk.status, sitemap).toBe(200);
      expect(chunk.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      texts.push(await chunk.text());
    }
    for (const [i, sitemap] of sitemapUrls.entries()) {
      const doc = parseXml(texts[i]);
      expect(doc.documentElement!.localName).toBe('urlset');
      for (const url of children(doc, SITEMAP_NS, 'url')) {
        const alternates: Record<string, string> = {};
        for (const link of children(url, XHTML_NS, 'link')) {
          expect(link.getAttribute('rel')).toBe('alternate');
          alternates[link.getAttribute('hreflang')!] = link.getAttribute('href')!;
        }
        urls.push({ loc: textOf(url, 'loc')!, sitemap, alternates, lastmod: textOf(url, 'lastmod') });
      }
    }
  }, 360_000); // every chunk: the place pages and their Ramadan timetables, 0.33 million URLs

  it('lists sitemaps of at most 50,000 URLs each, absolute under the base', () => {
    expect(sitemapUrls.length).toBeGreaterThan(30);
    expect(sitemapUrls.every((u) => /^https:\/\/prayer-times\.example\/sitemaps\/(pages|places|ramadan)-\d+\.xml$/.test(u))).toBe(true);
    const perSitemap = new Map<string, number>();
    for (const u of urls) perSitemap.set(u.sitemap, (perSitemap.get(u.sitemap) ?? 0) + 1);
    expect([...perSitemap.keys()].sort()).toEqual([...sitemapUrls].sort());
    expect(Math.max(...perSitemap.values())).toBeLessThanOrEqual(50_000);
    expect(urls.every((u) => u.loc.startsWith(`${BASE}/`))).toBe(true);
    expect(new Set(urls.map((u) => u.loc)).size).toBe(urls.length);
  });

  it('has every place page once per language, with tr, en and x-default (English) alternates', () => {
    const byLoc = new Map(urls.map((u) => [u.loc, u]));
    const missing: string[] = [];
    for (const place of places) {
      const tr = `${BASE}/tr/namaz-vakitleri/${place.path}`;
      const en = `${BASE}/en/prayer-times/${place.path}`;
      for (const loc of [tr, en]) {
        const url = byLoc.get(loc);
        if (!url) missing.push(loc);
        else expect(url.alternates).toEqual({ tr, en, 'x-default': en });
      }
    }
    expect(missing.slice(0, 10)).toEqual([]);
    const placeUrls = urls.filter((u) => u.sitemap.includes('/places-'));
    expect(placeUrls.length).toBe(places.length * 2);
    expect(placeUrls.every((u) => /^\d{4}-\d{2}-\d{2}$/.test(u.lastmod ?? ''))).toBe(true);
  });

  it("has every place's Ramadan timetable once per language, with tr, en and x-default (English) alternates", () => {
    const byLoc = new Map(urls.map((u) => [u.loc, u]));
    const missing: string[] = [];
    for (const place of places) {
      const tr = `${BASE}/tr/imsakiye/${place.path}`;
      const en = `${BASE}/en/ramadan/${place.path}`;
      for (const loc of [tr, en]) {
        const url = byLoc.get(loc);
        if (!url) missing.push(loc);
        else expect(url.alternates).toEqual({ tr, en, 'x-default': en });
      }
    }
    expect(missing.slice(0, 10)).toEqual([]);
    const ramadanUrls = urls.filter((u) => u.sitemap.includes('/ramadan-'));
    expect(ramadanUrls.length).toBe(places.length * 2);
    expect(ramadanUrls.every((u) => u.loc.includes('/tr/imsakiye/') || u.loc.includes('/en/ramadan/'))).toBe(true);
  });

  it('has the fixed pages and every country and region index page in both languages', () => {
    const locs = new Set(urls.map((u) => u.loc));
    const prefixes = new Set(places.flatMap((p) => [p.path.split('/')[0], p.path.split('/').slice(0, 2).join('/')]));
    const expected = [
      ...['/', '/tr', '/en', '/docs', '/docs/api', '/docs/errors', '/docs/authentication', '/docs/mcp', '/pricing'].map((path) => `${BASE}${path}`),
      ...[...prefixes].flatMap((prefix) => [`${BASE}/tr/namaz-vakitleri/${prefix}`, `${BASE}/en/prayer-times/${prefix}`]),
    ];
    expect(expected.filter((loc) => !locs.has(loc))).toEqual([]);
    const pages = urls.filter((u) => u.sitemap.includes('/pages-'));
    expect(pages.length).toBe(9 + 2 * prefixes.size);
    expect(urls.find((u) => u.loc === `${BASE}/tr`)!.alternates).toEqual({ tr: `${BASE}/tr`, en: `${BASE}/en`, 'x-default': `${BASE}/en` });
  });

  it('answers 404 for a sitemap it does not list', async () => {
    for (const path of ['/sitemaps/places-0.xml', `/sitemaps/places-${sitemapUrls.length + 1}.xml`, `/sitemaps/ramadan-${sitemapUrls.length + 1}.xml`, '/sitemaps/other.xml', '/sitemaps/places-1.xml.gz']) {
      expect(await statusOf(server.baseUrl + path), path).toBe(404);
    }
  });

  // Needs the place pages, index pages, docs and pricing (other modules of the site): 404 until they are there.
  it('lists pages that answer 200: a few hundred spread over the sitemaps, and every index page of a few countries', async () => {
    const sample: string[] = [];
    const perSitemap = new Map<string, string[]>();
    for (const u of urls) perSitemap.set(u.sitemap, [...(perSitemap.get(u.sitemap) ?? []), u.loc]);
    for (const locs of perSitemap.values()) for (let i = 0; i < locs.length; i += Math.ceil(locs.length / 10)) sample.push(locs[i]);
    for (const country of ['turkey', 'germany', 'iceland']) {
      sample.push(...urls.filter((u) => u.sitemap.includes('/pages-') && new RegExp(`/(namaz-vakitleri|prayer-times)/${country}(/|$)`).test(u.loc)).map((u) => u.loc));
    }
    sample.push(...urls.filter((u) => u.sitemap.includes('/pages-') && !u.loc.includes('/namaz-vakitleri/') && !u.loc.includes('/prayer-times/')).map((u) => u.loc));
    expect(sample.length).toBeGreaterThan(300);
    const failed: string[] = [];
    for (let i = 0; i < sample.length; i += 10) {
      await Promise.all(
        sample.slice(i, i + 10).map(async (loc) => {
          const status = await statusOf(local(loc));
          if (status !== 200) failed.push(`${status} ${loc}`);
        }),
      );
    }
    expect(failed.slice(0, 20)).toEqual([]);
  }, 180_000);
});
