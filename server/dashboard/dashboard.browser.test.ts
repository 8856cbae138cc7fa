// The dashboard end to end in a real browser (Debian's Chromium through playwright-core, testing/browser.ts), against
// the real server with a real SMTP sink (smtp-server on 127.0.0.1, read back with mailparser): e-mail sign-up by code
// and by link (after a mail scanner's GET), passkeys through the DevTools virtual authenticator (register two, sign in
// with no e-mail typed, remove one, a replayed response refused), billing through the local test provider (the API's
// limits follow), CSRF from another origin, forged and replayed webhooks, the session cookie as the browser keeps it,
// pages without JavaScript, and axe-core's WCAG 2.1 AA checks. The browser goes to http://localhost:<port> (with
// PUBLIC_BASE_URL unset the server's own origin), so the WebAuthn relying party id is `localhost`, a host name.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openAccountStore } from '../accounts/openStores.js';
import { axeViolations, formatViolations, launchBrowser, screenshot } from '../../testing/browser.js';
import { signInMail, type SignInMail } from '../../testing/dashboardBrowser.js';
import { dataDirWithCatalog, runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';

const WEBHOOK_SECRET = 'whsec_browser_tests_0123456789abcdef';
const REPO_SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const screenshotFile = (name: string): string =>
  process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(`${REPO_SCREENSHOTS}${name}`) ? `${REPO_SCREENSHOTS}${name}` : path.join(tmpdir(), `prayer-times-${name}`);

// --- the SMTP sink ---

let mails: SignInMail[] = [];
let smtp: SMTPServer;

async function startSink(): Promise<number> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push(signInMail(parsed));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return (smtp.server.address() as AddressInfo).port;
}

/** The newest message to an address (the server hands it to the sink before it answers). */
function mailTo(email: string): SignInMail {
  const found = mails.filter((m) => m.to.toLowerCase() === email.toLowerCase()).pop();
  if (!found) throw new Error(`no message to ${email}`);
  return found;
}

// --- a server of the test's own: the webhook relay (records what the local provider delivers) and another origin ---

interface Delivery {
  payload: string;
  signature: string;
}
const deliveries: Delivery[] = [];
let helper: Server;
let helperPort: number;
/** The page of "another site" that the helper serves at /evil (a form posting to the dashboard). */
let evilPage = '';

async function startHelper(): Promise<void> {
  helper = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/relay') {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const payload = Buffer.concat(chunks).toString('utf8');
        const signature = String(request.headers['stripe-signature'] ?? '');
        deliveries.push({ payload, signature });
        fetch(`${server.baseUrl}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload })
          .then(async (r) => {
            response.writeHead(r.status, { 'content-type': 'application/json' });
            response.end(await r.text());
          })
          .catch(() => {
            response.writeHead(502);
            response.end();
          });
      });
      return;
    }
    if (request.url?.startsWith('/evil')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(evilPage);
      return;
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => helper.listen(0, '127.0.0.1', resolve));
  helperPort = (helper.address() as AddressInfo).port;
}

let server: RunningServer;
let base: string;
let launching: Promise<Browser>;

beforeAll(async () => {
  launching = launchBrowser();
  launching.catch(() => undefined);
  const smtpPort = await startSink();
  await startHelper();
  server = await startServer({
    DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')),
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LOCAL_BILLING_SECRET: WEBHOOK_SECRET,
    LOCAL_BILLING_WEBHOOK_URL: `http://127.0.0.1:${helperPort}/relay`,
    LOG_LEVEL: 'info',
  });
  base = `http://localhost:${server.port}`;
}, 60_000);
afterAll(async () => {
  await launching?.then((browser) => browser.close(), () => undefined);
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (helper ? helper.close(() => resolve()) : resolve()));
});

// --- helpers ---

interface Tab {
  page: Page;
  context: BrowserContext;
  /** Script errors and CSP violations seen so far. */
  problems: string[];
}

