// Places named in a real browser (issue 30, points 4 and 7): Tromsø, whose region the sources do not name, its
// country's "other places" and the country page pass axe-core's WCAG 2.1 AA checks (no empty breadcrumb link:
// `link-name`), at 360 px and at 1280 px, in Turkish and English; so do a namesake's page and the homes, and every
// link on these pages has a name a screen reader can read.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage } from '../../testing/browser.js';
import { PlaceCatalog } from '../places/placeCatalog.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';

const WIDTHS = [360, 1280] as const;
const PREFIX = { tr: '/tr/namaz-vakitleri', en: '/en/prayer-times' } as const;

let server: RunningServer;
let launching: Promise<Browser>;
let namesake: string;
beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  const catalog = PlaceCatalog.load(inject('catalogDataDir'), { publicBaseUrl: () => '' })!;
  namesake = catalog.places.find((p) => p.name === 'Kumluca' && p.region === 'Antalya' && p.qualifier)!.path;
  server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: 'https://prayer-times.example' });
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

describe.each(['tr', 'en'] as const)('place names in a browser (%s)', (language) => {
  it.each(WIDTHS)('pass axe at %i px on a place without a region, its index pages, a namesake and the home', async (width) => {
    const paths = [
      `${PREFIX[language]}/norway/all/tromso`,
      `${PREFIX[language]}/norway/all`,
      `${PREFIX[language]}/norway`,
      `${PREFIX[language]}/vietnam/all/da-nang`,
      `${PREFIX[language]}/${namesake}`,
      `/${language}`,
    ];
    for (const path of paths) {
      const opened = await openPage(await launching, `${server.baseUrl}${path}`, { viewport: { width, height: 800 } });
      try {
        expect(opened.status, path).toBe(200);
        const violations = await axeViolations(opened.page);
        expect(violations, `${path} at ${width} px:\n${formatViolations(violations)}`).toEqual([]);
        // Every link shown has a name, the breadcrumb's above all: Home, the country, (the region,) the place. (A link
        // hidden until a script fills it, as the homes' last place viewed, is none of these.)
        const unnamed = await opened.page.$$eval('a', (links) =>
          links.filter((a) => a.getClientRects().length > 0 && (a.textContent ?? '').trim() === '' && !a.getAttribute('aria-label')).map((a) => a.outerHTML),
        );
        expect(unnamed, path).toEqual([]);
        const crumbs = await opened.page.$$eval('nav.crumbs a', (links) => links.map((a) => (a.textContent ?? '').trim()));
        if (path.endsWith('/tromso')) expect(crumbs, path).toEqual(language === 'tr' ? ['Ana sayfa', 'Norveç', 'Tromsø'] : ['Home', 'Norway', 'Tromsø']);
        const title = await opened.page.title();
        expect(title, path).not.toMatch(/·\s*,|,\s*,|in\s*:/);
      } finally {
        await opened.close();
      }
    }
  }, 120_000);
});
