// city= and /cities over real HTTP, with the catalog the test run built from the real data packages.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defaultSources, readTurkishProvinces } from '../../pipeline/catalog/sources.js';
import { startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { COUNTRY_DEFAULT_CASES } from '../../testing/countryDefaultCases.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: inject('catalogDataDir') }));
});
afterAll(async () => {
  await server?.stop();
});

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(server.baseUrl + path, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: await res.json() };
}
const q = encodeURIComponent;

describe('city=', () => {
  const cases: Array<[string, Partial<Record<'name' | 'type' | 'country' | 'region' | 'path', string>>]> = [
    ['istanbul', { name: 'İstanbul', country: 'TR', region: 'İstanbul', path: 'turkey/istanbul/istanbul' }],
    ['İSTANBUL', { name: 'İstanbul', country: 'TR' }],
    ['ISTANBUL', { name: 'İstanbul', country: 'TR' }],
    ['Kadıköy', { name: 'Kadıköy', type: 'district', region: 'İstanbul', path: 'turkey/istanbul/kadikoy' }],
    ['kadikoy', { name: 'Kadıköy', type: 'district', region: 'İstanbul' }],
    ['turkey/istanbul/kadikoy', { name: 'Kadıköy', type: 'district', region: 'İstanbul' }],
    ['Turkey/Istanbul/Kadikoy', { path: 'turkey/istanbul/kadikoy' }],
    ['Polatlı', { name: 'Polatlı', type: 'district', region: 'Ankara' }],
    ['Keçiören', { name: 'Keçiören', type: 'district', region: 'Ankara' }],
    ['Cologne', { name: 'Köln', country: 'DE' }],
    ['Köln, Almanya', { name: 'Köln', country: 'DE' }],
    ['Köln, DE', { name: 'Köln', country: 'DE' }],
    ['Mekke', { name: 'Mecca', country: 'SA' }],
    ['Paris', { name: 'Paris', country: 'FR' }],
    ['Paris, France', { name: 'Paris', country: 'FR' }],
    ['Paris, US', { name: 'Paris', country: 'US', region: 'Texas' }],
    ['London', { name: 'London', country: 'GB', region: 'England' }],
    ['Springfield', { name: 'Springfield', country: 'US', region: 'Missouri' }],
    ['Kadıköy, Yalova', { name: 'Kadıköy', region: 'Yalova', type: 'city' }],
  ];
  it.each(cases)('%s', async (city, expected) => {
    const { status, body } = await get(`/api/v1/qibla?city=${q(city)}`);
    expect(status).toBe(200);
    expect(body.location).toMatchObject(expected);
  });

  it('answers with the full Location object of the place, and its zone and default method', async () => {
    const { body } = await get(`/api/v1/times?city=${q('Kadıköy')}&date=2026-03-01`);
    expect(Object.keys(body.location)).toEqual(
      expect.arrayContaining(['id', 'name', 'type', 'country', 'countryName', 'region', 'latitude', 'longitude', 'timeZone', 'path', 'urls']),
    );
    expect(body.location.id).toBe('tr-34-kadikoy');
    expect(body.location.urls).toEqual({
      tr: `${server.baseUrl.replace('127.0.0.1', 'localhost')}/tr/namaz-vakitleri/turkey/istanbul/kadikoy`,
      en: `${server.baseUrl.replace('127.0.0.1', 'localhost')}/en/prayer-times/turkey/istanbul/kadikoy`,
    });
    expect(body.timeZone).toBe('Europe/Istanbul');
    expect(body.method.id).toBe('diyanet');
    const lahore = (await get(`/api/v1/month?city=Lahore&year=2026&month=1`)).body;
    expect([lahore.method.id, lahore.madhab, lahore.timeZone]).toEqual(['karachi', 'hanafi', 'Asia/Karachi']);
  });

  it.each(['Nowhereville', 'Paris, Atlantis', 'turkey/istanbul/nowhere'])('%s is 404 city_not_found', async (city) => {
    const { status, body } = await get(`/api/v1/times?city=${q(city)}`);
    expect(status).toBe(404);
    expect(body.error.code).toBe('city_not_found');
    expect(body.error.message).toContain('/api/v1/cities');
  });
});