async function newTab(options: { javaScript?: boolean } = {}): Promise<Tab> {
  const context = await (await launching).newContext({ javaScriptEnabled: options.javaScript ?? true, viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  return { page, context, problems };
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${formatViolations(violations)}`).toEqual([]);
}

const main = (page: Page): Promise<string> => page.locator('main').innerText();

/** The sign-in page's e-mail form: asks for a code; resolves on the "check your mail" page. */
async function askCode(page: Page, email: string, language: 'en' | 'tr' = 'en'): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in?lang=${language}`);
  await page.fill('#email', email);
  await page.click('form[action="/dashboard/sign-in/email"] button[type="submit"]');
  await page.waitForURL(`${base}/dashboard/sign-in/email`);
}

/** Signs a new or known address in by code, in the browser. */
async function signInByCode(page: Page, email: string): Promise<void> {
  await askCode(page, email);
  await page.fill('#code', mailTo(email).code);
  await page.click('form[action="/dashboard/sign-in/code"] button[type="submit"]');
  await page.waitForURL(`${base}/dashboard`);
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(base)).find((c) => c.name === '__Host-session');
}

/** The cookie header of a browser context, for requests the test makes as that browser. */
async function cookieHeader(context: BrowserContext): Promise<string> {
  return (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** The DevTools virtual authenticator: a platform authenticator with resident keys and user verification. */
async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, id: authenticatorId };
}

/** Adds a passkey on the passkeys page (the "Add a passkey" button); resolves when the reloaded page lists it. */
async function addPasskey(page: Page, name: string): Promise<void> {
  await page.goto(`${base}/dashboard/passkeys`);
  await page.fill('#passkey-name', name);
  await Promise.all([page.waitForEvent('load'), page.click('#passkey-add [data-passkey-start]')]);
  await expect.poll(() => page.locator('tbody th').allTextContents()).toContain(name);
}

/** "Sign in with a passkey" on the sign-in page; resolves with the JSON the page posted and the answer's status. */
async function passkeySignIn(page: Page): Promise<{ posted: string; status: number }> {
  await page.goto(`${base}/dashboard/sign-in`);
  const answered = page.waitForResponse((r) => r.url() === `${base}/dashboard/sign-in/passkey` && r.request().method() === 'POST');
  await page.click('#passkey-sign-in [data-passkey-start]');
  const response = await answered;
  return { posted: response.request().postData() ?? '', status: response.status() };
}

/** A fetch made by the page itself (same origin, its cookies): how the page's own script would post. */
async function postFromPage(page: Page, url: string, body: string, csrf: string): Promise<{ status: number; json: any }> {
  return page.evaluate(
    async ({ url, body, csrf }) => {
      const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body });
      return { status: r.status, json: await r.json() };
    },
    { url, body, csrf },
  );
}

async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Clicks the button of exactly this name. */
const press = (page: Page, name: string): Promise<void> => page.getByRole('button', { name, exact: true }).click();

/** A button of the local provider's portal: it answers with the portal page again. */
async function portalAction(page: Page, name: string): Promise<void> {
  await Promise.all([page.waitForResponse((r) => r.url().includes('/dashboard/billing/local/portal') && r.request().method() === 'POST'), press(page, name)]);
  await page.waitForLoadState('load');
}

async function backToBilling(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Back to billing' }).click();
  await page.waitForURL(/\/dashboard\/billing(\?.*)?$/);
}

const rateLimit = async (key: string): Promise<string | null> =>
  (await fetch(`${server.baseUrl}/api/v1/qibla?lat=41&lon=29`, { headers: { 'X-API-Key': key } })).headers.get('ratelimit-limit');

// --- the tests ---

