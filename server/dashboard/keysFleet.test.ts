// A key's restrictions and its usage in fleet mode (issue 32): three real servers on one real Redis; the settings are
// saved through one server's dashboard and every server refuses a request from outside them within a second; the
// requests answered by all three are summed in the usage page of any of them.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DashboardBrowser, outboxMail } from '../../testing/dashboardBrowser.js';
import { startFleet, within, type Fleet } from '../../testing/fleet.js';

const API = '/api/v1/qibla?lat=41&lon=29';
const ORIGIN = 'http://fleet.localhost';

describe('restrictions and usage per key on three servers', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({
      catalogDataDir: inject('catalogDataDir'),
      servers: 3,
      plans: { trial: { perMinute: 1000, perMonth: 100_000 } },
      // One public origin for all three, as behind a load balancer.
      env: { PUBLIC_BASE_URL: ORIGIN },
    });
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  /** The same browser (cookies, form token) sent to another server. */
  const moveTo = (from: DashboardBrowser | undefined, server: number): DashboardBrowser => {
    const next = new DashboardBrowser(fleet.servers[server].baseUrl, ORIGIN, from?.clientAddress);
    for (const [name, value] of from?.cookies ?? []) next.cookies.set(name, value);
    next.csrf = from?.csrf ?? '';
    return next;
  };
  /** What this test saw, to compare with the page: 200s and key_restricted refusals of the key. */
  const seen = { ok: 0, restricted: 0 };
  const onEvery = async (key: string, headers: Record<string, string> = {}) => {
    const answers = await Promise.all(fleet.alive().map((server) => fleet.request(API, { key, server, headers })));
    for (const a of answers) {
      if (a.status === 200) seen.ok++;
      else if (a.status === 403 && a.body.error.code === 'key_restricted') seen.restricted++;
    }
    return answers;
  };

  it('saved on one server, refused on every server within a second; usage summed over all three', async () => {
    let browser = moveTo(undefined, 0);
    expect((await browser.askCode('erin@example.com')).status).toBe(200);
    const mail = await outboxMail(fleet.servers[0].dataDir, 'erin@example.com');
    expect((await browser.post('/dashboard/sign-in/code', { code: mail.code })).status).toBe(303);
    await browser.get('/dashboard/keys');
    const key = /<code class="new-key">(mk_[0-9A-Za-z]{32})<\/code>/.exec((await browser.post('/dashboard/keys', { name: 'fleet web' })).text)![1];
    const id = /href="\/dashboard\/keys\/([0-9a-f]{16})"/.exec((await browser.get('/dashboard/keys')).text)![1];
    await within(1000, 'the key everywhere', async () => (await onEvery(key)).every((a) => a.status === 200));

    browser = moveTo(browser, 1);
    await browser.get(`/dashboard/keys/${id}`);
    expect((await browser.post(`/dashboard/keys/${id}`, { name: 'fleet web', origins: 'https://app.example.com', ranges: '' })).status).toBe(303);
    const tookMs = await within(1000, 'the restriction everywhere', async () =>
      (await onEvery(key, { Origin: 'https://elsewhere.example' })).every((a) => a.status === 403 && a.body.error.code === 'key_restricted'),
    );
    expect(tookMs).toBeLessThanOrEqual(1000);
    for (const a of await onEvery(key, { Origin: 'https://app.example.com' })) expect(a.status).toBe(200);

    // Each server writes its counts within 5 s; any server's page shows the sum.
    browser = moveTo(browser, 2);
    await within(12_000, 'the usage per key of all three', async () => {
      const page = (await browser.get(`/dashboard/usage?key=${id}`)).text;
      const row = new RegExp(`<tr data-key="${id}" data-operation="getQibla">(.*?)</tr>`).exec(page)?.[1] ?? '';
      const restricted = Number(/data-outcome="restricted" data-count="(\d+)"/.exec(row)?.[1] ?? -1);
      const ok = Number(/data-outcome="2xx" data-count="(\d+)"/.exec(row)?.[1] ?? -1);
      return restricted === seen.restricted && ok === seen.ok;
    });
    expect(seen.restricted).toBeGreaterThanOrEqual(3);
    expect(seen.ok).toBeGreaterThanOrEqual(6);
  }, 60_000);
});
