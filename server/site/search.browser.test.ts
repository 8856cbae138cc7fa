// The search form of the homes in a real browser (issue 30), at a phone's 360 px and a desktop's 1280 px, in Turkish
// and English: a name typed with a typo lands on the place's page when one place is clearly meant, and on a list with
// the likely place first when not; with JavaScript off as well (the form is a plain GET). The list passes axe.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage } from '../../testing/browser.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let launching: Promise<Browser>;
beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) });
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

const WIDTHS = [360, 1280] as const;
const HOMES = { tr: '/tr', en: '/en' } as const;
const PLACE_PREFIX = { tr: '/tr/namaz-vakitleri/', en: '/en/prayer-times/' } as const;

/** Types `text` into the home's search form and submits it as a person would (Enter); resolves once the next page has loaded. */
async function searchFromHome(language: 'tr' | 'en', width: number, text: string, javaScript = true) {
  // By the name the server's redirects use for itself (PUBLIC_BASE_URL unset): localhost.
  const origin = server.baseUrl.replace('//127.0.0.1:', '//localhost:');
  const opened = await openPage(await launching, `${origin}${HOMES[language]}`, { viewport: { width, height: 800 }, javaScript });
  const { page } = opened;
  const box = page.locator('form.search input[name="q"]');
  await box.fill(text);
  await Promise.all([page.waitForURL((url) => url.pathname !== HOMES[language], { waitUntil: 'load' }), box.press('Enter')]);
  const sideways = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });
  return { ...opened, url: new URL(page.url()), sideways };
}

describe.each(['tr', 'en'] as const)('searching in %s', (language) => {
  describe.each(WIDTHS)('at %i px', (width) => {
    it.each([
      ['istanbl', 'turkey/istanbul/istanbul', 'İstanbul'],
      ['kuala lumpr', 'malaysia/kuala-lumpur/kuala-lumpur', 'Kuala Lumpur'],
      ['istanbul kadikoy', 'turkey/istanbul/kadikoy', 'Kadıköy'],
    ])('“%s” lands on the page of %s', async (text, path, name) => {
      const { page, url, sideways, problems, close } = await searchFromHome(language, width, text);
      try {
        expect(url.pathname).toBe(`${PLACE_PREFIX[language]}${path}`);
        expect(await page.locator('h1').innerText()).toContain(name);
        expect(sideways).toBe(false);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });

    it('“ankra” lists places, Ankara first, and the list passes axe', async () => {
      const { page, url, sideways, problems, close } = await searchFromHome(language, width, 'ankra');
      try {
        expect(url.pathname).toBe(language === 'tr' ? '/tr/ara' : '/en/search');
        const first = page.locator('ol.list li a').first();
        expect(await first.innerText()).toContain('Ankara');
        expect(await first.getAttribute('href')).toBe(`${PLACE_PREFIX[language]}turkey/ankara/ankara`);
        expect(await page.locator('input[name="q"]').inputValue()).toBe('ankra');
        expect(sideways).toBe(false);
        expect(problems).toEqual([]);
        const violations = await axeViolations(page);
        expect(violations, formatViolations(violations)).toEqual([]);
      } finally {
        await close();
      }
    });
  });

  it('works with JavaScript off', async () => {
    const { url, close } = await searchFromHome(language, 360, 'jakrta', false);
    try {
      expect(url.pathname).toBe(`${PLACE_PREFIX[language]}indonesia/jakarta/jakarta`);
    } finally {
      await close();
    }
  });
});