describe('e-mail sign-in in the browser', () => {
  it('signs up a new address by code: the mail reaches the sink, the dashboard shows the address and the trial plan', async () => {
    const { page, context, problems } = await newTab();
    try {
      await page.goto(`${base}/dashboard/sign-in?lang=en`);
      await expectAccessible(page, 'sign-in page (en)');
      await screenshot(page, screenshotFile('dashboard-sign-in.png'));
      await page.goto(`${base}/dashboard/sign-in?lang=tr`);
      expect(await page.locator('html').getAttribute('lang')).toBe('tr');
      await expectAccessible(page, 'sign-in page (tr)');

      await askCode(page, 'browser.user@example.com');
      expect(await main(page)).toContain('browser.user@example.com');
      await expectAccessible(page, 'code page');
      const mail = mailTo('browser.user@example.com');
      expect(mail.code).toMatch(/^\d{6}$/);
      expect(mail.link.startsWith(`${base}/dashboard/sign-in/link?token=`)).toBe(true);
      await page.fill('#code', mail.code);
      await page.click('form[action="/dashboard/sign-in/code"] button[type="submit"]');
      await page.waitForURL(`${base}/dashboard`);
      const text = await main(page);
      expect(text).toContain('browser.user@example.com');
      expect(text).toContain('Trial');
      await expectAccessible(page, 'dashboard home');
      await screenshot(page, screenshotFile('dashboard-home.png'));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the session cookie as __Host-session: Secure, HttpOnly, SameSite=Lax, Path=/, no Domain', async () => {
    const { page, context } = await newTab();
    try {
      await signInByCode(page, 'cookie.user@example.com');
      const cookie = await sessionCookie(context);
      expect(cookie).toMatchObject({ name: '__Host-session', secure: true, httpOnly: true, sameSite: 'Lax', path: '/', domain: 'localhost' });
      expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // No Domain attribute: a host-only cookie (Playwright reports the host without a leading dot).
      expect(cookie!.domain.startsWith('.')).toBe(false);
      // A month, fixed from sign-in.
      expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);
    } finally {
      await context.close();
    }
  });

  it('sends an address the HTML e-mail field would refuse (a local part that is not ASCII) as typed, and signs it in', async () => {
    const { page, context } = await newTab();
    try {
      await signInByCode(page, 'ÇAĞRI@örnek.com.tr');
      expect(await main(page)).toContain('ÇAĞRI@örnek.com.tr');
    } finally {
      await context.close();
    }
  });

  it('signs in by the link after a mail scanner fetched it: the GET consumes nothing, the POST signs in', async () => {
    const asker = await newTab();
    const reader = await newTab();
    try {
      await askCode(asker.page, 'link.user@example.com');
      const mail = mailTo('link.user@example.com');
      // The scanner: a plain GET from elsewhere, following nothing.
      const scanned = await fetch(mail.link, { redirect: 'manual' });
      expect(scanned.status).toBe(200);
      expect(scanned.headers.getSetCookie().some((c) => c.startsWith('__Host-session='))).toBe(false);
      // The user, in another browser (the link works on any device).
      await reader.page.goto(mail.link);
      expect(await main(reader.page)).toContain('link.user@example.com');
      await expectAccessible(reader.page, 'link confirmation page');
      await reader.page.click('form[action="/dashboard/sign-in/link"] button[type="submit"]');
      await reader.page.waitForURL(`${base}/dashboard`);
      expect(await main(reader.page)).toContain('link.user@example.com');
      expect(await sessionCookie(reader.context)).toBeDefined();
      // Once only.
      const again = await fetch(mail.link);
      expect(await again.text()).toContain('already been used');
    } finally {
      await asker.context.close();
      await reader.context.close();
    }
  });

  it('works without JavaScript: the passkey button is hidden, a note says so, e-mail sign-in works', async () => {
    const { page, context } = await newTab({ javaScript: false });
    try {
      await page.goto(`${base}/dashboard/sign-in?lang=en`);
      expect(await page.locator('#passkey-sign-in').isVisible()).toBe(false);
      expect(await main(page)).toContain('Signing in with a passkey needs JavaScript');
      await signInByCode(page, 'nojs.user@example.com');
      expect(await main(page)).toContain('nojs.user@example.com');
      await page.goto(`${base}/dashboard/passkeys`);
      expect(await page.locator('#passkey-add').isVisible()).toBe(false);
      expect(await main(page)).toContain('Adding a passkey needs JavaScript');
    } finally {
      await context.close();
    }
  });
});

