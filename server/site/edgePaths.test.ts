// Paths people type, from a real server with two serving threads: the fixed top-level paths in another case (`/EN`,
// `/Dashboard`, `/Docs/API`) and a page's path in another case are sent (301) to the lower-case path, a country named
// in Turkish or English (`/tr/namaz-vakitleri/turkiye/…`) to the catalog's slug, and what must stay as it is does
// (the API's paths, a POST, asset names). And a new server's first /en and /tr cost what the next ones do: each
// thread renders the homes before taking requests.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exchange, type RawResponse } from '../../deploy/rawHttp.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';

const THREADS = 2;
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), WORKERS: String(THREADS), LOG_LEVEL: 'info' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** One request on a connection of its own (the kernel spreads new connections over the threads). */
async function send(method: string, path: string, headers: string[] = []): Promise<RawResponse> {
  const { response, connection } = await exchange(server.port, [`${method} ${path} HTTP/1.1`, 'Host: a', ...headers, '', ''].join('\r\n'), { head: method === 'HEAD' });
  connection.close();
  return response;
}

const base = (): string => `http://localhost:${server.port}`;

describe('a new server', () => {
  it('has rendered the homes in each thread before taking requests: the first /en and /tr are as quick as the next', async () => {
    // Each thread says so once, before the server says it listens (the log is written in batches: wait for it).
    for (let i = 0; i < 100 && server.output.filter((l) => l.includes('"site_warmed"')).length < THREADS; i++) await new Promise((r) => setTimeout(r, 50));
    const warmed = server.output.filter((l) => l.includes('"site_warmed"')).map((l) => JSON.parse(l));
    expect(warmed).toHaveLength(THREADS);
    for (const line of warmed) expect(line.pages).toBeGreaterThanOrEqual(3);

    // Over new connections, so that both threads answer some: the first answer of each path against the slowest of
    // the ones after. Without the warming the first /en took a second or more (the place directory); here it is
    // generous, for a shared machine.
    for (const path of ['/en', '/tr']) {
      const first = await send('GET', path);
      expect(first.status).toBe(200);
      const next: number[] = [];
      for (let i = 0; i < 6; i++) next.push((await send('GET', path)).ms);
      expect(first.ms, `${path}: first ${first.ms.toFixed(1)} ms, then ${next.map((ms) => ms.toFixed(1)).join(', ')}`).toBeLessThan(Math.max(...next) * 5 + 150);
    }
  });
});

describe('wrong-case paths', () => {
  it.each([
    ['/EN', '/en'],
    ['/TR', '/tr'],
    ['/Tr', '/tr'],
    ['/Docs', '/docs'],
    ['/DOCS/api', '/docs/api'],
    ['/docs/API', '/docs/api'],
    ['/Pricing', '/pricing'],
    ['/Robots.txt', '/robots.txt'],
    ['/Sitemap.xml', '/sitemap.xml'],
    ['/Dashboard', '/dashboard'],
    ['/Dashboard/Sign-In', '/dashboard/sign-in'],
    ['/dashboard/Keys', '/dashboard/keys'],
    ['/en/Prayer-Times/Turkey', '/en/prayer-times/turkey'],
    ['/en/prayer-times/Turkey/Istanbul/Kadikoy', '/en/prayer-times/turkey/istanbul/kadikoy'],
    ['/en/Search?q=Istanbul', '/en/search?q=Istanbul'],
  ])('%s → %s (301, the query as it was)', async (path, target) => {
    const response = await send('GET', path);
    expect(response.status, path).toBe(301);
    // `/EN/Prayer-Times/…` takes two steps (the first segment, then the page's own path); these take one.
    expect(response.headers.location).toBe(`${base()}${target}`);
    // The dashboard's keys send a visitor with no session to sign in; a search for one clear place goes to it.
    const landed = await send('GET', target);
    expect([200, 302, 303], target).toContain(landed.status);
  });

  it('a doubly wrong path gets there in two steps; HEAD too', async () => {
    const first = await send('HEAD', '/EN/Prayer-Times/Turkey');
    expect(first.status).toBe(301);
    expect(first.headers.location).toBe(`${base()}/en/Prayer-Times/Turkey`);
    const second = await send('HEAD', '/en/Prayer-Times/Turkey');
    expect(second.status).toBe(301);
    expect(second.headers.location).toBe(`${base()}/en/prayer-times/turkey`);
  });

  it('leaves alone what is not a typed page: the API, a POST, asset names, unknown paths', async () => {
    const api = await send('GET', '/API/v1/openapi.json');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.text).error.code).toBe('not_found');
    const post = await send('POST', '/Dashboard/sign-in/email', ['Content-Type: application/x-www-form-urlencoded', 'Content-Length: 0']);
    expect(post.status).toBe(404);
    // An asset's name is what pages link, in its case; another case is no asset.
    expect((await send('GET', '/assets/Site.css')).status).toBe(404);
    const unknown = await send('GET', '/en/Nowhere-At-All');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await send('GET', '/Elsewhere')).status).toBe(404);
  });
});

describe('a country named in the page’s language', () => {
  it.each([
    ['/tr/namaz-vakitleri/turkiye/istanbul/kadikoy', '/tr/namaz-vakitleri/turkey/istanbul/kadikoy'],
    ['/tr/namaz-vakitleri/t%C3%BCrkiye/istanbul/kadikoy', '/tr/namaz-vakitleri/turkey/istanbul/kadikoy'],
    ['/tr/namaz-vakitleri/turkiye', '/tr/namaz-vakitleri/turkey'],
    ['/tr/namaz-vakitleri/turkiye/ankara', '/tr/namaz-vakitleri/turkey/ankara'],
    ['/tr/namaz-vakitleri/almanya', '/tr/namaz-vakitleri/germany'],
    ['/tr/namaz-vakitleri/suudi-arabistan', '/tr/namaz-vakitleri/saudi-arabia'],
    ['/tr/namaz-vakitleri/m%C4%B1s%C4%B1r', '/tr/namaz-vakitleri/egypt'],
    ['/en/prayer-times/turkiye/istanbul/kadikoy', '/en/prayer-times/turkey/istanbul/kadikoy'],
  ])('%s → %s', async (path, target) => {
    const response = await send('GET', path);
    expect(response.status, path).toBe(301);
    expect(response.headers.location).toBe(`${base()}${target}`);
    expect((await send('GET', target)).status, target).toBe(200);
  });

  it('a country name with no such place under it is still the 404 page', async () => {
    const response = await send('GET', '/tr/namaz-vakitleri/turkiye/istanbul/no-such-place');
    expect(response.status).toBe(404);
    expect(response.text).toContain('lang="tr"');
  });
});
