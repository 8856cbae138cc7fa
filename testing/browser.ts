// The browser for the site's tests: Debian's chromium (testing/install-chromium.sh puts it there; `make test` runs
// that) driven by playwright-core, which never downloads a browser of its own here. Pages with JavaScript on or
// off, with the browser's clock fixed or installed at a given instant, axe-core's WCAG 2.1 AA checks, screenshots
// and a print to PDF.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Frame, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless, no sandbox (tests run as root in containers, where Chromium's sandbox cannot start), no GPU, and nothing
 * that calls home: no first-run, background networking, component updates or sync.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** axe-core's browser bundle, injected into the page under test. */
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The rule sets of WCAG 2.0 and 2.1, levels A and AA: what the contract asks of every page. */
export const WCAG_21_AA: readonly string[] = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Launches Chromium. A missing /usr/bin/chromium is an error that says how to get it, never a reason to skip: the
 * browser tests are part of `make test`, which installs it first.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: the browser tests need Debian's chromium. Run \`make chromium\` (testing/install-chromium.sh) or apt-get install chromium fonts-dejavu-core.`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}

export interface PageOptions {
  /** Default true. */
  javaScript?: boolean;
  /** Default 1200 × 800. */
  viewport?: { width: number; height: number };
  /**
   * The browser's clock: `Date.now()` and `new Date()` answer this instant from the first script on, and timers
   * run on a fake clock the test drives (`page.clock.runFor`, `fastForward`) — time does not pass by itself.
   */
  clockAt?: Date | number | string;
  /** Date.now() is this instant at all times, while timers keep running in real time (`page.clock.setFixedTime`). */
  fixedTime?: Date | number | string;
  /** Other options for the browser context (locale, timezoneId, bypassCSP…). */
  context?: BrowserContextOptions;
}

export interface OpenPage {
  page: Page;
  context: BrowserContext;
  /** The main document's HTTP status. */
  status: number;
  /**
   * What went wrong while the page lived, as lines: script errors, Content-Security-Policy violations (an inline
   * script or style the page's own CSP refuses), subresources that failed or answered 4xx/5xx. Empty on a good page.
   */
  problems: string[];
  close(): Promise<void>;
}

/** Opens a URL in a context of its own (cookies, clock and JavaScript apply to this page alone). */
export async function openPage(browser: Browser, url: string, options: PageOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScript ?? true,
    viewport: options.viewport ?? { width: 1200, height: 800 },
    ...options.context,
  });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
    });
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.request().isNavigationRequest()) {
        problems.push(`${response.status()}: ${response.url()}`);
      }
    });
    if (options.clockAt !== undefined) {
      // Installed before the page loads: the page's scripts see the given instant from their first line. Paused, so
      // the countdown moves only when the test moves the clock.
      // Installed a little before the instant (the installed clock runs in real time until paused, and pausing at a
      // time already past is an error), then paused exactly at it.
      const at = new Date(options.clockAt).getTime();
      await page.clock.install({ time: at - 5_000 });
      await page.clock.pauseAt(at);
    }
    if (options.fixedTime !== undefined) await page.clock.setFixedTime(options.fixedTime);
    const response = await page.goto(url, { waitUntil: 'load' });
    if (!response && url !== 'about:blank') throw new Error(`no response for ${url}`);
    return { page, context, status: response?.status() ?? 0, problems, close: () => context.close() };
  } catch (error) {
    await context.close();
    throw error;
  }
}

export interface AxeNode {
  target: string;
  html: string;
  summary: string;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/**
 * Runs axe-core on a page already open (or on one frame's document: a widget framed by another site), with the
 * WCAG 2.1 AA rules; returns the violations (none is a pass).
 *
 * The site's Content-Security-Policy says `script-src 'self'`, so `page.addScriptTag({ path })` — which inserts the
 * file's text as an inline <script> — is refused by the page (Chromium logs the CSP violation and `axe` stays
 * undefined). Playwright's `page.evaluate` is not subject to the page's CSP (it runs through the DevTools protocol,
 * like a console), so axe's source is evaluated that way: the page keeps its real CSP while axe runs, and axe judges
 * the page exactly as a visitor's browser renders it (a context with `bypassCSP: true` would also work, but would
 * apply, say, an inline style the CSP blocks for visitors, and axe would check a page nobody sees).
 */
export async function axeViolations(page: Page | Frame): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (globalThis as any).axe === 'object');
  if (!loaded) {
    // The bundle defines `axe` on window when evaluated as a script: wrapping it in a function keeps its `var`s local.
    await page.evaluate(`(function () { ${readAxe()}\n })();`);
  }
  const results = await page.evaluate(async (runOnly) => {
    const axe = (globalThis as any).axe;
    const r = await axe.run((globalThis as any).document, { runOnly: { type: 'tag', values: runOnly }, resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n: any) => ({ target: n.target.join(' '), html: n.html, summary: n.failureSummary ?? '' })),
    }));
  }, [...WCAG_21_AA]);
  return results as AxeViolation[];
}

let axeSource: string | undefined;
/** axe's bundle, read once (650 KB). */
const readAxe = (): string => (axeSource ??= readFileSync(AXE_SCRIPT, 'utf8'));

/** Violations as lines a failing test can print: rule, impact, what it asks, and each element with its fix. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((v) =>
      [
        `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.helpUrl}`,
        ...v.nodes.map((n) => `  at ${n.target}: ${n.html.slice(0, 200)}\n    ${n.summary.replace(/\n/g, '\n    ')}`),
      ].join('\n'),
    )
    .join('\n');
}

/** A full-page PNG screenshot, written to `file` (its folder made if needed). */
export async function screenshot(page: Page, file: string): Promise<Buffer> {
  mkdirSync(path.dirname(file), { recursive: true });
  return page.screenshot({ path: file, fullPage: true, type: 'png' });
}

/** Prints the page with the print stylesheet on A4 paper; resolves with the PDF. */
export async function printToPdf(page: Page): Promise<Buffer> {
  await page.emulateMedia({ media: 'print' });
  return page.pdf({ format: 'A4' });
}

/**
 * How many pages a PDF has: the page objects (`/Type /Page`, not the `/Type /Pages` tree nodes). Chromium (Skia)
 * writes page dictionaries as plain objects, not inside compressed object streams; the `/Count` of the root page tree
 * must agree, else the PDF is not one this simple reading understands and it throws.
 */
export function pdfPageCount(pdf: Buffer): number {
  const text = pdf.toString('latin1');
  const pages = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  const counts = [...text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)|\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages\b/g)].map((m) => Number(m[1] ?? m[2]));
  const root = counts.length ? Math.max(...counts) : undefined;
  if (pages === 0 || (root !== undefined && root !== pages)) {
    throw new Error(`cannot read the page count of this PDF (${pages} page objects, page tree count ${root})`);
  }
  return pages;
}