describe('passkeys in the browser (DevTools virtual authenticator)', () => {
  it('registers two passkeys, signs in with one and no e-mail (the session rotates), and a removed one no longer signs in', async () => {
    const { page, context, problems } = await newTab();
    try {
      await signInByCode(page, 'passkey.user@example.com');
      const first = await addAuthenticator(page);
      await page.goto(`${base}/dashboard/passkeys`);
      expect(await page.locator('#passkey-add').isVisible()).toBe(true);
      expect(await main(page)).toContain('You have no passkeys yet.');
      await addPasskey(page, 'Laptop <b>&');
      // Escaped, not markup.
      expect(await page.locator('tbody th').first().innerHTML()).toBe('Laptop &lt;b&gt;&amp;');
      const [laptopCredential] = (await first.cdp.send('WebAuthn.getCredentials', { authenticatorId: first.id })).credentials;
      expect(laptopCredential.isResidentCredential).toBe(true);
      // The user handle the authenticator keeps is random, not the e-mail address.
      expect(Buffer.from(laptopCredential.userHandle!, 'base64').toString('latin1')).not.toContain('passkey.user');

      // A second passkey, on another authenticator (this one would refuse: it holds a passkey of the account).
      await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.id });
      const second = await addAuthenticator(page);
      await addPasskey(page, 'Phone');
      expect(await page.locator('tbody th').allTextContents()).toEqual(['Laptop <b>&', 'Phone']);
      expect(await page.locator('tbody tr').first().innerText()).toContain('Never');
      await expectAccessible(page, 'passkeys page');

      // Sign out, and in with the passkey, typing nothing.
      const before = (await sessionCookie(context))!.value;
      await page.goto(`${base}/dashboard`);
      await page.click('form[action="/dashboard/sign-out"] button[type="submit"]');
      await page.waitForURL(`${base}/dashboard/sign-in?signed-out=1`);
      expect(await sessionCookie(context)).toBeUndefined();
      const signedIn = await passkeySignIn(page);
      expect(signedIn.status).toBe(200);
      await page.waitForURL(`${base}/dashboard`);
      expect(await main(page)).toContain('passkey.user@example.com');
      const after = (await sessionCookie(context))!.value;
      expect(after).not.toBe(before);
      // The old session is over on the server.
      const old = await fetch(`${base}/dashboard`, { headers: { cookie: `__Host-session=${before}` } });
      expect(await old.text()).toContain('name="email"');
      await page.goto(`${base}/dashboard/passkeys`);
      expect(await page.locator('tbody tr').nth(1).innerText()).not.toContain('Never');

      // Remove "Phone" (the passkey of the authenticator at hand), after the page that asks first: it no longer signs in.
      await page.click('button[aria-label="Remove the passkey Phone"]');
      await page.waitForURL(/\/dashboard\/passkeys\/remove\?id=/);
      await press(page, 'Remove the passkey');
      await page.waitForURL(`${base}/dashboard/passkeys?removed=1`);
      expect(await page.locator('tbody th').allTextContents()).toEqual(['Laptop <b>&']);
      await page.goto(`${base}/dashboard`);
      await page.click('form[action="/dashboard/sign-out"] button[type="submit"]');
      await page.waitForURL(`${base}/dashboard/sign-in?signed-out=1`);
      const refused = await passkeySignIn(page);
      expect(refused.status).toBe(400);
      await expect.poll(() => page.locator('#passkey-sign-in [data-passkey-status]').innerText()).toContain('not known here');
      expect(await sessionCookie(context)).toBeUndefined();

      // The other passkey still does: its authenticator back, with its credential.
      await second.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: second.id });
      const again = await addAuthenticator(page);
      await again.cdp.send('WebAuthn.addCredential', { authenticatorId: again.id, credential: laptopCredential });
      expect((await passkeySignIn(page)).status).toBe(200);
      await page.waitForURL(`${base}/dashboard`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses a replayed authentication response, and one answered to a newer challenge', async () => {
    const { page, context } = await newTab();
    try {
      await signInByCode(page, 'replay.user@example.com');
      await addAuthenticator(page);
      await addPasskey(page, 'Key');
      await page.goto(`${base}/dashboard`);
      await page.click('form[action="/dashboard/sign-out"] button[type="submit"]');
      await page.waitForURL(`${base}/dashboard/sign-in?signed-out=1`);
      const { posted, status } = await passkeySignIn(page);
      expect(status).toBe(200);
      await page.waitForURL(`${base}/dashboard`);
      const response = JSON.parse(posted);
      expect(response.id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(response.response.userHandle).toMatch(/^[A-Za-z0-9_-]+$/);

      // The same response again, from the same browser (its pre-session cookie is new: the sign-in cleared it).
      await page.goto(`${base}/dashboard/sign-in`);
      const csrf = (await page.locator('#passkey-sign-in').getAttribute('data-csrf'))!;
      const replayed = await postFromPage(page, '/dashboard/sign-in/passkey', posted, csrf);
      expect(replayed.status).toBe(400);
      expect(replayed.json.error.code).toBe('challenge_expired');
      // After asking for a new challenge: the old response does not answer it.
      const options = await postFromPage(page, '/dashboard/sign-in/passkey/options', '{}', csrf);
      expect(options.status).toBe(200);
      expect(options.json.allowCredentials ?? []).toEqual([]);
      expect(options.json.rpId).toBe('localhost');
      expect(options.json.userVerification).toBe('preferred');
      const stale = await postFromPage(page, '/dashboard/sign-in/passkey', posted, csrf);
      expect(stale.status).toBe(400);
      expect(['passkey_refused', 'passkey_replayed']).toContain(stale.json.error.code);
      // And the challenge was used up by that attempt too.
      const third = await postFromPage(page, '/dashboard/sign-in/passkey', posted, csrf);
      expect(third.json.error.code).toBe('challenge_expired');
    } finally {
      await context.close();
    }
  });

  it('answers the JSON endpoints’ mistakes with JSON errors and a 4xx, never a page or a 500', async () => {
    const { page, context } = await newTab();
    try {
      await page.goto(`${base}/dashboard/sign-in`);
      const cookies = await cookieHeader(context);
      const csrf = (await page.locator('#passkey-sign-in').getAttribute('data-csrf'))!;
      const post = async (url: string, body: string, headers: Record<string, string> = {}) => {
        const r = await fetch(`${server.baseUrl}${url}`, {
          method: 'POST',
          headers: { cookie: cookies, origin: base, 'content-type': 'application/json', 'x-csrf-token': csrf, ...headers },
          body,
        });
        expect(r.headers.get('content-type'), `${url} ${body}`).toMatch(/^application\/json/);
        return { status: r.status, json: (await r.json()) as { error: { code: string; message: string } } };
      };
      const cases: Array<[string, string, Record<string, string>, number, string]> = [
        ['/dashboard/sign-in/passkey', '{', {}, 400, 'invalid_json'],
        ['/dashboard/sign-in/passkey', '[]', {}, 400, 'invalid_response'],
        ['/dashboard/sign-in/passkey', '{"id":"abc","rawId":"abc","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}', {}, 400, 'challenge_expired'],
        ['/dashboard/sign-in/passkey', '{}', { 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
        ['/dashboard/sign-in/passkey', '{}', { 'x-csrf-token': 'nope' }, 403, 'csrf_refused'],
        ['/dashboard/sign-in/passkey/options', '{}', { origin: 'http://evil.example' }, 403, 'csrf_refused'],
        ['/dashboard/sign-in/passkey', JSON.stringify({ pad: 'x'.repeat(70_000) }), {}, 413, 'payload_too_large'],
        // No session: refused as the forms are (their token is the session's).
        ['/dashboard/passkeys/register/options', '{}', {}, 403, 'csrf_refused'],
      ];
      for (const [url, body, headers, status, code] of cases) {
        const answer = await post(url, body, headers);
        expect({ url, status: answer.status, code: answer.json.error.code }).toEqual({ url, status, code });
        expect(answer.json.error.message.length).toBeGreaterThan(0);
      }
      // A response to a real challenge with a credential nobody has.
      expect((await post('/dashboard/sign-in/passkey/options', '{}')).status).toBe(200);
      const unknown = await post('/dashboard/sign-in/passkey', '{"id":"abc","rawId":"abc","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}');
      expect(unknown).toMatchObject({ status: 400, json: { error: { code: 'unknown_passkey' } } });
    } finally {
      await context.close();
    }
  });
});

describe('CSRF from another origin', () => {
  it('refuses a form posted from another site’s page, even with the right token, and the session stays', async () => {
    const { page, context } = await newTab();
    try {
      await signInByCode(page, 'csrf.user@example.com');
      const token = (await page.locator('form[action="/dashboard/sign-out"] input[name="csrf"]').getAttribute('value'))!;
      // Same site (localhost, another port: the Lax cookie goes along), another origin.
      evilPage = `<!doctype html><html lang="en"><title>x</title><form method="post" action="${base}/dashboard/sign-out"><input type="hidden" name="csrf" value="${token}"><button>Win a prize</button></form></html>`;
      await page.goto(`http://localhost:${helperPort}/evil`);
      const answered = page.waitForResponse(`${base}/dashboard/sign-out`);
      await page.click('button');
      const refused = await answered;
      expect(refused.status()).toBe(403);
      expect(await main(page)).toContain('could not be checked as coming from this site');
      await page.goto(`${base}/dashboard`);
      expect(await main(page)).toContain('csrf.user@example.com');
      // A script of another origin cannot post JSON with the header either (CORS preflight fails; no cookie sent).
      const fromScript = await page.evaluate(async (url) => {
        try {
          const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'x' }, body: '{}' });
          return r.status;
        } catch {
          return 'blocked';
        }
      }, `http://127.0.0.1:${server.port}/dashboard/passkeys/register/options`);
      expect(fromScript).not.toBe(200);
    } finally {
      await context.close();
    }
  });
});

