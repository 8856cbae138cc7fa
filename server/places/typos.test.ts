// Typos and a place with its region in either order over HTTP (issue 30): /cities keeps the contract's order (exact,
// then prefix, then typos below them), and `city=` never guesses a typo but names the likely place in its 404.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(server.baseUrl + path, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: await res.json() };
}
const cities = async (q: string, limit = 10): Promise<string[]> => {
  const { status, body } = await get(`/api/v1/cities?q=${encodeURIComponent(q)}&limit=${limit}`);
  expect(status, q).toBe(200);
  return body.cities.map((c: { path: string }) => c.path);
};

describe('/api/v1/cities with typos', () => {
  it.each([
    ['istanbl', 'turkey/istanbul/istanbul'],
    ['stanbul', 'turkey/istanbul/istanbul'],
    ['jakrta', 'indonesia/jakarta/jakarta'],
    ['kuala lumpr', 'malaysia/kuala-lumpur/kuala-lumpur'],
    ['new yrok', 'united-states/new-york/new-york-city'],
    ['istanbul kadikoy', 'turkey/istanbul/kadikoy'],
    ['kadikoy istanbul', 'turkey/istanbul/kadikoy'],
  ])('%s finds %s first', async (q, path) => {
    expect((await cities(q))[0]).toBe(path);
  });

  it('puts typos below the exact and prefix matches: ankra, medinah', async () => {
    const ankra = await cities('ankra');
    expect(ankra.indexOf('turkey/ankara/ankara')).toBeGreaterThan(0);
    expect(ankra.indexOf('turkey/ankara/ankara')).toBeLessThanOrEqual(2);
    expect((await cities('medinah')).slice(0, 2)).toEqual(['united-states/illinois/medinah', 'saudi-arabia/medina-region/medina']);
  });

  it('fills the list with typos only below a full list of exact and prefix matches', async () => {
    // "kad" has more than 50 prefix matches: no typo among them, as before.
    const kad = await cities('kad', 50);
    expect(kad).toHaveLength(50);
    expect(kad).toContain('turkey/istanbul/kadikoy');
    const { body } = await get('/api/v1/cities?q=qqxqzq');
    expect(body).toEqual({ query: 'qqxqzq', cities: [] });
  });
});

describe('city= with a typo', () => {
  it('is still a 404, naming the place a search would put first', async () => {
    const { status, body } = await get(`/api/v1/times?city=istanbl`);
    expect(status).toBe(404);
    expect(body.error.code).toBe('city_not_found');
    expect(body.error.message).toBe('No place matches city="istanbl"; did you mean İstanbul (city=turkey/istanbul/istanbul)? Try /api/v1/cities?q= to search.');
    const nothing = await get(`/api/v1/times?city=Nowhereville`);
    expect(nothing.body.error.message).toBe('No place matches city="Nowhereville"; try /api/v1/cities?q= to search.');
  });

  it('resolves what it resolved before', async () => {
    expect((await get(`/api/v1/qibla?city=${encodeURIComponent('Kadıköy')}`)).body.location.path).toBe('turkey/istanbul/kadikoy');
    expect((await get('/api/v1/qibla?city=medinah')).body.location.path).toBe('united-states/illinois/medinah');
  });
});
