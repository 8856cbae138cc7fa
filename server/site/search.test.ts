// The site's search over HTTP (issue 30): typos and a place with its region in either order are found; when one place
// is clearly meant the answer is a 302 to its page in the language searched in, otherwise a list in the order for
// people (a far larger place a typo away before a small one matched exactly).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';

const BASE = 'https://prayer-times.example';
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: BASE });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function search(language: 'tr' | 'en', q: string): Promise<{ status: number; location: string | null; text: string; cache: string | null }> {
  const path = language === 'tr' ? '/tr/ara' : '/en/search';
  const res = await fetch(`${server.baseUrl}${path}?q=${encodeURIComponent(q)}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), cache: res.headers.get('cache-control') };
}
const listed = (language: 'tr' | 'en', text: string): string[] =>
  [...text.matchAll(language === 'tr' ? /<li><a href="\/tr\/namaz-vakitleri\/([^"]+)">/g : /<li><a href="\/en\/prayer-times\/([^"]+)">/g)].map((m) => m[1]);

describe('a place clearly meant: 302 to its page', () => {
  it.each([
    ['istanbl', 'turkey/istanbul/istanbul'],
    ['stanbul', 'turkey/istanbul/istanbul'],
    ['jakrta', 'indonesia/jakarta/jakarta'],
    ['kuala lumpr', 'malaysia/kuala-lumpur/kuala-lumpur'],
    ['new yrok', 'united-states/new-york/new-york-city'],
    ['istanbul kadikoy', 'turkey/istanbul/kadikoy'],
    ['Kadıköy İstanbul', 'turkey/istanbul/kadikoy'],
    ['istanbul', 'turkey/istanbul/istanbul'],
    ['Paris', 'france/ile-de-france/paris'],
  ])('%s goes to %s', async (q, path) => {
    const tr = await search('tr', q);
    expect([tr.status, tr.location]).toEqual([302, `${BASE}/tr/namaz-vakitleri/${path}`]);
    const en = await search('en', q);
    expect([en.status, en.location]).toEqual([302, `${BASE}/en/prayer-times/${path}`]);
    expect(en.cache).toMatch(/^public, max-age=\d+$/);
  });
});

describe('several places: a list', () => {
  it('ankra lists Ankara first', async () => {
    for (const language of ['tr', 'en'] as const) {
      const { status, text } = await search(language, 'ankra');
      expect(status).toBe(200);
      expect(listed(language, text)[0]).toBe('turkey/ankara/ankara');
      expect(text).toContain('noindex');
    }
  });

  it('medinah lists Medina in Saudi Arabia first, then Medinah, Illinois', async () => {
    const { status, text } = await search('en', 'medinah');
    expect(status).toBe(200);
    expect(listed('en', text).slice(0, 2)).toEqual(['saudi-arabia/medina-region/medina', 'united-states/illinois/medinah']);
  });

  it('kadikoy lists the İstanbul district first, before the village in Yalova', async () => {
    const { status, text } = await search('tr', 'kadikoy');
    expect(status).toBe(200);
    const paths = listed('tr', text);
    expect(paths[0]).toBe('turkey/istanbul/kadikoy');
    expect(paths).toContain('turkey/yalova/kadikoy');
  });

  it('a prefix is a list even when one place leads (the name may still be being typed)', async () => {
    const { status, text } = await search('en', 'istanb');
    expect(status).toBe(200);
    expect(listed('en', text)[0]).toBe('turkey/istanbul/istanbul');
  });

  it('nothing found, or too short: the page says so', async () => {
    expect((await search('en', 'Qqqqzzzz')).text).toContain('No place matches.');
    expect((await search('en', 'x')).status).toBe(200);
  });
});
