// /docs/api's try-it forms in Chromium, at 360 px and on a desktop, on a server with `make run`'s demo key: the key
// pasted into one form fills the others; Send asks the API from the page with the key in the Authorization header (to
// the page's own origin, never in an address, stored nowhere) and shows "200 OK", the response headers with the
// rate-limit and quota headers, and the body pretty-printed, equal to the API's answer; a wrong key shows the 401 and
// its error, no key the other 401. The code samples' details open one at a time, with JavaScript and without. Without
// JavaScript the forms stay hidden and the note says why. axe-clean in every state, light and dark (axe runs as the
// page's script, so the state without JavaScript is checked as the page is with the try-it script blocked). A
// screenshot of the panel after a 200 goes to the temporary folder (prayer-times-try-it-en.png);
// docs/screenshots/try-it-en.png is a copy of it.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage } from '../../testing/browser.js';
import { dataDirWithCatalog, runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { demoKeyFile } from '../accounts/demoKey.js';
import { API_REFERENCE_PATH } from '../links.js';

/**
 * The server as `make run` starts it: the demo account made by the CLI (`npm run cli -- demo`), its key read from
 * DATA_DIR/demo-key.txt, the default plans, no PUBLIC_BASE_URL.
 */
const site = {
  server: undefined as unknown as RunningServer,
  key: '',
  async api(request: string): Promise<unknown> {
    const res = await fetch(site.server.baseUrl + request, { headers: { Authorization: `Bearer ${site.key}` } });
    expect(res.status, request).toBe(200);
    return res.json();
  },
};
const VIEWPORTS = [
  ['360 px', { width: 360, height: 800 }],
  ['desktop', { width: 1280, height: 900 }],
] as const;
/** The first example request of /times, which the form is filled with. */
let timesRequest = '';

let launching: Promise<Browser>;
beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  const dataDir = dataDirWithCatalog(inject('catalogDataDir'));
  const demo = await runCli(['demo'], { DATA_DIR: dataDir });
  expect(demo.code, demo.stderr).toBe(0);
  site.key = readFileSync(demoKeyFile(dataDir), 'utf8').trim();
  expect(demo.stdout).toContain(site.key);
  site.server = await startServer({ DATA_DIR: dataDir });
  const doc: any = await (await fetch(`${site.server.baseUrl}/api/v1/openapi.json`)).json();
  const example: any = Object.values(doc.paths['/api/v1/times'].get.responses['200'].content['application/json'].examples)[0];
  timesRequest = example.description.replace(/^GET /, '');
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await site.server?.stop();
});

const pageUrl = () => site.server.baseUrl + API_REFERENCE_PATH;

/** The API requests the page makes, as they were sent. */
function apiRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) seen.push(request);
  });
  return seen;
}

/** Presses Send in an operation's form and resolves with what the page then shows. */
async function send(page: Page, operationId: string): Promise<{ status: string; request: string; headers: string; body: string }> {
  const result = page.locator(`#${operationId}-try-result`);
  await page.locator(`#${operationId}-try`).getByRole('button', { name: 'Send' }).click();
  await result.locator('[data-try-status]', { hasText: /^\d{3}/ }).waitFor();
  return {
    status: (await result.locator('[data-try-status]').textContent()) ?? '',
    request: (await result.locator('[data-try-request]').textContent()) ?? '',
    headers: (await result.locator('[data-try-headers]').textContent()) ?? '',
    body: (await result.locator('[data-try-body]').textContent()) ?? '',
  };
}

async function expectAxeClean(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(violations)).toEqual([]);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return { scroll: root.scrollWidth as number, client: root.clientWidth as number };
  });
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

