// Points 5 and 8 of issue 30 in a real browser, at 360 px and 1280 px, in Turkish and English: the method and madhab
// chosen on a place page are kept on the device (preferences.js) across a nearby link, the language switch and a new
// visit (a new page in the same browser context, which shares localStorage), the select names the method in effect,
// and choosing the default forgets the choice; "use my location" (nearMe.js) with the permission granted and a
// position set goes to the nearest place, says so when refused, and is absent without geolocation; the homes offer
// the last place viewed; the near page's form works with JavaScript off; axe finds nothing on the new parts.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, type OpenPage, type PageOptions } from '../../testing/browser.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { LANGUAGE_HOME_PATH, NEAR_PATH, PLACE_PAGE_PREFIX, type SiteLanguage } from '../links.js';
import { countryName, WORDS } from './words.js';

const KADIKOY = 'turkey/istanbul/kadikoy';
const POLATLI = 'turkey/ankara/polatli';
const KADIKOY_POSITION = { latitude: 40.98229, longitude: 29.09032 };
const VIEWPORTS = [
  { name: '360 px', width: 360, height: 740 },
  { name: '1280 px', width: 1280, height: 800 },
] as const;
const ISNA = 'Islamic Society of North America';

let server: RunningServer;
let launching: Promise<Browser>;
beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  // No PUBLIC_BASE_URL: the near page's redirects name the server's own address, which the browser can reach.
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) });
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

/**
 * The server as the browser reaches it: by the name its redirects use (the server's own address, `localhost`, when no
 * PUBLIC_BASE_URL is set), so that a redirect stays on the same origin and so sees the same localStorage.
 */
const origin = (): string => server.baseUrl.replace('//127.0.0.1:', '//localhost:');
const open = async (path: string, options?: PageOptions): Promise<OpenPage> => openPage(await launching, origin() + path, options);
const placePath = (language: SiteLanguage, place: string): string => `${PLACE_PAGE_PREFIX[language]}/${place}`;
const other = (language: SiteLanguage): SiteLanguage => (language === 'tr' ? 'en' : 'tr');
/** A URL's path and query, from the page's full URL. */
const pathAndQuery = (url: string): string => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const selected = (page: Page, name: 'method' | 'madhab'): Promise<{ value: string; label: string }> =>
  page.locator(`select[name="${name}"] option:checked`).evaluate((o) => ({ value: (o as unknown as { value: string }).value, label: (o.textContent ?? '').trim() }));

/** A new visit: another page of the same context (the same device's localStorage), typed in the address bar. */
async function visit(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(origin() + path, { waitUntil: 'load' });
  return page;
}

/** A request cut short because the page went on to the next one (its icon, say) is no problem. */
const notCutShort = (problem: string): boolean => !problem.endsWith('(net::ERR_ABORTED)');

/** The page has no sideways scroll. */
async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return { page: root.scrollWidth, viewport: root.clientWidth };
  });
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
}

