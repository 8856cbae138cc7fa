// The keys and usage pages over real HTTP on the real server: signed in by e-mail code (outbox mode), creating a key
// that works on the API within a second, revoking it (403 within a second), CSRF on both POSTs, another account's
// key untouched, CLI keys in the same list, and the usage page's counts against the API's.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardBrowser, outboxMail } from '../../testing/dashboardBrowser.js';
import { runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';

const API = '/api/v1/qibla?lat=41&lon=29';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function apiStatus(server: RunningServer, key: string): Promise<number> {
  const res = await fetch(server.baseUrl + API, { headers: { 'X-API-Key': key } });
  await res.arrayBuffer();
  return res.status;
}

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(50);
  }
}

const newKeyOf = (text: string): string => /<code class="new-key">(mk_[0-9A-Za-z]{32})<\/code>/.exec(text)![1];
const revokeIds = (text: string): string[] => [...text.matchAll(/action="\/dashboard\/keys\/([0-9a-f]{16})\/revoke"/g)].map((m) => m[1]);

describe('keys and usage in the dashboard', () => {
  let server: RunningServer;
  let alice: DashboardBrowser;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dash-keys-'));
    const plansFile = path.join(dir, 'plans.json');
    // Room for the tests' requests on a new account's trial plan; the limits shown are these.
    writeFileSync(plansFile, JSON.stringify({ trial: { perMinute: 500, perMonth: 5000 } }));
    server = await startServer({ PLANS_FILE: plansFile });
    alice = DashboardBrowser.forServer(server);
    const signedIn = await alice.signIn('alice@example.com', (email) => outboxMail(server.dataDir, email));
    expect(signedIn.status).toBe(303);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('needs a session: a GET goes to sign-in, a POST is refused', async () => {
    const stranger = DashboardBrowser.forServer(server);
    const list = await stranger.get('/dashboard/keys');
    expect(list.status).toBe(303);
    expect(list.headers.get('location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fkeys');
    expect((await stranger.get('/dashboard/usage')).status).toBe(303);
    expect((await stranger.post('/dashboard/keys', { name: 'x' })).status).toBe(403);
  });

  it('creates a named key, shows it once (no-store), and it works on the API within a second', async () => {
    const page = await alice.get('/dashboard/keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain('You have no keys yet');
    const created = await alice.post('/dashboard/keys', { name: '<script>alert(1)</script>' });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('content-security-policy')).toBeTruthy();
    const key = newKeyOf(created.text);
    expect(created.text).not.toContain('<script>alert(1)');
    expect(created.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(await within(1000, async () => (await apiStatus(server, key)) === 200)).toBeLessThan(1000);

    // Listed with the escaped name, prefix and last four; the key itself never again.
    const list = await alice.get('/dashboard/keys');
    expect(list.text).toContain(`<code>${key.slice(0, 9)}…${key.slice(-4)}</code>`);
    expect(list.text).not.toContain(key);
    expect(list.text).not.toContain('<script>alert(1)');
    expect(list.text).toContain('<td data-label="State">active</td>');
    expect(revokeIds(list.text)).toHaveLength(1);
  });

  it('refuses a create or a revoke without the form token or from another origin', async () => {
    const before = revokeIds((await alice.get('/dashboard/keys')).text);
    expect((await alice.post('/dashboard/keys', { name: 'forged', csrf: 'wrong' })).status).toBe(403);
    expect((await alice.post('/dashboard/keys', { name: 'forged' }, { csrf: false })).status).toBe(403);
    expect((await alice.post('/dashboard/keys', { name: 'forged' }, { origin: 'https://evil.example' })).status).toBe(403);
    await alice.get('/dashboard/keys');
    expect((await alice.post(`/dashboard/keys/${before[0]}/revoke`, { confirm: 'yes' }, { origin: null })).status).toBe(403);
    expect((await alice.post(`/dashboard/keys/${before[0]}/revoke`, { confirm: 'yes', csrf: 'wrong' })).status).toBe(403);
    const after = await alice.get('/dashboard/keys');
    expect(after.text).not.toContain('forged');
    expect(revokeIds(after.text)).toEqual(before);
  });

  it('an empty name is a 400 with the form again; nothing is made', async () => {
    await alice.get('/dashboard/keys');
    const refused = await alice.post('/dashboard/keys', { name: '   ' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Give the key a name.');
    expect(revokeIds(refused.text)).toHaveLength(1);
  });

  it('revokes a key: 303 back to the list, 403 on the API within a second, shown revoked with no form', async () => {
    await alice.get('/dashboard/keys');
    const created = await alice.post('/dashboard/keys', { name: 'to revoke' });
    const key = newKeyOf(created.text);
    await within(1000, async () => (await apiStatus(server, key)) === 200);
    const list = await alice.get('/dashboard/keys');
    const row = list.text.split('<tr>').find((r) => r.includes('to revoke'))!;
    const id = revokeIds(row)[0];
    // (Through the page that asks first: portalJourney.test.ts.)
    const revoked = await alice.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes' });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe(`/dashboard/keys?revoked=${id}`);
    expect(await within(1000, async () => (await apiStatus(server, key)) === 403)).toBeLessThan(1000);
    const after = await alice.get(revoked.headers.get('location')!);
    expect(after.text).toContain('role="status">Revoked to revoke');
    expect(revokeIds(after.text)).not.toContain(id);
    expect(after.text).toMatch(/revoked on \d{4}-\d{2}-\d{2}/);
    // Again: the key is not active any more, nothing changes, the list says so.
    expect((await alice.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes' })).status).toBe(303);
    expect(await apiStatus(server, key)).toBe(403);
  });

  it('another account cannot revoke the key: 404, and the key keeps working', async () => {
    const aliceIds = revokeIds((await alice.get('/dashboard/keys')).text);
    const bob = DashboardBrowser.forServer(server);
    expect((await bob.signIn('bob@example.com', (email) => outboxMail(server.dataDir, email))).status).toBe(303);
    await bob.get('/dashboard/keys');
    const refused = await bob.post(`/dashboard/keys/${aliceIds[0]}/revoke`, { confirm: 'yes' });
    expect(refused.status).toBe(404);
    expect((await bob.get(`/dashboard/keys/${aliceIds[0]}/revoke`)).status).toBe(404);
    expect((await bob.post('/dashboard/keys/not-an-id/revoke', { confirm: 'yes' })).status).toBe(404);
    expect(revokeIds((await alice.get('/dashboard/keys')).text)).toEqual(aliceIds);
  });

  it('keys made with the CLI for the same address are in the same list, named', async () => {
    const made = await runCli(['keys', 'create', '--email', 'alice@example.com', '--name', 'From the CLI'], { DATA_DIR: server.dataDir });
    expect(made.code).toBe(0);
    const { key } = JSON.parse(made.stdout);
    const list = await alice.get('/dashboard/keys');
    expect(list.text).toContain('From the CLI');
    expect(list.text).toContain(`${key.slice(0, 9)}…${key.slice(-4)}`);
  });

  it('the usage page counts what the API counted: this minute, this month and today, in both languages', async () => {
    const carol = DashboardBrowser.forServer(server);
    await carol.signIn('carol@example.com', (email) => outboxMail(server.dataDir, email));
    await carol.get('/dashboard/keys');
    const key = newKeyOf((await carol.post('/dashboard/keys', { name: 'usage' })).text);
    const firstDay = new Date().toISOString().slice(0, 10);
    await within(1000, async () => (await apiStatus(server, key)) === 200);
    for (let i = 0; i < 11; i++) expect(await apiStatus(server, key)).toBe(200);
    await sleep(1300); // the writer's flush: every second
    const page = await carol.get('/dashboard/usage');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('<span data-count="12" data-limit="500">12 of 500</span>');
    expect(page.text).toContain('<span data-count="12" data-limit="5000">12 of 5,000</span>');
    const today = new Date().toISOString().slice(0, 10);
    const todayRow = new RegExp(`<time datetime="${today}">${today}</time></th><td data-count="(\\d+)">`).exec(page.text);
    const bar = new RegExp(`data-day="${today}" data-count="(\\d+)"`).exec(page.text);
    // (A run across midnight may split the 12 over two days; the minute and the month say 12 all the same.)
    if (firstDay === today) expect(Number(todayRow![1])).toBe(12);
    expect(Number(todayRow?.[1] ?? 0)).toBeLessThanOrEqual(12);
    expect(bar?.[1]).toBe(todayRow?.[1]);
    expect(page.text).toMatch(/<svg class="usage-chart"[^>]* role="img" aria-labelledby="daily-usage-title" aria-describedby="daily-usage"/);
    const tr = await carol.get('/dashboard/usage?lang=tr');
    expect(tr.text).toContain('<html lang="tr">');
    expect(tr.text).toContain('12 / 500');
  });
});
