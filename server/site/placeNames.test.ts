// How the site names places, over HTTP (issue 30, points 4 and 7): places whose region the sources do not name
// (Tromsø, Vietnam, the Palestinian Territories) read "Tromsø · Norway" with no empty comma, crumb or JSON-LD item;
// Turkish places carry their Turkish spelling (İstanbul) in both languages; the homes list the largest cities under
// that name, the Turkish provinces first on the Turkish home only; namesakes in one region get distinct titles; old
// slugs (`eminoenue`) answer 301 on the site and still resolve in the API; index pages say what they count.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PlaceCatalog } from '../places/placeCatalog.js';
import { dataDirWithCatalog, startServerWithKey, type ServerWithKey } from '../../testing/serverProcess.js';

const BASE = 'https://prayer-times.example';
let live: ServerWithKey;
let catalog: PlaceCatalog;

beforeAll(async () => {
  catalog = PlaceCatalog.load(inject('catalogDataDir'), { publicBaseUrl: () => BASE })!;
  live = await startServerWithKey({ PUBLIC_BASE_URL: BASE, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) });
}, 60_000);
afterAll(async () => {
  await live?.server.stop();
});

async function get(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${live.server.baseUrl}${path}`, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function page(path: string): Promise<string> {
  const answer = await get(path);
  expect(answer.status, path).toBe(200);
  return answer.text;
}

async function api(path: string): Promise<any> {
  const response = await fetch(`${live.server.baseUrl}${path}`, { headers: { authorization: `Bearer ${live.key}` } });
  expect(response.status, path).toBe(200);
  return response.json();
}

const titleOf = (html: string): string => /<title>([^<]*)<\/title>/.exec(html)![1];
const descriptionOf = (html: string): string => /<meta name="description" content="([^"]*)">/.exec(html)![1];
const h1Of = (html: string): string => /<h1>([^<]*)<\/h1>/.exec(html)![1];
/** The lede's text ('' on a page without one). */
const ledeOf = (html: string): string => (/<p class="lede">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').replace(/<[^>]+>/g, '');
/** The breadcrumb JSON-LD's items as [name, item] (none on a page without a breadcrumb). */
const crumbsOf = (html: string): Array<[string, string]> => {
  const json = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1];
  return json ? JSON.parse(json).itemListElement.map((i: any) => [i.name, i.item]) : [];
};
const linkTexts = (html: string): string[] => [...html.matchAll(/<a [^>]*>([\s\S]*?)<\/a>/g)].map((m) => m[1].replace(/<[^>]+>/g, '').trim());
const h2s = (html: string): string[] => [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);

/** What an empty region used to leave: "· , Vietnam", ", ," or "Prayer times in : places". */
function expectNoEmptyRegion(html: string, where: string): void {
  for (const text of [titleOf(html), descriptionOf(html), h1Of(html), ledeOf(html)]) {
    expect(text, where).not.toMatch(/·\s*,|,\s*,|,\s*·|\(\s*,|in\s*:|^\s*,|,\s*$/);
  }
  expect(linkTexts(html).filter((t) => t === ''), `${where}: empty links`).toEqual([]);
  for (const [name, item] of crumbsOf(html)) {
    expect(name, `${where}: a JSON-LD item without a name`).not.toBe('');
    expect(item, where).toMatch(/^https:\/\/prayer-times\.example\/\S+$/);
  }
  expect(html, where).not.toMatch(/<span class="note">\s*<\/span>/);
}

describe('places without a region', () => {
  const samples = (): string[] => {
    const found = (name: string, country: string) => catalog.find(name, 20).find((p) => p.country === country && p.region === '')!;
    return [found('Tromsø', 'NO'), found('Da Nang', 'VN'), found('Banī Zayd', 'PS')].map((p) => p.path);
  };

  it('are named "place · country" on their pages in both languages, with a breadcrumb of named links', async () => {
    const paths = samples();
    expect(paths[0]).toBe('norway/all/tromso');
    for (const path of paths) {
      for (const prefix of ['/en/prayer-times', '/tr/namaz-vakitleri']) {
        const html = await page(`${prefix}/${path}`);
        expectNoEmptyRegion(html, `${prefix}/${path}`);
        // Home, the country, the place: the nameless region is left out.
        expect(crumbsOf(html), path).toHaveLength(3);
        for (const [, item] of crumbsOf(html)) expect((await get(item.slice(BASE.length))).status, item).toBe(200);
      }
    }
    const en = await page('/en/prayer-times/norway/all/tromso');
    expect(titleOf(en)).toBe('Prayer times in Tromsø · Norway');
    expect(descriptionOf(en)).toContain('Prayer times in Tromsø, Norway, today (');
    expect(ledeOf(en)).toMatch(/^Norway · /);
    expect(crumbsOf(en).map(([name]) => name)).toEqual(['Home', 'Norway', 'Tromsø']);
    const tr = await page('/tr/namaz-vakitleri/norway/all/tromso');
    expect(titleOf(tr)).toBe('Tromsø namaz vakitleri · Norveç');
    expect(descriptionOf(tr)).toContain('Tromsø (Norveç) namaz vakitleri, bugün (');
    expect(crumbsOf(tr).map(([name]) => name)).toEqual(['Ana sayfa', 'Norveç', 'Tromsø']);
  });

  it('are the country’s "other places", an index page of their own, in both languages', async () => {
    const en = await page('/en/prayer-times/norway/all');
    expectNoEmptyRegion(en, 'norway/all');
    expect(h1Of(en)).toBe('Prayer times in Norway: other places');
    expect(titleOf(en)).toBe('Prayer times in Norway: other places · Prayer Times');
    expect(ledeOf(en)).toMatch(/^Norway · \d+ places$/);
    expect(en).toContain('<a href="/en/prayer-times/norway/all/tromso">Tromsø</a>');
    expect(crumbsOf(en).map(([name]) => name)).toEqual(['Home', 'Norway', 'Other places']);
    const tr = await page('/tr/namaz-vakitleri/norway/all');
    expect(h1Of(tr)).toBe('Norveç namaz vakitleri: diğer yerler');
    expect(crumbsOf(tr).map(([name]) => name)).toEqual(['Ana sayfa', 'Norveç', 'Diğer yerler']);
    // The country lists them last, by that name, with their count.
    const country = await page('/en/prayer-times/norway');
    expectNoEmptyRegion(country, 'norway');
    const others = catalog.places.filter((p) => p.path.startsWith('norway/all/')).length;
    expect(country).toMatch(new RegExp(`<li><a href="/en/prayer-times/norway/all">Other places</a> <span class="note">\\(${others} places\\)</span></li></ul>`));
    const vietnam = await page('/tr/namaz-vakitleri/vietnam');
    expectNoEmptyRegion(vietnam, 'vietnam');
    expect(vietnam).toContain('<a href="/tr/namaz-vakitleri/vietnam/all">Diğer yerler</a>');
  });

  it('show the country alone in search results, nearby lists and the calendar feed', async () => {
    // Many Vietnamese towns are called "Thị Trấn …" (township): a list, not one place to go to.
    const search = await page(`/en/search?q=${encodeURIComponent('thi tran')}`);
    expect(search).toMatch(/<a href="\/en\/prayer-times\/vietnam\/all\/[a-z0-9-]+">[^<]+<\/a> <span class="note">Vietnam<\/span>/);
    expectNoEmptyRegion(search, 'search');
    const tromso = await page('/en/prayer-times/norway/all/tromso');
    const nearby = /<ul class="list">([\s\S]*?)<\/ul>/.exec(tromso.slice(tromso.indexOf('Nearby places')))![1];
    const notes = [...nearby.matchAll(/<span class="note">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((n) => n !== '')).toBe(true);
    const feed = (await page('/en/prayer-times/norway/all/tromso.ics')).replace(/\r\n /g, '');
    expect(feed).toMatch(/DESCRIPTION:Prayer times in Tromsø\\?, Norway \(/);
  });
});

describe('Turkish places', () => {
  it('carry their Turkish spelling, as Diyanet prints it, in both languages and in the API', async () => {
    const tr = await page('/tr/namaz-vakitleri/turkey/istanbul/istanbul');
    expect(h1Of(tr)).toBe('İstanbul namaz vakitleri');
    expect(titleOf(tr)).toBe('İstanbul namaz vakitleri · İstanbul, Türkiye');
    const en = await page('/en/prayer-times/turkey/istanbul/istanbul');
    expect(h1Of(en)).toBe('Prayer times in İstanbul');
    expect((await api('/api/v1/times?city=Istanbul')).location.name).toBe('İstanbul');
    expect((await api(`/api/v1/times?city=${encodeURIComponent('Şanlıurfa')}`)).location).toMatchObject({ name: 'Şanlıurfa', region: 'Şanlıurfa' });
    expect(await page('/tr')).toContain('<a href="/tr/namaz-vakitleri/turkey/istanbul/istanbul">İstanbul</a>');
  });
});

describe('the homes', () => {
  it('list the largest cities under that name; the Turkish home opens with the provinces, the English one with the world', async () => {
    const tr = await page('/tr');
    expect(tr).not.toContain('Sık bakılan');
    expect(h2s(tr).slice(0, 3)).toEqual(['Türkiye namaz vakitleri: bölgeler', 'Büyük şehirler', 'Ülkeler']);
    expect(tr).toContain('<a href="/tr/namaz-vakitleri/turkey/adana">Adana</a>');
    const en = await page('/en');
    expect(en).not.toContain('Popular');
    expect(h2s(en).slice(0, 2)).toEqual(['Largest cities', 'Countries']);
    expect(en).not.toContain('href="/en/prayer-times/turkey/adana"');
    expect(en).toContain('<a href="/en/prayer-times/turkey">Türkiye</a>');
    // The largest first: the list is the catalog's most populous places.
    const largest = catalog.places.filter((p) => p.population !== undefined).sort((a, b) => b.population! - a.population!)[0];
    const list = /<h2>Largest cities<\/h2>\s*<ul class="list">([\s\S]*?)<\/ul>/.exec(en)![1];
    expect(list.indexOf(`/en/prayer-times/${largest.path}"`)).toBe(list.indexOf('<a href="') + '<a href="'.length);
    expect(h2s(await page('/en/prayer-times/turkey'))).toContain('Largest cities');
    expect(h2s(await page('/tr/namaz-vakitleri/turkey'))).toContain('Büyük şehirler');
  });
});

