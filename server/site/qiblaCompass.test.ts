// The qibla compass of a place page over HTTP: the dial's arrow is turned to the API's /qibla bearing, the words say
// the same bearing, its compass point (of eight) and distance, in the page's language; the dial has an accessible
// name, and the button compass.js shows is in the page, hidden, with its script linked.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { compassPoint } from './qiblaCompass.js';
import { formatNumber, WORDS } from './words.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: 'https://prayer-times.example' }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('compassPoint', () => {
  it('names eight points, each 45° wide and centred on its direction', () => {
    const cases: Array<[number, number]> = [
      [0, 0],
      [22.49, 0],
      [22.5, 1],
      [45, 1],
      [67.49, 1],
      [67.5, 2],
      [151.62, 3],
      [180, 4],
      [247.5, 6],
      [295.15, 7],
      [337.49, 7],
      [337.5, 0],
      [359.99, 0],
      [360, 0],
      [-10, 0],
    ];
    for (const [bearing, point] of cases) expect(compassPoint(bearing), String(bearing)).toBe(point);
  });
});

describe('the compass on a place page', () => {
  const PLACES = [
    ['Istanbul', 'turkey/istanbul/istanbul', 'south-east', 'güneydoğu'],
    ['Jakarta', 'indonesia/jakarta/jakarta', 'north-west', 'kuzeybatı'],
    ['London', 'united-kingdom/england/london', 'south-east', 'güneydoğu'],
    ['Tromsø', 'norway/all/tromso', 'south-east', 'güneydoğu'],
  ] as const;

  it.each(PLACES)("%s: the arrow at /api/v1/qibla's bearing, with the compass point and distance in both languages", async (_name, path, en, tr) => {
    const res = await fetch(`${server.baseUrl}/api/v1/qibla?city=${path}`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    const qibla = (await res.json()) as { bearing: number; distanceKm: number };
    for (const [language, prefix, direction] of [
      ['en', '/en/prayer-times', en],
      ['tr', '/tr/namaz-vakitleri', tr],
    ] as const) {
      const page = await (await fetch(`${server.baseUrl}${prefix}/${path}`)).text();
      const w = WORDS[language];
      expect(w.compassPoints[compassPoint(qibla.bearing)]).toBe(direction);
      expect(page).toContain(`<g class="qibla-needle" transform="rotate(${qibla.bearing})">`);
      expect(page).toContain(`<div class="qibla-compass" data-bearing="${qibla.bearing}"`);
      expect(page).toContain(`<g class="compass-card" transform="rotate(0)">`);
      const bearing = formatNumber(qibla.bearing, language);
      expect(page).toContain(`<p class="qibla-text">${w.qiblaText(bearing, direction, formatNumber(qibla.distanceKm, language))}</p>`);
      // The dial's accessible name says the same.
      expect(page).toMatch(/<svg class="compass" [^>]*role="img" aria-labelledby="compass-title"/);
      expect(page).toContain(`<title id="compass-title">${w.compassTitle(bearing, direction)}</title>`);
      // The four letters in the page's language, north first.
      const letters = [...page.matchAll(/<text class="compass-letter[^"]*"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
      expect(letters).toEqual([...w.compassLetters]);
      // The live compass: its button is in the page, hidden until compass.js finds device orientation.
      expect(page).toMatch(/<button type="button" class="compass-start" hidden>/);
      expect(page).toMatch(/<script src="\/assets\/compass\.js\?v=[\w-]+" defer><\/script>/);
    }
  });

  it('serves compass.js as a script of the site, cacheable for a year', async () => {
    const page = await (await fetch(`${server.baseUrl}/en/prayer-times/turkey/istanbul/istanbul`)).text();
    const src = /<script src="(\/assets\/compass\.js\?v=[\w-]+)"/.exec(page)![1];
    const res = await fetch(server.baseUrl + src);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(await res.text()).toContain('deviceorientationabsolute');
  });
});