describe('/api/v1/cities', () => {
  it('ranks best first with prefix matches', async () => {
    const ist = (await get('/api/v1/cities?q=ist')).body;
    expect(ist.query).toBe('ist');
    expect(ist.cities).toHaveLength(10);
    expect(ist.cities[0].name).toBe('İstanbul'); // Diyanet's spelling (docs/catalog.md, "Names and paths")
    const populations = ist.cities.map((c: any) => c.population ?? 0);
    expect(populations[0]).toBeGreaterThan(10_000_000);
    const newYork = (await get(`/api/v1/cities?q=${q('new y')}`)).body;
    expect(newYork.cities[0]).toMatchObject({ name: 'New York City', country: 'US' });
  });

  it('finds Kadıköy as docs/catalog.md says: not in the first 10 for kad, within the first 50, first for kadik and Kadıköy', async () => {
    const kadikoy = 'turkey/istanbul/kadikoy';
    const first10 = (await get('/api/v1/cities?q=kad')).body.cities;
    expect(first10).toHaveLength(10);
    expect(first10.map((c: any) => c.path)).not.toContain(kadikoy);
    expect(first10.map((c: any) => c.name)).toEqual(expect.arrayContaining(['Kaduna', 'Cardiff', 'Cadiz']));
    const first50 = (await get('/api/v1/cities?q=kad&limit=50')).body.cities;
    expect(first50.map((c: any) => c.path)).toContain(kadikoy);
    for (const query of ['kadik', 'Kadıköy']) {
      const paths = (await get(`/api/v1/cities?q=${q(query)}`)).body.cities.map((c: any) => c.path);
      expect(paths[0], query).toBe(kadikoy);
      // …and before the village of that name in Yalova.
      expect(paths.indexOf('turkey/yalova/kadikoy'), query).toBeGreaterThan(0);
    }
  });

  it('puts an exact name before prefix matches', async () => {
    const { body } = await get('/api/v1/cities?q=paris&limit=5');
    expect(body.cities[0]).toMatchObject({ name: 'Paris', country: 'FR' });
    expect(body.cities.every((c: any) => c.name.toLowerCase().startsWith('paris') || c.name === 'Paris')).toBe(true);
  });

  it('honours limit, 10 by default', async () => {
    expect((await get('/api/v1/cities?q=san')).body.cities).toHaveLength(10);
    expect((await get('/api/v1/cities?q=san&limit=1')).body.cities).toHaveLength(1);
    expect((await get('/api/v1/cities?q=san&limit=50')).body.cities).toHaveLength(50);
  });

  it('answers no match with an empty list', async () => {
    const { status, body } = await get('/api/v1/cities?q=qqxqzq');
    expect(status).toBe(200);
    expect(body).toEqual({ query: 'qqxqzq', cities: [] });
  });

  it('finds every Turkish district by its name and by "district, province"', async () => {
    const s = defaultSources();
    const provinces = readTurkishProvinces(s.turkishProvinces, s.turkishDistricts);
    const missingByName: string[] = [];
    const missingByPair: string[] = [];
    const merkez = provinces.flatMap((p) => p.districts.filter((d) => d === 'Merkez')).length;
    for (const province of provinces) {
      for (const district of province.districts) {
        const isHere = (c: any) => c.type === 'district' && c.name === district && c.region === province.name;
        const pair = (await get(`/api/v1/cities?q=${q(`${district}, ${province.name}`)}&limit=1`)).body;
        if (!pair.cities.some(isHere)) missingByPair.push(`${district}, ${province.name}`);
        // "Merkez" is the central district of more provinces than one page holds; the pair finds each of them.
        if (district !== 'Merkez') {
          const byName = (await get(`/api/v1/cities?q=${q(district)}&limit=50`)).body;
          if (!byName.cities.some(isHere)) missingByName.push(`${district} (${province.name})`);
        }
      }
    }
    expect(missingByPair).toEqual([]);
    expect(missingByName).toEqual([]);
    expect(merkez).toBeGreaterThan(50);
    // …and "<province> Merkez" finds a central district by name.
    const central = (await get(`/api/v1/cities?q=${q('Yalova Merkez')}&limit=1`)).body;
    expect(central.cities[0]).toMatchObject({ name: 'Merkez', region: 'Yalova', type: 'district' });
  });
});