describe.each(VIEWPORTS)('at $name', (viewport) => {
  describe.each(['tr', 'en'] as const)('in %s', (language) => {
    const w = WORDS[language];
    const options: PageOptions = { viewport: { width: viewport.width, height: viewport.height } };

    it('keeps the method and madhab across a nearby link, the language switch and a new visit; the default forgets them', async () => {
      const { page, context, problems, close } = await open(placePath(language, KADIKOY), options);
      try {
        // The select names what is in effect before anything is chosen.
        expect(await selected(page, 'method')).toEqual({ value: '', label: `Diyanet İşleri Başkanlığı, Türkiye (${w.defaultFor(countryName('TR', language))})` });
        expect((await selected(page, 'madhab')).label).toBe(`${w.madhabs.shafi} — ${w.defaultFor(countryName('TR', language))}`);

        await page.selectOption('select[name="method"]', 'isna');
        await page.selectOption('select[name="madhab"]', 'hanafi');
        await Promise.all([page.waitForURL(/method=isna/), page.locator('form[data-remember] button[type="submit"]').click()]);
        expect(await selected(page, 'method')).toEqual({ value: 'isna', label: ISNA });
        expect(await page.locator('main').textContent()).toContain(`${w.method}: ${ISNA}`);

        // A nearby place: its link already carries the choice (no second load), and the page uses it.
        const nearby = page.locator(`xpath=//h2[normalize-space()="${w.nearby}"]/following-sibling::ul[1]//a`).first();
        const href = (await nearby.getAttribute('href'))!;
        expect(href).toMatch(new RegExp(`^${PLACE_PAGE_PREFIX[language]}/[^?]+\\?.*method=isna`));
        expect(href).toContain('madhab=hanafi');
        await Promise.all([page.waitForURL((url) => url.pathname === href.split('?')[0]), nearby.click()]);
        expect((await selected(page, 'method')).value).toBe('isna');
        expect((await selected(page, 'madhab')).value).toBe('hanafi');

        // The other language.
        const switchLink = page.locator(`header a[hreflang="${other(language)}"]`);
        await Promise.all([page.waitForURL((url) => url.pathname.startsWith(PLACE_PAGE_PREFIX[other(language)])), switchLink.click()]);
        expect(new URL(page.url()).searchParams.get('method')).toBe('isna');
        expect((await selected(page, 'method')).value).toBe('isna');
        expect((await page.locator('html').getAttribute('lang'))).toBe(other(language));

        // A new visit to a place page typed without a choice: replaced by the page with it.
        const later = await visit(context, placePath(language, POLATLI));
        await later.waitForURL(/method=isna/);
        await later.waitForLoadState('load');
        expect(pathAndQuery(later.url())).toBe(`${placePath(language, POLATLI)}?method=isna&madhab=hanafi`);
        expect((await selected(later, 'method')).value).toBe('isna');
        expect(await later.locator('main').textContent()).toContain(`${w.method}: ${ISNA}`);

        // The default option forgets the choice: the next visit stays on the plain page.
        await later.selectOption('select[name="method"]', '');
        await later.selectOption('select[name="madhab"]', '');
        await Promise.all([later.waitForURL(/method=&madhab=/), later.locator('form[data-remember] button[type="submit"]').click()]);
        const plain = await visit(context, placePath(language, KADIKOY));
        // Nothing replaces it (give a replace every chance to happen first).
        await plain.waitForTimeout(300);
        expect(pathAndQuery(plain.url())).toBe(placePath(language, KADIKOY));
        expect((await selected(plain, 'method')).value).toBe('');
        expect(problems.filter(notCutShort)).toEqual([]);
      } finally {
        await close();
      }
    });

    it('forgets a stored method the select no longer offers, rather than sending it', async () => {
      const { page, context, close } = await open(LANGUAGE_HOME_PATH[language], options);
      try {
        await page.evaluate(() => (globalThis as any).localStorage.setItem('prayer-times.choice', JSON.stringify({ method: 'gone', madhab: 'hanafi' })));
        const place = await visit(context, placePath(language, KADIKOY));
        await place.waitForURL(/madhab=hanafi/);
        await place.waitForLoadState('load');
        expect(pathAndQuery(place.url())).toBe(`${placePath(language, KADIKOY)}?madhab=hanafi`);
        expect(await place.evaluate(() => (globalThis as any).localStorage.getItem('prayer-times.choice'))).toBe('{"madhab":"hanafi"}');
      } finally {
        await close();
      }
    });

    it('goes to the nearest place with “use my location”, from the home and from a place page', async () => {
      const granted: PageOptions = { ...options, context: { geolocation: KADIKOY_POSITION, permissions: ['geolocation'] } };
      const { page, problems, close } = await open(LANGUAGE_HOME_PATH[language], granted);
      try {
        const button = page.locator('.near-me button');
        await expect.poll(() => button.isVisible()).toBe(true);
        expect((await button.textContent())?.trim()).toBe(w.useMyLocation);
        await Promise.all([page.waitForURL((url) => url.pathname === placePath(language, KADIKOY)), button.click()]);

        await page.goto(origin() + placePath(language, POLATLI), { waitUntil: 'load' });
        await Promise.all([page.waitForURL((url) => url.pathname === placePath(language, KADIKOY)), page.locator('.near-me button').click()]);
        expect(problems.filter(notCutShort)).toEqual([]);
      } finally {
        await close();
      }
    });

    it('says so when the location is refused, and shows no button without geolocation', async () => {
      const refused = await open(LANGUAGE_HOME_PATH[language], options);
      try {
        await refused.context.clearPermissions();
        await refused.page.locator('.near-me button').click();
        await expect.poll(() => refused.page.locator('.near-me [role="status"]').textContent()).toBe(w.locationDenied);
        expect(pathAndQuery(refused.page.url())).toBe(LANGUAGE_HOME_PATH[language]);
        expect(await refused.page.locator('.near-me button').isEnabled()).toBe(true);
      } finally {
        await refused.close();
      }

      const { context, close } = await openPage(await launching, 'about:blank', options);
      try {
        const page = await context.newPage();
        await page.addInitScript(() => {
          delete (globalThis as any).Navigator.prototype.geolocation;
        });
        await page.goto(origin() + placePath(language, KADIKOY), { waitUntil: 'load' });
        expect(await page.evaluate(() => 'geolocation' in (globalThis as any).navigator)).toBe(false);
        expect(await page.locator('.near-me button').isHidden()).toBe(true);
      } finally {
        await close();
      }
    });

    it('offers the last place viewed on this device at the top of the home', async () => {
      const { page, context, problems, close } = await open(LANGUAGE_HOME_PATH[language], options);
      try {
        // A new device: nothing to offer.
        expect(await page.locator('#last-place').isHidden()).toBe(true);
        // A place viewed in the other language is offered in this one.
        await page.goto(origin() + placePath(other(language), POLATLI), { waitUntil: 'load' });
        const home = await visit(context, LANGUAGE_HOME_PATH[language]);
        const link = home.locator('#last-place a');
        await expect.poll(() => link.isVisible()).toBe(true);
        expect(await link.getAttribute('href')).toBe(placePath(language, POLATLI));
        expect((await link.textContent())?.trim()).toBe('Polatlı');
        expect((await home.locator('#last-place').textContent())?.trim()).toBe(`${w.lastPlace} Polatlı`);
        // It comes before the search form.
        expect(await home.locator('main > #last-place + form.search').count()).toBe(1);
        await noSidewaysScroll(home);
        const violations = await axeViolations(home);
        expect(violations, formatViolations(violations)).toEqual([]);
        await Promise.all([home.waitForURL((url) => url.pathname === placePath(language, POLATLI)), link.click()]);
        expect(problems.filter(notCutShort)).toEqual([]);
      } finally {
        await close();
      }
    });

    it('finds the nearest place from typed coordinates with JavaScript off, and explains bad ones', async () => {
      const { page, status, close } = await open(NEAR_PATH[language], { ...options, javaScript: false });
      try {
        expect(status).toBe(200);
        await noSidewaysScroll(page);
        await page.fill('#lat', 'abc');
        await page.fill('#lon', '29.09');
        await Promise.all([page.waitForURL(/lat=abc/), page.locator('main form button[type="submit"]').click()]);
        expect(await page.locator('#near-problem').textContent()).toBe(w.latitudeInvalid);
        await page.fill('#lat', language === 'tr' ? '40,98229' : '40.98229');
        await page.fill('#lon', language === 'tr' ? '29,09032' : '29.09032');
        await Promise.all([page.waitForURL((url) => url.pathname === placePath(language, KADIKOY)), page.locator('main form button[type="submit"]').click()]);
      } finally {
        await close();
      }
    });

    it('has no WCAG 2.1 AA violation on the near page and on a place page with its button and choice', async () => {
      const granted: PageOptions = { ...options, context: { geolocation: KADIKOY_POSITION, permissions: ['geolocation'] } };
      const { page, problems, close } = await open(`${NEAR_PATH[language]}?lat=91&lon=0`, granted);
      try {
        await expect.poll(() => page.locator('.near-me button').isVisible()).toBe(true);
        await noSidewaysScroll(page);
        let violations = await axeViolations(page);
        expect(violations, formatViolations(violations)).toEqual([]);
        await page.goto(`${origin()}${placePath(language, KADIKOY)}?method=isna`, { waitUntil: 'load' });
        await expect.poll(() => page.locator('.near-me button').isVisible()).toBe(true);
        violations = await axeViolations(page);
        expect(violations, formatViolations(violations)).toEqual([]);
        // The 400 of the first page is the only answer of 400 or more expected (a navigation, not counted as a problem).
        expect(problems.filter(notCutShort)).toEqual([]);
      } finally {
        await close();
      }
    });
  });
});