describe('namesakes in one region', () => {
  it('get distinct titles and descriptions, and distinct entries in their region’s list', async () => {
    const kumluca = catalog.places.filter((p) => p.name === 'Kumluca' && p.region === 'Antalya');
    expect(kumluca.map((p) => p.type).sort()).toEqual(['city', 'district']);
    // …and one told apart by its district (GeoNames admin2), wherever the catalog has one.
    const byDistrict = catalog.places.find((p) => p.qualifier && !/^-?\d+\.\d+, -?\d/.test(p.qualifier) && p.country === 'ID')!;
    const namesake = catalog.places.find((p) => p !== byDistrict && p.name === byDistrict.name && p.region === byDistrict.region && p.country === byDistrict.country)!;
    for (const group of [kumluca, [byDistrict, namesake]]) {
      for (const prefix of ['/en/prayer-times', '/tr/namaz-vakitleri']) {
        const pages = await Promise.all(group.map((p) => page(`${prefix}/${p.path}`)));
        expect(new Set(pages.map(titleOf)).size, group[0].name).toBe(group.length);
        expect(new Set(pages.map(descriptionOf)).size, group[0].name).toBe(group.length);
        expect(new Set(pages.map(h1Of)).size, group[0].name).toBe(group.length);
      }
    }
    const city = kumluca.find((p) => p.type === 'city')!;
    const cityPage = await page(`/en/prayer-times/${city.path}`);
    expect(titleOf(cityPage)).toBe(`Prayer times in Kumluca (${city.qualifier}) · Antalya, Türkiye`);
    expect(crumbsOf(cityPage).at(-1)![0]).toBe(`Kumluca (${city.qualifier})`);
    const region = await page('/en/prayer-times/turkey/antalya');
    expect(region).toContain('<a href="/en/prayer-times/turkey/antalya/kumluca">Kumluca</a>');
    expect(region).toContain(`<a href="/en/prayer-times/${city.path}">Kumluca (${city.qualifier})</a>`);
  });
});

