// The qibla compass of a place page in Chromium (testing/browser.ts). The dial's arrow is drawn at /api/v1/qibla's
// bearing (the SVG's rotation as the browser reads it, not only the attribute) at Istanbul, Jakarta and London, with
// JavaScript on and off. With a heading simulated through the DevTools protocol (a virtual absolute-orientation
// sensor: Chromium then fires `deviceorientationabsolute` as a phone would), the card turns to north and the arrow to
// the qibla follows; iOS's way (`DeviceOrientationEvent.requestPermission` asked from the click, then
// `webkitCompassHeading`) is driven by a stand-in for the permission prompt. At 360 px and 1280 px, in Turkish and
// English, with no sideways scroll and no axe violation in light and dark. Screenshots of the compass at 360 px go to
// the temporary folder (prayer-times-compass-*.png); docs/screenshots/compass-*.png are copies of them.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, formatViolations, launchBrowser, openPage, type OpenPage, type PageOptions } from '../../testing/browser.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { compassPoint } from './qiblaCompass.js';
import { WORDS } from './words.js';

const PHONE = { width: 360, height: 800 };
const DESKTOP = { width: 1280, height: 800 };
const PREFIX = { tr: '/tr/namaz-vakitleri', en: '/en/prayer-times' } as const;
const PLACES = {
  Istanbul: 'turkey/istanbul/istanbul',
  Jakarta: 'indonesia/jakarta/jakarta',
  London: 'united-kingdom/england/london',
} as const;
type PlaceName = keyof typeof PLACES;
type Language = keyof typeof PREFIX;

let server: RunningServer;
let launching: Promise<Browser>;
const bearings = new Map<PlaceName, number>();

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  let key: string;
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL: 'https://prayer-times.example' }));
  for (const [name, placePath] of Object.entries(PLACES) as Array<[PlaceName, string]>) {
    const res = await fetch(`${server.baseUrl}/api/v1/qibla?city=${placePath}`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    bearings.set(name, ((await res.json()) as { bearing: number }).bearing);
  }
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
});

const open = async (name: PlaceName, language: Language, options: PageOptions = {}): Promise<OpenPage> =>
  openPage(await launching, `${server.baseUrl}${PREFIX[language]}/${PLACES[name]}`, { viewport: PHONE, ...options });

/** The same angle in [0, 360). */
const normal = (degrees: number): number => ((degrees % 360) + 360) % 360;
/** How far apart two angles are, whichever way round (0..180). */
const apart = (a: number, b: number): number => Math.abs(normal(a - b + 180) - 180);

/**
 * The rotation the browser applies to an element of the dial, in degrees clockwise: read from the element's own
 * transform list as Chromium parsed it (the matrix's angle), beside the attribute as written.
 */
async function rotationOf(page: Page, selector: string): Promise<{ attribute: string; degrees: number }> {
  return page.locator(selector).evaluate((element) => {
    const matrix = (element as any).transform.baseVal.consolidate()?.matrix as { a: number; b: number } | undefined;
    const degrees = matrix ? (Math.atan2(matrix.b, matrix.a) * 180) / Math.PI : 0;
    return { attribute: element.getAttribute('transform') ?? '', degrees };
  });
}

/** A heading (degrees clockwise from north) as a phone's absolute-orientation sensor reports it: a turn about z. */
async function setHeading(cdp: CDPSession, heading: number): Promise<void> {
  // Device orientation's alpha is counter-clockwise from north: alpha = 360 - heading.
  const half = ((360 - heading) * Math.PI) / 360;
  await cdp.send('Emulation.setSensorOverrideReadings', { type: 'absolute-orientation', reading: { quaternion: { x: 0, y: 0, z: Math.sin(half), w: Math.cos(half) } } });
}

/** A page whose browser has a (virtual) compass, at `heading` until told otherwise. */
async function withCompass(name: PlaceName, language: Language, heading: number, options: PageOptions = {}): Promise<OpenPage & { cdp: CDPSession }> {
  const opened = await open(name, language, options);
  const cdp = await opened.context.newCDPSession(opened.page);
  await cdp.send('Emulation.setSensorOverrideEnabled', { enabled: true, type: 'absolute-orientation' });
  await setHeading(cdp, heading);
  return { ...opened, cdp };
}

