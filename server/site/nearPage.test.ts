// Near me over HTTP: `/tr/yakin?lat=&lon=` and `/en/near?lat=&lon=` answer 302 to the nearest catalog place's page in
// that language (the catalog's own nearest lookup decides, checked here against it), never kept by the page cache
// (a point after the bare form, and two points in a row, each get their own answer); the bare address is a form;
// bad, missing, out-of-range or hostile coordinates get a 400 page in that language, escaped, never a 500. And what
// the scripts for points 5 and 8 need from the pages: place pages name the method in effect in the select, carry the
// form's `data-remember` and the scripts, answer without `Vary: Cookie`; the homes have the last-place slot.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PlaceCatalog } from '../places/placeCatalog.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { NEAR_PATH, PLACE_PAGE_PREFIX, RAMADAN_PAGE_PREFIX, SITE_LANGUAGES } from '../links.js';
import { coordinate } from './nearPage.js';
import { WORDS } from './words.js';

const BASE = 'https://prayer-times.example';
let server: RunningServer;
let catalog: PlaceCatalog;

beforeAll(async () => {
  catalog = PlaceCatalog.load(inject('catalogDataDir'), { publicBaseUrl: () => BASE })!;
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function get(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${server.baseUrl}${path}`, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe.each(SITE_LANGUAGES)('near me in %s', (language) => {
  const near = NEAR_PATH[language];
  const w = WORDS[language];

  it.each([
    ['Kadıköy itself', '40.98229', '29.09032'],
    ['a point in Istanbul', '41.0082', '28.9784'],
    ['the decimal comma', '41,0082', '28,9784'],
    ['spaces and signs', ' +39.93 ', '+32.85'],
    ['Reykjavík', '64.1466', '-21.9426'],
    ['the open Pacific near the date line', '-14.0', '-179.99'],
    ['the North Pole', '90', '180'],
    ['the South Pole', '-90', '-180'],
  ])('%s: 302 to the nearest place’s page in this language', async (_, lat, lon) => {
    const expected = catalog.nearest(Number(lat.trim().replace(',', '.')), Number(lon.trim().replace(',', '.')));
    const { status, headers, text } = await get(`${near}?lat=${encodeURIComponent(lat)}&lon=${encodeURIComponent(lon)}`);
    expect(status).toBe(302);
    expect(headers.get('location')).toBe(`${BASE}${PLACE_PAGE_PREFIX[language]}/${expected.path}`);
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(text).toBe('');
  });

  it('sends Kadıköy’s own coordinates to Kadıköy, with the status line of a 302', async () => {
    const response = await fetch(`${server.baseUrl}${near}?lat=40.98229&lon=29.09032`, { redirect: 'manual' });
    expect(`${response.status} ${response.statusText}`).toBe('302 Found');
    const { headers } = response;
    expect(headers.get('location')).toBe(`${BASE}${PLACE_PAGE_PREFIX[language]}/turkey/istanbul/kadikoy`);
  });

  it('keeps no answer: the form, then two points in a row, each get their own', async () => {
    expect((await get(near)).status).toBe(200);
    const first = await get(`${near}?lat=64.1466&lon=-21.9426`);
    const second = await get(`${near}?lat=40.98229&lon=29.09032`);
    expect(first.headers.get('location')).toContain(catalog.nearest(64.1466, -21.9426).path);
    expect(second.headers.get('location')).toContain('turkey/istanbul/kadikoy');
    expect((await get(`${near}?lat=91&lon=0`)).status).toBe(400);
    expect((await get(near)).status).toBe(200);
  });

  it('is a form to type the coordinates at the bare address, in this language', async () => {
    const { status, text, headers } = await get(near);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/html/);
    expect(text).toContain(`<html lang="${language}">`);
    expect(text).toContain(`<form class="choose" action="${near}" method="get">`);
    expect(text).toMatch(/<input id="lat" name="lat" [^>]*required/);
    expect(text).toMatch(/<input id="lon" name="lon" [^>]*required/);
    expect(text).toContain(w.nearTitle);
    expect(text).toContain('<meta name="robots" content="noindex, follow">');
  });

  it.each([
    ['latitude above 90', 'lat=91&lon=29', 'latitudeInvalid'],
    ['latitude just below -90', 'lat=-90.0001&lon=29', 'latitudeInvalid'],
    ['longitude above 180', 'lat=41&lon=180.5', 'longitudeInvalid'],
    ['longitude below -180', 'lat=41&lon=-181', 'longitudeInvalid'],
    ['a word', 'lat=abc&lon=29', 'latitudeInvalid'],
    ['NaN', 'lat=NaN&lon=29', 'latitudeInvalid'],
    ['Infinity', 'lat=41&lon=Infinity', 'longitudeInvalid'],
    ['an exponent', 'lat=4e1&lon=29', 'latitudeInvalid'],
    ['hexadecimal', 'lat=0x10&lon=29', 'latitudeInvalid'],
    ['two numbers', 'lat=41 29&lon=29', 'latitudeInvalid'],
    ['a very long number', `lat=${'4'.repeat(40)}&lon=29`, 'latitudeInvalid'],
    ['lat alone', 'lat=41', 'coordinatesMissing'],
    ['lon alone', 'lon=29', 'coordinatesMissing'],
    ['both empty', 'lat=&lon=', 'coordinatesMissing'],
    ['lon blank', 'lat=41&lon=%20', 'coordinatesMissing'],
  ] as const)('%s: a 400 page in this language that says what is wrong', async (_, query, problem) => {
    const { status, text, headers } = await get(`${near}?${query}`);
    expect(status).toBe(400);
    expect(headers.get('content-type')).toMatch(/^text\/html/);
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(text).toContain(`<html lang="${language}">`);
    expect(text).toContain(`<p id="near-problem"><strong>${w[problem]}</strong></p>`);
    // The form again, to correct it.
    expect(text).toContain(`<form class="choose" action="${near}" method="get">`);
  });

  it('escapes what it shows back', async () => {
    const { status, text } = await get(`${near}?lat=${encodeURIComponent('"><script>alert(1)</script>')}&lon=29`);
    expect(status).toBe(400);
    expect(text).not.toContain('<script>alert(1)');
    expect(text).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});

describe('coordinate()', () => {
  it('reads decimal degrees as typed and refuses anything else', () => {
    expect(coordinate('41.0082', 90)).toBe(41.0082);
    expect(coordinate(' -8,5 ', 90)).toBe(-8.5);
    expect(coordinate('.5', 90)).toBe(0.5);
    expect(coordinate('180', 180)).toBe(180);
    for (const bad of ['', '-', '1.', '1.2.3', '1,2,3', '1e2', '--1', '180.01']) expect(coordinate(bad, 180), bad).toBeUndefined();
  });
});

describe('what the pages give the scripts', () => {
  it.each([
    ['tr', 'Diyanet İşleri Başkanlığı, Türkiye (Türkiye için varsayılan)', 'Asr-ı evvel (Şafii, Maliki, Hanbeli) — Türkiye için varsayılan'],
    ['en', 'Diyanet İşleri Başkanlığı, Türkiye (default for Türkiye)', 'Standard (Shafi, Maliki, Hanbali) — default for Türkiye'],
  ] as const)('a place page in %s names the method and madhab in effect, and stays cacheable without cookies', async (language, method, madhab) => {
    const path = `${PLACE_PAGE_PREFIX[language]}/turkey/istanbul/kadikoy`;
    const { status, text, headers } = await get(path);
    expect(status).toBe(200);
    expect(text).toContain(`<select id="method" name="method"><option value="" selected>${method}</option>`);
    expect(text).toContain(`<select id="madhab" name="madhab"><option value="" selected>${madhab}</option>`);
    // The prefixes whose links carry the choice: place pages and Ramadan timetables, in both languages.
    expect(text).toContain(`data-remember="${PLACE_PAGE_PREFIX.tr} ${RAMADAN_PAGE_PREFIX.tr} ${PLACE_PAGE_PREFIX.en} ${RAMADAN_PAGE_PREFIX.en}"`);
    expect(text).toMatch(/<script src="\/assets\/preferences\.js\?v=[^"]+" defer><\/script>/);
    expect(text).toMatch(/<script src="\/assets\/nearMe\.js\?v=[^"]+" defer><\/script>/);
    expect(text).toContain('data-place-path="turkey/istanbul/kadikoy"');
    expect(headers.get('vary') ?? '').not.toMatch(/cookie/i);
    expect(headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);

    // A method chosen: it is selected, and the default option still says what the default would be.
    const chosen = await get(`${path}?method=isna&madhab=hanafi`);
    expect(chosen.text).toContain(`<option value="">${method}</option>`);
    expect(chosen.text).toContain('<option value="isna" selected>Islamic Society of North America</option>');
    expect(chosen.text).toContain(`<option value="hanafi" selected>${WORDS[language].madhabs.hanafi}</option>`);
  });

  it('a place elsewhere names its own country’s defaults', async () => {
    const lahore = catalog.find('Lahore', 1)[0];
    expect(lahore.country).toBe('PK');
    const { text } = await get(`${PLACE_PAGE_PREFIX.en}/${lahore.path}`);
    expect(text).toContain('<option value="" selected>University of Islamic Sciences, Karachi (default for Pakistan)</option>');
    expect(text).toContain('<option value="" selected>Hanafi (default for Pakistan)</option>');
  });

  it.each(SITE_LANGUAGES)('the %s home has the last-place slot and the near-me widget, the same HTML for everyone', async (language) => {
    const { status, text, headers } = await get(`/${language}`);
    expect(status).toBe(200);
    expect(text).toContain(`<p id="last-place" class="last-place" data-prefix="${PLACE_PAGE_PREFIX[language]}" hidden>`);
    expect(text).toContain(`<div class="near-me" data-near="${NEAR_PATH[language]}"`);
    expect(text).toMatch(/<script src="\/assets\/nearMe\.js\?v=[^"]+" defer><\/script>/);
    expect(headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  });

  it.each(['preferences.js', 'nearMe.js'])('serves %s as JavaScript', async (name) => {
    const { status, headers } = await get(`/assets/${name}`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});