describe('billing through the local provider, in the browser', () => {
  it('upgrades to Pro (the API follows within a second), cancels at period end back to trial, and shows a failed payment', async () => {
    const { page, context, problems } = await newTab();
    const email = 'billing.user@example.com';
    try {
      await signInByCode(page, email);
      // A key of the account, made as an operator would (the key pages are another module's).
      const created = await runCli(['keys', 'create', '--email', email], { DATA_DIR: server.dataDir });
      expect(created.code, created.stderr).toBe(0);
      const key = JSON.parse(created.stdout).key as string;
      await within(1000, async () => (await rateLimit(key)) === '10');

      await page.goto(`${base}/dashboard/billing`);
      await expectAccessible(page, 'billing page');
      await press(page, 'Subscribe to Pro');
      await page.waitForURL(/\/dashboard\/billing\/local\/checkout\?/);
      expect(await main(page)).toContain('TEST MODE');
      await expectAccessible(page, 'local checkout page');
      await press(page, 'Pay');
      await page.waitForURL(/\/dashboard\/billing(\?.*)?$/);
      const paidAt = Date.now();
      expect(await main(page)).toContain('Pro');
      await within(1000, async () => (await rateLimit(key)) === '60');
      expect(Date.now() - paidAt).toBeLessThan(1500);

      // Cancel at period end: the plan stays; the period ends: trial.
      await press(page, 'Manage subscription');
      await page.waitForURL(/\/dashboard\/billing\/local\/portal/);
      await expectAccessible(page, 'local portal page');
      // The portal stays on itself after each action, as Stripe's does.
      // The portal asks first (a page of its own), then cancels.
      await press(page, 'Cancel at period end');
      await page.waitForURL(/[?&]ask=cancel/);
      await portalAction(page, 'Cancel at period end');
      expect(await main(page)).toMatch(/stays until/i);
      await backToBilling(page);
      expect(await main(page)).toMatch(/stays until/i);
      expect(await rateLimit(key)).toBe('60');
      await press(page, 'Manage subscription');
      await page.waitForURL(/\/dashboard\/billing\/local\/portal/);
      await portalAction(page, 'Simulate period end (renewal paid)');
      await within(1000, async () => (await rateLimit(key)) === '10');
      await backToBilling(page);
      expect(await main(page)).toContain('Trial');

      // Pro again, then a renewal whose payment fails: the notice.
      await press(page, 'Subscribe to Pro');
      await page.waitForURL(/\/dashboard\/billing\/local\/checkout\?/);
      await press(page, 'Pay');
      await page.waitForURL(/\/dashboard\/billing(\?.*)?$/);
      await press(page, 'Manage subscription');
      await page.waitForURL(/\/dashboard\/billing\/local\/portal/);
      await portalAction(page, 'Simulate period end (renewal payment fails)');
      await backToBilling(page);
      expect(await page.locator('main [role="alert"]').innerText()).toMatch(/payment of .* failed/);
      await expectAccessible(page, 'billing page with the failed-payment notice');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses a forged webhook and applies a replayed one once', async () => {
    expect(deliveries.length).toBeGreaterThan(0);
    const email = 'billing.user@example.com';
    // The "paid" checkout completion the provider delivered for this account.
    // (The last one: its subscription is live, so applying it again would move the plan.)
    const delivered = deliveries.findLast((d) => JSON.parse(d.payload).type === 'checkout.session.completed');
    expect(delivered).toBeDefined();
    const post = (payload: string, signature?: string) =>
      fetch(`${server.baseUrl}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body: payload });

    // Forged: signed with another secret, or not signed, or the body changed under a good signature.
    const forged = await post(delivered!.payload, Stripe.webhooks.generateTestHeaderString({ payload: delivered!.payload, secret: 'whsec_not_ours' }));
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as any).error.code).toBe('invalid_signature');
    expect((await post(delivered!.payload)).status).toBe(400);
    const tampered = await post(delivered!.payload.replace('"paid"', '"unpaid"'), delivered!.signature);
    expect(tampered.status).toBe(400);

    // Replayed: the same event (freshly signed, as a provider's retry is) is answered 200 and changes nothing. The
    // plan is set to trial by hand first: re-applying the event would make it Pro again.
    const setPlan = await runCli(['accounts', 'set-plan', '--email', email, '--plan', 'trial'], { DATA_DIR: server.dataDir });
    expect(setPlan.code, setPlan.stderr).toBe(0);
    const replay = await post(delivered!.payload, Stripe.webhooks.generateTestHeaderString({ payload: delivered!.payload, secret: WEBHOOK_SECRET }));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true });
    const id = JSON.parse(delivered!.payload).id as string;
    await within(1000, async () => server.output.some((line) => line.includes('"billing_event"') && line.includes(id) && line.includes('"duplicate"')));
    const accounts = openAccountStore(server.dataDir);
    try {
      expect(accounts.accountByEmail(email)!.plan).toBe('trial');
    } finally {
      void accounts.close();
    }
  });
});

describe('keys and usage in the browser', () => {
  it('creates a key shown once, which works on the API at once; the usage page counts it; revoking it gives 403', async () => {
    const { page, problems } = await newTab();
    try {
      await signInByCode(page, 'keys.user@example.com');
      await page.goto(`${base}/dashboard/keys`);
      await expectAccessible(page, 'the keys page (empty)');
      await page.fill('#key-name', 'My <b>app</b>');
      const created = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/dashboard/keys` && r.request().method() === 'POST'), page.click('form[action="/dashboard/keys"] button[type="submit"]')]);
      expect(created[0].headers()['cache-control']).toContain('no-store');
      const key = (await page.locator('code.new-key').innerText()).trim();
      expect(key).toMatch(/^mk_[0-9A-Za-z]{32}$/);
      await expectAccessible(page, 'the new key page');
      expect(await main(page)).toContain('My <b>app</b>'); // the name as text, escaped in the markup

      // The key works on the API at once (within a second), and counts.
      await within(1000, async () => (await fetch(`${server.baseUrl}/api/v1/qibla?lat=41&lon=29`, { headers: { 'X-API-Key': key } })).status === 200);
      for (let i = 0; i < 3; i++) expect((await fetch(`${server.baseUrl}/api/v1/qibla?lat=41&lon=29`, { headers: { 'X-API-Key': key } })).status).toBe(200);

      // The list shows it masked, never whole.
      await page.goto(`${base}/dashboard/keys`);
      const listed = await main(page);
      expect(listed).toContain(`${key.slice(0, 9)}…${key.slice(-4)}`);
      expect(await page.content()).not.toContain(key);
      await expectAccessible(page, 'the keys page');

      // The usage page shows this month's requests (at least the four just made) in the table and the chart.
      await page.goto(`${base}/dashboard/usage`);
      await expectAccessible(page, 'the usage page');
      expect(await page.locator('svg[role="img"]').count()).toBe(1);
      // This month's count: the four requests of this key (the account's only one), against the trial's 1,000.
      const month = page.locator('dd span[data-limit="1000"]');
      expect(await month.getAttribute('data-count')).toBe('4');
      expect(await month.innerText()).toBe('4 of 1,000');

      // Revoke: the API answers 403 within a second.
      await page.goto(`${base}/dashboard/keys`);
      // The button's accessible name says which key it revokes.
      await page.getByRole('button', { name: /^Revoke/ }).click();
      // The page that asks first (portalJourney.browser.test.ts tries it further), then the revocation.
      await page.waitForURL(/\/dashboard\/keys\/[0-9a-f]{16}\/revoke\??$/);
      await press(page, 'Revoke the key');
      await page.waitForURL(/\/dashboard\/keys\?revoked=/);
      await within(1000, async () => (await fetch(`${server.baseUrl}/api/v1/qibla?lat=41&lon=29`, { headers: { 'X-API-Key': key } })).status === 403);
      const body = (await (await fetch(`${server.baseUrl}/api/v1/qibla?lat=41&lon=29`, { headers: { 'X-API-Key': key } })).json()) as { error: { code: string } };
      expect(body.error.code).toBe('api_key_revoked');
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