describe.each(VIEWPORTS)('Try it at %s', (label, viewport) => {
  it('with the key: 200, the headers with the rate-limit and quota headers, the body as the API gives it; the key in a header alone', async () => {
    const { page, problems, close } = await openPage(await launching, pageUrl(), { viewport });
    try {
      const sent = apiRequests(page);
      await expect(page.locator('.try-it-off').first().isVisible()).resolves.toBe(false);
      const form = page.locator('#getPrayerTimes-try');
      await expect(form.isVisible()).resolves.toBe(true);
      await form.getByLabel('Your API key').fill(site.key);
      // Typed once, every form has it.
      await expect(page.locator('#getQibla-try-key').inputValue()).resolves.toBe(site.key);
      const shown = await send(page, 'getPrayerTimes');
      expect(shown.status).toBe('200 OK');
      expect(shown.request).toMatch(new RegExp(`^GET ${timesRequest.replace(/[.?+]/g, '\\$&')} · \\d+ ms$`));
      for (const name of ['content-type', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-quota-limit', 'x-quota-remaining', 'x-quota-reset', 'x-request-id']) {
        expect(shown.headers).toMatch(new RegExp(`^${name}: \\S`, 'm'));
      }
      expect(shown.headers).toMatch(/^content-type: application\/json/m);
      const answer = await site.api(timesRequest);
      expect(shown.body).toBe(JSON.stringify(answer, null, 2));
      // One request, to this origin's API, the key in the Authorization header and nowhere in the address; the page's
      // own address did not change and nothing on the device holds the key.
      expect(sent.map((r) => r.url())).toEqual([site.server.baseUrl + timesRequest]);
      expect((await sent[0].allHeaders()).authorization).toBe(`Bearer ${site.key}`);
      expect(sent[0].url()).not.toContain(site.key);
      expect(page.url()).toBe(pageUrl());
      const kept = await page.evaluate(() => {
        const w = globalThis as any;
        return JSON.stringify({ local: { ...w.localStorage }, session: { ...w.sessionStorage }, cookie: w.document.cookie });
      });
      expect(kept).not.toContain(site.key);
      await expectNoSidewaysScroll(page);
      await expectAxeClean(page);
      expect(problems).toEqual([]);
      if (label === 'desktop') await page.locator('#getPrayerTimes-try-panel').screenshot({ path: path.join(tmpdir(), 'prayer-times-try-it-en.png') });
    } finally {
      await close();
    }
  }, 60_000);

  it('with a wrong key: 401 invalid_api_key shown as such; with none, 401 missing_api_key', async () => {
    const { page, problems, close } = await openPage(await launching, pageUrl(), { viewport, context: { colorScheme: label === '360 px' ? 'dark' : 'light' } });
    try {
      await page.locator('#getQibla-try').getByLabel('Your API key').fill('mk_not_a_key_of_ours');
      const wrong = await send(page, 'getQibla');
      expect(wrong.status).toBe('401 Unauthorized');
      expect(JSON.parse(wrong.body).error.code).toBe('invalid_api_key');
      expect(wrong.body).toContain('\n  "error": {\n');
      // Refused before the limits: no rate-limit headers, the request id still.
      expect(wrong.headers).toMatch(/^x-request-id: \S/m);
      expect(wrong.headers).not.toMatch(/^ratelimit-/m);
      await expectAxeClean(page);

      await page.locator('#getHijriDate-try').getByLabel('Your API key').fill('');
      const none = await send(page, 'getHijriDate');
      expect(none.status).toBe('401 Unauthorized');
      expect(JSON.parse(none.body).error.code).toBe('missing_api_key');
      // The 401s are the only answers over 400, and the page broke no rule of its policy.
      expect(problems.filter((p) => !/^401: .*\/api\/v1\/(qibla|hijri)\?/.test(p))).toEqual([]);
      expect(problems).toHaveLength(2);
      await expectNoSidewaysScroll(page);
    } finally {
      await close();
    }
  }, 60_000);

  it('a parameter changed in the form is what is asked', async () => {
    const { page, close } = await openPage(await launching, pageUrl(), { viewport });
    try {
      const form = page.locator('#searchCities-try');
      await form.getByLabel('Your API key').fill(site.key);
      await form.getByLabel('q', { exact: true }).fill('ankara');
      await form.getByLabel('limit', { exact: true }).fill('2');
      const shown = await send(page, 'searchCities');
      expect(shown.status).toBe('200 OK');
      expect(JSON.parse(shown.body)).toEqual(await site.api('/api/v1/cities?q=ankara&limit=2'));
    } finally {
      await close();
    }
  }, 60_000);
});

describe.each([
  ['with JavaScript', true],
  ['without JavaScript', false],
] as const)('the page %s', (_, javaScript) => {
  it('opens one code sample at a time, curl first; the forms only where they can work', async () => {
    const { page, problems, close } = await openPage(await launching, pageUrl(), { viewport: VIEWPORTS[0][1], javaScript });
    try {
      const samples = page.locator('#getMonthlyTimetable .samples');
      const open = () => samples.locator('details').evaluateAll((all) => all.filter((d) => (d as any).open).map((d) => d.getAttribute('data-language')));
      await expect(open()).resolves.toEqual(['curl']);
      await samples.getByText('Python (requests)', { exact: true }).click();
      await expect(open()).resolves.toEqual(['python']);
      await expect(samples.locator('details[data-language="python"] pre').isVisible()).resolves.toBe(true);
      await expect(page.locator('#getMonthlyTimetable-try').isVisible()).resolves.toBe(javaScript);
      await expect(page.locator('#getMonthlyTimetable .try-it-off').isVisible()).resolves.toBe(!javaScript);
      await expectNoSidewaysScroll(page);
      // axe runs as a script of the page: with JavaScript off it cannot, so the next test stands in for this one.
      if (javaScript) await expectAxeClean(page);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

it('is axe-clean as it is without the try-it script (the forms hidden, the note shown), light and dark', async () => {
  const browser = await launching;
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: VIEWPORTS[0][1], colorScheme });
    try {
      const page = await context.newPage();
      await page.route('**/assets/tryIt.js*', (route) => route.abort());
      await page.goto(pageUrl(), { waitUntil: 'load' });
      await expect(page.locator('#getPrayerTimes-try').isVisible()).resolves.toBe(false);
      await expect(page.locator('#getPrayerTimes .try-it-off').isVisible()).resolves.toBe(true);
      await page.locator('#getPrayerTimes .samples').getByText('PHP', { exact: true }).click();
      await expectAxeClean(page);
    } finally {
      await context.close();
    }
  }
}, 60_000);
