// Share previews over HTTP: place pages (with today's times, as the API gives them), index pages and the homes carry
// Open Graph tags and a Twitter card, made from the page's own title, description and canonical URL, every value
// escaped (a place named with an apostrophe, a search for markup).
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PlaceCatalog } from '../places/placeCatalog.js';
import { siteServerForFile } from '../../testing/siteServer.js';
import { WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
const PLACE = 'turkey/istanbul/kadikoy';

let catalog: PlaceCatalog;
const site = siteServerForFile(BASE);
beforeAll(() => {
  catalog = PlaceCatalog.load(inject('catalogDataDir'), { publicBaseUrl: () => BASE })!;
});

const api = (path: string): Promise<any> => site.api(path);

async function page(path: string): Promise<string> {
  const response = await fetch(`${site.server.baseUrl}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

const unescape = (text: string): string => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The head's meta tags by property or name, their content as written (escaped) — each named once. */
function metaOf(html: string): Map<string, string> {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)![1];
  const found = new Map<string, string>();
  for (const m of head.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) {
    expect(found.has(m[1]), `${m[1]} twice`).toBe(false);
    found.set(m[1], m[2]);
  }
  return found;
}

const titleOf = (html: string): string => /<title>([^<]*)<\/title>/.exec(html)![1];
const canonicalOf = (html: string): string => /<link rel="canonical" href="([^"]*)">/.exec(html)![1];

/** Every preview tag, and each equal to what the page says of itself. */
function expectPreview(html: string, language: 'tr' | 'en', where: string, alternate = true): Map<string, string> {
  const meta = metaOf(html);
  expect(meta.get('og:type'), where).toBe('website');
  expect(meta.get('og:site_name'), where).toBe(WORDS[language].siteName);
  expect(meta.get('og:title'), where).toBe(titleOf(html));
  expect(meta.get('og:description'), where).toBe(meta.get('description'));
  expect(meta.get('og:url'), where).toBe(canonicalOf(html));
  expect(meta.get('og:locale'), where).toBe(language === 'tr' ? 'tr_TR' : 'en_US');
  expect(meta.get('og:locale:alternate'), where).toBe(alternate ? (language === 'tr' ? 'en_US' : 'tr_TR') : undefined);
  expect(meta.get('twitter:card'), where).toBe('summary');
  return meta;
}

describe('share previews', () => {
  it.each(['tr', 'en'] as const)('on a place page (%s): its title, URL and a description with today’s times as the API gives them', async (language) => {
    const times = await api(`/api/v1/times?city=${PLACE}`);
    const path = language === 'tr' ? `/tr/namaz-vakitleri/${PLACE}` : `/en/prayer-times/${PLACE}`;
    const html = await page(path);
    const meta = expectPreview(html, language, path);
    expect(meta.get('og:url')).toBe(`${BASE}${path}`);
    const description = unescape(meta.get('og:description')!);
    const w = WORDS[language];
    // Diyanet's imsak is its fajr: one İmsak, then the rest, each with the API's clock.
    expect(description).toContain(['imsak', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'].map((n) => `${w.times[n as 'imsak']} ${times.times[n]}`).join(', '));
    expect(description).toContain('Kadıköy');
    // A variant shares the canonical URL.
    const variant = metaOf(await page(`${path}?method=muslimWorldLeague`));
    expect(variant.get('og:url')).toBe(`${BASE}${path}`);
  });

  it('on index pages and the homes', async () => {
    for (const [path, language] of [
      ['/en', 'en'],
      ['/tr', 'tr'],
      ['/en/prayer-times/turkey', 'en'],
      ['/tr/namaz-vakitleri/turkey/istanbul', 'tr'],
    ] as const) {
      expectPreview(await page(path), language, path);
    }
    // The English-only docs name no other locale.
    expectPreview(await page('/docs'), 'en', '/docs', false);
  });

  it('escapes every value: a place named with an apostrophe, a search for markup', async () => {
    const named = catalog.places.find((p) => p.name.includes("'"))!;
    expect(named, 'a place with an apostrophe in its name').toBeDefined();
    const html = await page(`/en/prayer-times/${named.path}`);
    const meta = expectPreview(html, 'en', named.path);
    expect(meta.get('og:title')).toContain(named.name.replace(/'/g, '&#39;'));
    expect(unescape(meta.get('og:title')!)).toContain(named.name);

    const hostile = '"><script>alert(1)</script>';
    const search = await page(`/en/search?q=${encodeURIComponent(hostile)}`);
    const found = expectPreview(search, 'en', 'search');
    expect(found.get('og:title')).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(search).not.toContain('<script>alert');
  });
});
