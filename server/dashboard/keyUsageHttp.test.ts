// Usage per key, operation and outcome over real HTTP on the real server (issue 32): two keys of one account make
// requests that succeed, fail (400), reach the minute's limit (429) and are refused by a restriction (403
// key_restricted); within seconds the usage page's table gives each key's counts by operation and outcome, `?key=`
// narrows it to one key with its requests per day (chart and table agree), and a key that is not the account's is a
// 404. Two serving threads count into the same store.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardBrowser, outboxMail } from '../../testing/dashboardBrowser.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const newKeyOf = (text: string): string => /<code class="new-key">(mk_[0-9A-Za-z]{32})<\/code>/.exec(text)![1];
const idOf = (listText: string, name: string): string => {
  const row = listText.split('<tr>').find((r) => r.includes(`>${name}</a>`))!;
  return /href="\/dashboard\/keys\/([0-9a-f]{16})"/.exec(row)![1];
};

/** The counts of one row of the table by key and operation, by outcome (and `counted`), or undefined without the row. */
function rowCounts(page: string, keyId: string, operation: string): Record<string, number> | undefined {
  const row = new RegExp(`<tr data-key="${keyId}" data-operation="${operation}">(.*?)</tr>`).exec(page)?.[1];
  if (row === undefined) return undefined;
  const counts: Record<string, number> = {};
  for (const m of row.matchAll(/data-outcome="([^"]+)" data-count="(\d+)"/g)) counts[m[1]] = Number(m[2]);
  counts.counted = Number(/data-counted="(\d+)"/.exec(row)![1]);
  return counts;
}