/** Waits until the arrow is drawn at `degrees` (the script draws on the next animation frame after an event). */
async function arrowAt(page: Page, degrees: number): Promise<void> {
  await expect.poll(async () => apart((await rotationOf(page, '.qibla-needle')).degrees, degrees), { timeout: 5000 }).toBeLessThan(0.2);
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return { scroll: root.scrollWidth as number, client: root.clientWidth as number };
  });
  expect(widths.scroll, what).toBeLessThanOrEqual(widths.client);
  // The dial itself is whole on the screen and big enough to read.
  const box = (await page.locator('svg.compass').boundingBox())!;
  expect(box.x, what).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, what).toBeLessThanOrEqual(widths.client);
  expect(box.width, what).toBeGreaterThanOrEqual(160);
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await axeViolations(page);
    expect(violations, `${what}, ${colorScheme}:\n${formatViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const shotFile = (name: string): string => path.join(tmpdir(), `prayer-times-compass-${name}.png`);

describe.each(Object.keys(PLACES) as PlaceName[])('the dial at %s', (name) => {
  it.each([
    ['tr', PHONE],
    ['en', PHONE],
    ['tr', DESKTOP],
    ['en', DESKTOP],
  ] as const)("in %s at %o: the arrow at /api/v1/qibla's bearing, north at the top; no sideways scroll, axe clean in light and dark", async (language, viewport) => {
    const bearing = bearings.get(name)!;
    const { page, status, problems, close } = await open(name, language, { viewport });
    try {
      expect(status).toBe(200);
      const needle = await rotationOf(page, '.qibla-needle');
      expect(needle.attribute).toBe(`rotate(${bearing})`);
      expect(apart(needle.degrees, bearing)).toBeLessThan(0.01);
      expect(apart((await rotationOf(page, '.compass-card')).degrees, 0)).toBeLessThan(0.01);
      // The Kaaba at the arrow's tip is drawn where the bearing points from the dial's centre (screen y grows down).
      const centre = (await page.locator('.compass-hub').boundingBox())!;
      const kaaba = (await page.locator('.kaaba').boundingBox())!;
      const drawn = normal((Math.atan2(kaaba.x + kaaba.width / 2 - (centre.x + centre.width / 2), centre.y + centre.height / 2 - (kaaba.y + kaaba.height / 2)) * 180) / Math.PI);
      expect(apart(drawn, bearing)).toBeLessThan(1);
      // Its words: the compass point of that bearing, in the page's language.
      const words = await page.locator('.qibla-text').innerText();
      expect(words).toContain(`(${WORDS[language].compassPoints[compassPoint(bearing)]})`);
      // Chromium has device orientation: the button shows.
      await expect.poll(() => page.locator('.compass-start').isVisible()).toBe(true);
      expect(await page.locator('.compass-start').innerText()).toBe(WORDS[language].compassStart);
      await expectNoSidewaysScroll(page, `${name} ${language} ${viewport.width}`);
      await expectAccessible(page, `${name} ${language} ${viewport.width}`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('without JavaScript: the same dial at the bearing, with its words, and no button', async () => {
    const bearing = bearings.get(name)!;
    const { page, close } = await open(name, 'en', { javaScript: false });
    try {
      expect(apart((await rotationOf(page, '.qibla-needle')).degrees, bearing)).toBeLessThan(0.01);
      expect(await page.locator('svg.compass').isVisible()).toBe(true);
      expect(await page.locator('.qibla-text').innerText()).toContain(`${bearing}°`);
      expect(await page.locator('.compass-start').isVisible()).toBe(false);
      await expectNoSidewaysScroll(page, `${name} without JavaScript`);
    } finally {
      await close();
    }
  });
});

describe('with the phone’s heading', () => {
  it.each(['en', 'tr'] as const)('in %s: the card turns to north and the arrow follows the heading; facing the qibla is said; stopping puts north back at the top', async (language) => {
    const w = WORDS[language];
    const bearing = bearings.get('Istanbul')!;
    // A first heading that moves the arrow from where the page drew it, so that seeing it moved proves an event came.
    const { page, cdp, problems, close } = await withCompass('Istanbul', language, 30);
    try {
      await page.click('.compass-start');
      await arrowAt(page, bearing - 30);
      expect(await page.locator('.compass-state').innerText()).toBe(w.compassOn);
      expect(await page.locator('.compass-turn').innerText()).toBe(w.compassTurnRight(String(Math.round(bearing - 30))));
      expect(await page.locator('.compass-start').innerText()).toBe(w.compassStop);
      for (const heading of [90, 200, 300, 10.5]) {
        await setHeading(cdp, heading);
        await arrowAt(page, bearing - heading);
        expect(apart((await rotationOf(page, '.compass-card')).degrees, -heading), `card at heading ${heading}`).toBeLessThan(0.2);
        const off = normal(bearing - heading + 180) - 180;
        expect(await page.locator('.compass-turn').innerText()).toBe(off > 0 ? w.compassTurnRight(String(Math.round(off))) : w.compassTurnLeft(String(Math.round(-off))));
      }
      // Facing the qibla (within 5°): the arrow points up and the page says so.
      await setHeading(cdp, bearing + 3);
      await arrowAt(page, -3);
      await expect.poll(() => page.locator('.compass-state').innerText()).toBe(w.compassFacing);
      expect(await page.locator('.qibla-compass').getAttribute('class')).toContain('facing');
      expect(await page.locator('.compass-turn').innerText()).toBe('');
      await expectAccessible(page, `the live compass in ${language}`);
      await page.locator('section.qibla').screenshot({ path: shotFile(`live-${language}`) });
      await page.click('.compass-start');
      expect((await rotationOf(page, '.qibla-needle')).attribute).toBe(`rotate(${bearing})`);
      expect((await rotationOf(page, '.compass-card')).attribute).toBe('rotate(0)');
      expect(await page.locator('.qibla-compass').getAttribute('class')).toBe('qibla-compass');
      expect(await page.locator('.compass-start').innerText()).toBe(w.compassStart);
      // Stopped: a new heading moves nothing.
      await setHeading(cdp, 45);
      await page.waitForTimeout(300);
      expect(apart((await rotationOf(page, '.qibla-needle')).degrees, bearing)).toBeLessThan(0.01);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('turned sideways (landscape), the heading is the screen’s top edge', async () => {
    const bearing = bearings.get('Jakarta')!;
    const { page, cdp, close } = await withCompass('Jakarta', 'en', 100);
    try {
      await page.evaluate(() => Object.defineProperty((globalThis as any).screen.orientation, 'angle', { get: () => 90 }));
      await page.click('.compass-start');
      // The device's top points at 100°; the screen's top, turned a quarter, at 190°.
      await arrowAt(page, bearing - 190);
    } finally {
      await close();
    }
  });

  it('a browser that has device orientation but sends no heading says so and shows north at the top again', async () => {
    const bearing = bearings.get('London')!;
    const opened = await open('London', 'tr');
    try {
      const cdp = await opened.context.newCDPSession(opened.page);
      // No absolute-orientation sensor on this device (a desktop): Chromium sends events without alpha, or none.
      await cdp.send('Emulation.setSensorOverrideEnabled', { enabled: true, type: 'absolute-orientation', metadata: { available: false } });
      await opened.page.click('.compass-start');
      await expect.poll(() => opened.page.locator('.compass-state').innerText()).toBe(WORDS.tr.compassOn);
      await expect.poll(() => opened.page.locator('.compass-state').innerText(), { timeout: 6000 }).toBe(WORDS.tr.compassMissing);
      expect((await rotationOf(opened.page, '.qibla-needle')).attribute).toBe(`rotate(${bearing})`);
      expect(await opened.page.locator('.compass-start').innerText()).toBe(WORDS.tr.compassStart);
      expect(await opened.page.locator('.qibla-compass').getAttribute('class')).toBe('qibla-compass');
    } finally {
      await opened.close();
    }
  });
});

describe("iOS's way: permission asked from the click, then webkitCompassHeading", () => {
  /** A stand-in for iOS Safari's prompt: `DeviceOrientationEvent.requestPermission` answering `answer`, counted. */
  // Once granted, the stand-in sensor sends window.__heading every 50 ms, as a phone's sends its heading: the page
  // stops waiting for a heading after 3 s, and a busy machine can take longer than that between the test's steps.
  const prompt = (answer: 'granted' | 'denied') => `(() => {
    window.__asked = 0;
    window.__heading = 0;
    const send = () => {
      const event = new DeviceOrientationEvent('deviceorientation', { alpha: 12, beta: 0, gamma: 0, absolute: false });
      Object.defineProperty(event, 'webkitCompassHeading', { value: window.__heading });
      window.dispatchEvent(event);
    };
    DeviceOrientationEvent.requestPermission = () => {
      window.__asked++;
      if (${JSON.stringify(answer)} === 'granted') setInterval(send, 50);
      return Promise.resolve(${JSON.stringify(answer)});
    };
  })()`;
  /** An event as iOS sends it: no absolute alpha, the heading in webkitCompassHeading (clockwise from north). */
  const iosHeading = (page: Page, heading: number) =>
    page.evaluate((h) => {
      const page = globalThis as any;
      page.__heading = h;
      const event = new page.DeviceOrientationEvent('deviceorientation', { alpha: 12, beta: 0, gamma: 0, absolute: false });
      Object.defineProperty(event, 'webkitCompassHeading', { value: h });
      page.dispatchEvent(event);
    }, heading);

  it('granted: the arrow follows the compass heading', async () => {
    const bearing = bearings.get('London')!;
    const opened = await open('London', 'en', { viewport: PHONE });
    try {
      await opened.page.addInitScript(prompt('granted'));
      await opened.page.reload();
      // What the first load left unfinished when the reload began (its icon, say) is aborted: not this page's problem.
      opened.problems.splice(0);
      expect(await opened.page.evaluate(() => (globalThis as unknown as { __asked: number }).__asked)).toBe(0);
      await opened.page.click('.compass-start');
      await expect.poll(() => opened.page.evaluate(() => (globalThis as unknown as { __asked: number }).__asked)).toBe(1);
      await expect.poll(() => opened.page.locator('.compass-state').innerText()).toBe(WORDS.en.compassOn);
      for (const heading of [0, 75, 250]) {
        await iosHeading(opened.page, heading);
        await arrowAt(opened.page, bearing - heading);
      }
      expect(opened.problems).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('denied: the page says so and keeps the dial with north at the top', async () => {
    const bearing = bearings.get('London')!;
    const opened = await open('London', 'tr', { viewport: PHONE });
    try {
      await opened.page.addInitScript(prompt('denied'));
      await opened.page.reload();
      await opened.page.click('.compass-start');
      await expect.poll(() => opened.page.locator('.compass-state').innerText()).toBe(WORDS.tr.compassDenied);
      await iosHeading(opened.page, 90);
      await opened.page.waitForTimeout(300);
      expect((await rotationOf(opened.page, '.qibla-needle')).attribute).toBe(`rotate(${bearing})`);
      expect(await opened.page.locator('.compass-start').isEnabled()).toBe(true);
    } finally {
      await opened.close();
    }
  });
});

describe('screenshots', () => {
  it.each([
    ['en', 'light'],
    ['tr', 'dark'],
  ] as const)('the compass at Istanbul in %s, %s, at 360 px', async (language, colorScheme) => {
    const { page, close } = await open('Istanbul', language, { context: { colorScheme } });
    try {
      await page.locator('section.qibla').screenshot({ path: shotFile(`${language}-${colorScheme}`) });
    } finally {
      await close();
    }
  });
});