describe('slugs', () => {
  it('are one folding for all (eminonu, kadikoy, koln); an old slug answers 301 with the new URL', async () => {
    expect(catalog.byPath('turkey/istanbul/eminonu')!.name).toBe('Eminönü');
    for (const [old, now] of [
      ['/en/prayer-times/turkey/istanbul/eminoenue', '/en/prayer-times/turkey/istanbul/eminonu'],
      ['/tr/namaz-vakitleri/turkey/istanbul/eminoenue', '/tr/namaz-vakitleri/turkey/istanbul/eminonu'],
      ['/en/prayer-times/Turkey/Istanbul/Eminoenue', '/en/prayer-times/turkey/istanbul/eminonu'],
      ['/en/prayer-times/germany/north-rhine-westphalia/koeln', '/en/prayer-times/germany/north-rhine-westphalia/koln'],
      ['/tr/namaz-vakitleri/turkey/istanbul/eminoenue.ics', '/tr/namaz-vakitleri/turkey/istanbul/eminonu.ics'],
    ]) {
      const answer = await get(old);
      expect(answer.status, old).toBe(301);
      expect(answer.headers.get('location'), old).toBe(`${BASE}${now}`);
      expect((await get(now)).status, now).toBe(200);
    }
    expect((await get('/en/prayer-times/turkey/istanbul/eminoenue-nothing')).status).toBe(404);
  });

  it('of before still resolve as `city=` in the API, answering with the new path', async () => {
    for (const [old, now] of [
      ['turkey/istanbul/eminoenue', 'turkey/istanbul/eminonu'],
      ['germany/north-rhine-westphalia/koeln', 'germany/north-rhine-westphalia/koln'],
      ['Germany/North-Rhine-Westphalia/Koeln', 'germany/north-rhine-westphalia/koln'],
    ]) {
      const answer = await api(`/api/v1/times?city=${encodeURIComponent(old)}`);
      expect(answer.location.path, old).toBe(now);
      expect(answer.location.urls.en).toBe(`${BASE}/en/prayer-times/${now}`);
    }
    const missing = await fetch(`${live.server.baseUrl}/api/v1/times?city=turkey/istanbul/nowhere`, { headers: { authorization: `Bearer ${live.key}` } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('city_not_found');
  });
});

describe('index pages', () => {
  it('say what their numbers count', async () => {
    const istanbul = catalog.places.filter((p) => p.path.startsWith('turkey/istanbul/')).length;
    const en = await page('/en/prayer-times/turkey/istanbul');
    expect(ledeOf(en)).toBe(`İstanbul, Türkiye · ${istanbul} places`);
    const tr = await page('/tr/namaz-vakitleri/turkey/istanbul');
    expect(ledeOf(tr)).toBe(`İstanbul, Türkiye · ${istanbul} yer`);
    const country = await page('/en/prayer-times/turkey');
    expect(ledeOf(country)).toMatch(/^Türkiye · [\d,]+ places$/);
    expect(country).toContain(`<a href="/en/prayer-times/turkey/istanbul">İstanbul</a> <span class="note">(${istanbul} places)</span>`);
    expect(await page('/tr/namaz-vakitleri/turkey')).toContain(`<a href="/tr/namaz-vakitleri/turkey/istanbul">İstanbul</a> <span class="note">(${istanbul} yer)</span>`);
    for (const html of [en, tr, country]) expect(html).not.toMatch(/· [\d.,]+<\/p>|\(\d+\)/);
  });
});