describe('coordinates with the catalog', () => {
  it('name the nearest catalog place, whose country picks the defaults', async () => {
    const cases = [
      ...COUNTRY_DEFAULT_CASES,
      // Tromsø: the nearest place says Norway (and the zone is Norway's own, Europe/Oslo).
      ['NO', 69.6496, 18.956, 'muslimWorldLeague', 'shafi'],
      // Prishtina: Kosovo has no zone of its own (Europe/Belgrade says Serbia): only the nearest place says Kosovo.
      ['XK', 42.66, 21.17, 'kosovo', 'shafi'],
    ];
    for (const [country, lat, lon, method, madhab] of cases) {
      const { body } = await get(`/api/v1/times?lat=${lat}&lon=${lon}&date=2026-05-01`);
      expect(body.location.nearestCity.country, `${lat},${lon}`).toBe(country);
      expect(body.method.id).toBe(method);
      expect(body.madhab).toBe(madhab);
      expect(body.location.nearestCity.nearestCity).toBeUndefined();
    }
  });

  it('at sea, where geo-tz gives only Etc/GMT±N, take the nearest place’s zone', async () => {
    const azores = (await get('/api/v1/times?lat=38&lon=-30&date=2026-05-01')).body;
    expect(azores.timeZone).toBe('Atlantic/Azores');
    expect(azores.location.nearestCity.timeZone).toBe('Atlantic/Azores');
    const offHawaii = (await get('/api/v1/times?lat=21&lon=-158.5&date=2026-05-01')).body;
    expect(offHawaii.timeZone).toBe('Pacific/Honolulu');
    // On land the polygons decide, and tz still overrides both.
    const given = (await get('/api/v1/times?lat=38&lon=-30&tz=UTC&date=2026-05-01')).body;
    expect(given.timeZone).toBe('Etc/UTC'); // the canonical name of the link UTC
  });
});

describe('the zone of a point', () => {
  it('is its own country’s, and a catalog place’s coordinates keep its clock before 1970 too', async () => {
    const cases: Array<[string, number, number, string]> = [
      ['Kampala', 0.3163, 32.5822, 'Africa/Kampala'],
      ['La Paz, BO', -16.5, -68.15, 'America/La_Paz'],
      ['Oslo', 59.9139, 10.7522, 'Europe/Oslo'],
      ['Papeete', -17.5516, -149.5585, 'Pacific/Tahiti'],
      ['Jayapura', -2.5337, 140.718, 'Asia/Jayapura'],
      ['Kinshasa', -4.3217, 15.3125, 'Africa/Kinshasa'],
      ['Kuala Lumpur', 3.139, 101.6869, 'Asia/Kuala_Lumpur'],
      ['Dublin', 53.3498, -6.2603, 'Europe/Dublin'],
    ];
    for (const [city, lat, lon, zone] of cases) {
      const byPoint = (await get(`/api/v1/times?lat=${lat}&lon=${lon}&date=1935-06-01`)).body;
      const byCity = (await get(`/api/v1/times?city=${q(city)}&date=1935-06-01`)).body;
      expect([byPoint.timeZone, byCity.location.timeZone], city).toEqual([zone, zone]);
      // Kampala kept +02:30 in 1935, not Riyadh's local mean time: the same fajr by either way of asking, to the
      // minute (the two points are a few kilometres apart).
      const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
      expect(Math.abs(minutes(byPoint.times.fajr) - minutes(byCity.times.fajr)), city).toBeLessThanOrEqual(1);
    }
  });
});

describe('health', () => {
  it('reports the catalog', async () => {
    const { body } = await get('/healthz');
    const catalog = readFileSync(`${inject('catalogDataDir')}/catalog/catalog.msgpack`);
    expect(catalog.length).toBeGreaterThan(1_000_000);
    expect(body.status).toBe('ok');
    expect(typeof body.catalogBuiltAt).toBe('string');
  });
});