describe('usage per key, operation and outcome', () => {
  let server: RunningServer;
  let alice: DashboardBrowser;
  const keys = { web: '', backend: '' };
  const ids = { web: '', backend: '' };

  async function api(key: string, pathAndQuery: string, headers: Record<string, string> = {}): Promise<number> {
    const res = await fetch(server.baseUrl + pathAndQuery, { headers: { 'X-API-Key': key, ...headers } });
    await res.arrayBuffer();
    return res.status;
  }

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dash-key-usage-'));
    const plansFile = path.join(dir, 'plans.json');
    // Eight requests a minute: the ninth is a 429.
    writeFileSync(plansFile, JSON.stringify({ trial: { perMinute: 8, perMonth: 1000 } }));
    server = await startServer({ PLANS_FILE: plansFile, WORKERS: '2' });
    alice = DashboardBrowser.forServer(server);
    expect((await alice.signIn('usage@example.com', (email) => outboxMail(server.dataDir, email))).status).toBe(303);
    await alice.get('/dashboard/keys');
    keys.backend = newKeyOf((await alice.post('/dashboard/keys', { name: 'backend' })).text);
    await alice.get('/dashboard/keys');
    keys.web = newKeyOf((await alice.post('/dashboard/keys', { name: 'web' })).text);
    const list = (await alice.get('/dashboard/keys')).text;
    ids.backend = idOf(list, 'backend');
    ids.web = idOf(list, 'web');
    // The web key may be used from its own site only.
    expect((await alice.post(`/dashboard/keys/${ids.web}`, { name: 'web', origins: 'https://app.example.com', ranges: '' })).status).toBe(303);
    await sleep(1100); // both keys and the restriction reach both threads
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('counts what became of each request by key and operation, shown within seconds', async () => {
    for (let i = 0; i < 3; i++) expect(await api(keys.backend, `/api/v1/times?lat=41&lon=${29 + i}`)).toBe(200);
    expect(await api(keys.backend, '/api/v1/times?lat=91&lon=29')).toBe(400);
    expect(await api(keys.backend, '/api/v1/times?lat=41&lon=29&nope=1')).toBe(400);
    expect(await api(keys.backend, '/api/v1/qibla?lat=41&lon=29')).toBe(200);
    expect(await api(keys.web, '/api/v1/qibla?lat=41&lon=29', { Origin: 'https://elsewhere.example' })).toBe(403);
    expect(await api(keys.web, '/api/v1/qibla?lat=41&lon=29', { Origin: 'https://app.example.com' })).toBe(200);
    expect(await api(keys.web, '/api/v1/hijri?date=2026-02-18', { Origin: 'https://app.example.com' })).toBe(200);
    expect(await api(keys.web, '/api/v1/qibla?lat=41&lon=29', { Origin: 'https://app.example.com' })).toBe(429);

    let page = '';
    const started = Date.now();
    for (;;) {
      page = (await alice.get('/dashboard/usage')).text;
      if (rowCounts(page, ids.web, 'getQibla')?.['429'] === 1 && rowCounts(page, ids.backend, 'getPrayerTimes')?.['2xx'] === 3) break;
      if (Date.now() - started > 12_000) throw new Error(`usage per key not shown within 12 s:\n${page}`);
      await sleep(250);
    }
    expect(rowCounts(page, ids.backend, 'getPrayerTimes')).toEqual({ '2xx': 3, '4xx': 2, '5xx': 0, '429': 0, restricted: 0, counted: 5 });
    expect(rowCounts(page, ids.backend, 'getQibla')).toEqual({ '2xx': 1, '4xx': 0, '5xx': 0, '429': 0, restricted: 0, counted: 1 });
    expect(rowCounts(page, ids.web, 'getQibla')).toEqual({ '2xx': 1, '4xx': 0, '5xx': 0, '429': 1, restricted: 1, counted: 1 });
    expect(rowCounts(page, ids.web, 'getHijriDate')).toEqual({ '2xx': 1, '4xx': 0, '5xx': 0, '429': 0, restricted: 0, counted: 1 });
    // The counted ones are the month's count (the 429 and the refusal are not counted against the quota).
    expect(page).toMatch(/<span data-count="8" data-limit="1000">/);
    const total = /<tfoot><tr><th scope="row" colspan="2">Total<\/th>(.*?)<\/tr><\/tfoot>/.exec(page)![1];
    expect(total).toContain('data-counted="8"');
    // Rows: the keys in the order they were made, operations by name.
    const order = [...page.matchAll(/<tr data-key="([0-9a-f]{16})" data-operation="([^"]+)">/g)].map((m) => `${m[1] === ids.backend ? 'backend' : 'web'} ${m[2]}`);
    expect(order).toEqual(['backend getPrayerTimes', 'backend getQibla', 'web getHijriDate', 'web getQibla']);
  });

  it('?key= shows one key: its rows, and its requests per day as a chart and a table that agree', async () => {
    const page = (await alice.get(`/dashboard/usage?key=${ids.web}`)).text;
    expect(page).toContain(`<option value="${ids.web}" selected>`);
    expect(rowCounts(page, ids.backend, 'getQibla')).toBeUndefined();
    expect(rowCounts(page, ids.web, 'getQibla')?.counted).toBe(1);
    const table = /<table class="usage" id="key-daily-usage">(.*?)<\/table>/s.exec(page)![1];
    const rows = [...table.matchAll(/<time datetime="(\d{4}-\d{2}-\d{2})">[^<]*<\/time><\/th><td data-count="(\d+)">/g)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(rows.at(-1)).toEqual([today, 2]);
    const chart = /<svg[^>]*aria-describedby="key-daily-usage"[^>]*>(.*?)<\/svg>/s.exec(page)![1];
    const bars = [...chart.matchAll(/data-day="(\d{4}-\d{2}-\d{2})" data-count="(\d+)"/g)].map((m) => [m[1], Number(m[2])]);
    expect(bars).toEqual(rows);
    const tr = (await alice.get(`/dashboard/usage?key=${ids.web}&lang=tr`)).text;
    expect(tr).toContain('Anahtara ve işleme göre');
    await alice.get('/dashboard/usage?lang=en');
  });

  it('a key that is not the account’s, or no key at all, is a 404 page', async () => {
    expect((await alice.get('/dashboard/usage?key=0123456789abcdef')).status).toBe(404);
    expect((await alice.get('/dashboard/usage?key=%3Cscript%3E')).status).toBe(404);
    const bob = DashboardBrowser.forServer(server);
    expect((await bob.signIn('bob-usage@example.com', (email) => outboxMail(server.dataDir, email))).status).toBe(303);
    expect((await bob.get(`/dashboard/usage?key=${ids.web}`)).status).toBe(404);
    const own = (await bob.get('/dashboard/usage')).text;
    expect(own).toContain('No requests in the last 30 days.');
    expect(own).not.toContain(ids.web);
  });
});
