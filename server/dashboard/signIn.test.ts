// The dashboard's e-mail sign-in over real HTTP, against the real server, with a real SMTP server as the sink
// (smtp-server on 127.0.0.1, messages read back with mailparser): codes, links, the same answer for known and unknown
// addresses, five wrong codes, expiry, CSRF, body bounds, the session cookie, sign-out, limits, and outbox mode.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openAccountStore } from '../accounts/openStores.js';
import { DashboardBrowser, outboxMail, signInMail, type SignInMail } from '../../testing/dashboardBrowser.js';
import { dataDirWithCatalog, startServer, type RunningServer } from '../../testing/serverProcess.js';

/** The SMTP sink: every message it accepted, parsed, with the credentials it was sent with. */
interface Sink {
  port: number;
  messages: Array<SignInMail & { user: string | undefined; from: string }>;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const messages: Sink['messages'] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(new Error('bad credentials'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const from = parsed.from?.text ?? '';
          messages.push({ ...signInMail(parsed), user: session.user as string | undefined, from });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let sink: Sink;
let server: RunningServer;

beforeAll(async () => {
  sink = await startSink();
  server = await startServer({
    DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')),
    SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${sink.port}`,
    MAIL_FROM: 'Dashboard Tests <tests@prayer-times.example>',
    // The test browsers stand for clients behind a proxy on loopback: each its own X-Forwarded-For.
    TRUST_PROXY: '127.0.0.1',
  });
});
afterAll(async () => {
  await server?.stop();
  await sink?.close();
});

const browser = (clientAddress?: string): DashboardBrowser => DashboardBrowser.forServer(server, clientAddress);

/** The newest message to an address (the server has handed it to the sink before it answered). */
async function mailTo(email: string): Promise<Sink['messages'][number]> {
  const found = sink.messages.filter((m) => m.to.toLowerCase() === email.toLowerCase()).pop();
  if (!found) throw new Error(`no message to ${email}`);
  return found;
}

const mailCount = (email: string): number => sink.messages.filter((m) => m.to === email).length;

/** The `__Host-session` Set-Cookie line of an answer, as attributes. */
function sessionCookieOf(setCookies: string[]): { value: string; attributes: string[] } | undefined {
  const line = setCookies.find((c) => c.startsWith('__Host-session='));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';').map((s) => s.trim());
  return { value: pair.slice('__Host-session='.length), attributes };
}

const mainOf = (text: string): string => /<main id="main">([\s\S]*)<\/main>/.exec(text)?.[1] ?? '';

describe('e-mail sign-in', () => {
  it('signs up a new address by code: the message has the code and the link, the account is a trial one without keys', async () => {
    const b = browser();
    const page = await b.get('/dashboard');
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="email"');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('<meta name="robots" content="noindex');
    expect(page.setCookies.some((c) => c.startsWith('__Host-signin='))).toBe(true);

    const sent = await b.post('/dashboard/sign-in/email', { email: 'Fresh.User@Example.com' });
    expect(sent.status).toBe(200);
    // The address as typed: mail goes to it and the pages show it (docs/dashboard.md, "E-mail addresses").
    expect(mainOf(sent.text)).toContain('If Fresh.User@Example.com can sign in, we sent a code to it.');
    const mail = await mailTo('fresh.user@example.com');
    expect(mail.user).toBe('mailer');
    expect(mail.from).toContain('tests@prayer-times.example');
    expect(mail.subject).toContain(mail.code);
    expect(mail.link).toBe(`http://localhost:${server.port}/dashboard/sign-in/link?token=${mail.token}`);
    expect(mail.html).toContain(mail.code);
    expect(mail.html).toContain(mail.token);

    const signedIn = await b.post('/dashboard/sign-in/code', { code: mail.code });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/dashboard');
    expect(sessionCookieOf(signedIn.setCookies)).toBeDefined();
    const home = await b.get('/dashboard');
    expect(home.status).toBe(200);
    expect(mainOf(home.text)).toContain('Fresh.User@Example.com');
    expect(mainOf(home.text)).toContain('Trial');
    for (const link of ['/dashboard/keys', '/dashboard/usage', '/dashboard/billing', '/dashboard/passkeys', '/dashboard/sign-out']) expect(home.text).toContain(link);

    const accounts = openAccountStore(server.dataDir);
    try {
      const account = accounts.accountByEmail('fresh.user@example.com');
      expect(account).toMatchObject({ plan: 'trial' });
      expect([...accounts.allKeys().values()].filter((k) => k.accountId === account!.id)).toEqual([]);
    } finally {
      await accounts.close();
    }
  });

  it('signs in by the link: its GET shows a confirmation and consumes nothing, its POST signs in once', async () => {
    const asker = browser();
    await asker.askCode('linker@example.com');
    const mail = await mailTo('linker@example.com');
    const path = `/dashboard/sign-in/link?token=${mail.token}`;

    // A mail scanner (no cookies) and the user's other device fetch the link: nothing happens.
    const scanner = browser();
    for (let i = 0; i < 2; i++) {
      const page = await scanner.get(path);
      expect(page.status).toBe(200);
      expect(mainOf(page.text)).toContain('Sign in as linker@example.com?');
      expect(page.text).toContain(`name="token" value="${mail.token}"`);
      expect(sessionCookieOf(page.setCookies)).toBeUndefined();
    }
    const phone = browser();
    await phone.get(path);
    const signedIn = await phone.post('/dashboard/sign-in/link', { token: mail.token });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/dashboard');
    expect(mainOf((await phone.get('/dashboard')).text)).toContain('linker@example.com');

    // Used: the POST again, the GET, and the code of the same request are all refused.
    const again = await scanner.post('/dashboard/sign-in/link', { token: mail.token });
    expect(again.status).toBe(400);
    expect(mainOf(again.text)).toContain('already been used');
    expect(sessionCookieOf(again.setCookies)).toBeUndefined();
    expect(mainOf((await scanner.get(path)).text)).toContain('already been used');
    const code = await asker.post('/dashboard/sign-in/code', { code: mail.code });
    expect(code.status).toBe(400);
    expect(mainOf(code.text)).toContain('already been used');
    const unknown = await scanner.get('/dashboard/sign-in/link?token=nonsense');
    expect(unknown.status).toBe(400);
    expect(mainOf(unknown.text)).toContain('not known');
  });

  it('answers the same for a known and an unknown address', async () => {
    await browser().signIn('known@example.com', mailTo);
    const answers = [];
    for (const email of ['known@example.com', 'unknown@example.com']) {
      const b = browser();
      const answer = await b.askCode(email);
      answers.push({ status: answer.status, main: mainOf(answer.text).replaceAll(email, 'ADDRESS').replace(/value="[A-Za-z0-9_-]{43}"/g, 'value="TOKEN"') });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].status).toBe(200);
    expect(answers[0].main).toContain('If ADDRESS can sign in, we sent a code to it.');
    expect(mailCount('unknown@example.com')).toBe(1);
  });

  it('takes five wrong codes, then locks the request: the right code no longer signs in', async () => {
    const b = browser();
    await b.askCode('guesser@example.com');
    const { code } = await mailTo('guesser@example.com');
    const wrong = code === '123456' ? '654321' : '123456';
    for (let left = 4; left >= 0; left--) {
      const answer = await b.post('/dashboard/sign-in/code', { code: wrong });
      expect(answer.status).toBe(400);
      expect(mainOf(answer.text)).toContain(left === 0 ? 'it was the last try' : `${left} ${left === 1 ? 'try' : 'tries'} left`);
    }
    const sixth = await b.post('/dashboard/sign-in/code', { code });
    expect(sixth.status).toBe(400);
    expect(mainOf(sixth.text)).toContain('Too many wrong codes');
    expect(sessionCookieOf(sixth.setCookies)).toBeUndefined();
    // A code that is not 6 digits is a message, not a try.
    const malformed = await b.post('/dashboard/sign-in/code', { code: '12ab' });
    expect(malformed.status).toBe(400);
    expect(mainOf(malformed.text)).toContain('A code is 6 digits.');
  });

  it('binds the code to the browser that asked', async () => {
    const asker = browser();
    await asker.askCode('bound@example.com');
    const { code } = await mailTo('bound@example.com');
    const other = browser();
    await other.get('/dashboard/sign-in');
    const refused = await other.post('/dashboard/sign-in/code', { code });
    expect(refused.status).toBe(400);
    expect(mainOf(refused.text)).toContain('No sign-in is waiting in this browser');
    expect((await asker.post('/dashboard/sign-in/code', { code })).status).toBe(303);
  });

  it('refuses a bad address with a message on the page, and echoes it escaped', async () => {
    const b = browser();
    await b.get('/dashboard/sign-in');
    const answer = await b.post('/dashboard/sign-in/email', { email: '<script>x</script>' });
    expect(answer.status).toBe(400);
    expect(mainOf(answer.text)).toContain('That is not an e-mail address.');
    expect(answer.text).toContain('value="&lt;script&gt;x&lt;/script&gt;"');
    expect(answer.text).not.toContain('<script>x');
  });

  it('limits sends: five an hour per address, the same page with a notice whether or not the address is known', async () => {
    for (let i = 0; i < 5; i++) expect((await browser().askCode('often@example.com')).status).toBe(200);
    const limited = await browser().askCode('often@example.com');
    expect(limited.status).toBe(429);
    expect(mainOf(limited.text)).toContain('Too many codes were asked');
    expect(mainOf(limited.text)).toContain('If often@example.com can sign in');
    expect(mailCount('often@example.com')).toBe(5);
  });

  it('limits sends: twenty an hour per client address, whatever the addresses', async () => {
    const client = '203.0.113.77';
    for (let i = 0; i < 20; i++) expect((await browser(client).askCode(`many${i}@example.com`)).status).toBe(200);
    const limited = await browser(client).askCode('many20@example.com');
    expect(limited.status).toBe(429);
    expect(mailCount('many20@example.com')).toBe(0);
    expect((await browser('203.0.113.78').askCode('many20@example.com')).status).toBe(200);
  });
});

describe('the session cookie', () => {
  it('is __Host-session, Secure, HttpOnly, SameSite=Lax, Path=/, without Domain, and rotates at each sign-in', async () => {
    const b = browser();
    const first = sessionCookieOf((await b.signIn('cookie@example.com', mailTo)).setCookies)!;
    expect(first.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.attributes).toEqual(expect.arrayContaining(['Path=/', 'Secure', 'HttpOnly', 'SameSite=Lax']));
    expect(first.attributes.some((a) => /^domain=/i.test(a))).toBe(false);
    expect(first.attributes).toContain('Max-Age=2592000');

    const second = sessionCookieOf((await b.signIn('cookie@example.com', mailTo)).setCookies)!;
    expect(second.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.value).not.toBe(first.value);
    // The first token ended when the second was made.
    const stale = browser();
    stale.cookies.set('__Host-session', first.value);
    expect(mainOf((await stale.get('/dashboard')).text)).not.toContain('cookie@example.com');
    expect(mainOf((await b.get('/dashboard')).text)).toContain('cookie@example.com');
  });

  it('ends at sign-out: the cookie is removed and the old token no longer works', async () => {
    const b = browser();
    await b.signIn('leaver@example.com', mailTo);
    const token = b.cookies.get('__Host-session')!;
    await b.get('/dashboard');
    const out = await b.post('/dashboard/sign-out', {});
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/dashboard/sign-in?signed-out=1');
    expect((await b.get(out.headers.get('location')!)).text).toContain('<p class="note" role="status">You are signed out.</p>');
    expect(out.setCookies.find((c) => c.startsWith('__Host-session='))).toContain('Max-Age=0');
    const replay = browser();
    replay.cookies.set('__Host-session', token);
    const page = await replay.get('/dashboard');
    expect(page.status).toBe(200);
    expect(mainOf(page.text)).not.toContain('leaver@example.com');
    expect(page.text).toContain('name="email"');
    // Signing out again with the old token: refused, the session is gone.
    replay.csrf = 'anything';
    expect((await replay.post('/dashboard/sign-out', {})).status).toBe(403);
  });
});

describe('CSRF and bad requests', () => {
  it('refuses a POST without the form token (403 page), with a foreign Origin (403), and with neither Origin nor same-origin Sec-Fetch-Site', async () => {
    const b = browser();
    await b.get('/dashboard/sign-in');
    const noToken = await b.post('/dashboard/sign-in/email', { email: 'csrf@example.com' }, { csrf: false });
    expect(noToken.status).toBe(403);
    expect(noToken.headers.get('content-type')).toContain('text/html');
    expect(mainOf(noToken.text)).toContain('Request refused');
    const foreign = await b.post('/dashboard/sign-in/email', { email: 'csrf@example.com' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const bare = await b.post('/dashboard/sign-in/email', { email: 'csrf@example.com' }, { origin: null });
    expect(bare.status).toBe(403);
    const crossSite = await b.post('/dashboard/sign-in/email', { email: 'csrf@example.com' }, { origin: null, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(mailCount('csrf@example.com')).toBe(0);
    // Without Origin, Sec-Fetch-Site: same-origin does.
    const sameSite = await b.post('/dashboard/sign-in/email', { email: 'csrf@example.com' }, { origin: null, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(sameSite.status).toBe(200);
    expect(mailCount('csrf@example.com')).toBe(1);
    // Without the pre-session cookie, its token means nothing.
    const cookieless = browser();
    const refused = await cookieless.post('/dashboard/sign-in/email', { email: 'csrf@example.com', csrf: b.csrf });
    expect(refused.status).toBe(403);
  });

  it('refuses a signed-in POST with a foreign Origin, without its token, or with another session\'s token', async () => {
    const b = browser();
    await b.signIn('forms@example.com', mailTo);
    const home = await b.get('/dashboard');
    const token = b.csrf;
    expect(home.text).toContain(`name="csrf" value="${token}"`);
    expect((await b.post('/dashboard/sign-out', {}, { origin: 'http://localhost.evil.example' })).status).toBe(403);
    expect((await b.post('/dashboard/sign-out', {}, { csrf: false })).status).toBe(403);
    const other = browser();
    await other.signIn('forms2@example.com', mailTo);
    await other.get('/dashboard');
    expect((await b.post('/dashboard/sign-out', { csrf: other.csrf })).status).toBe(403);
    expect(mainOf((await b.get('/dashboard')).text)).toContain('forms@example.com');
  });

  it('refuses an oversized body with a 413 page, declared or streamed', async () => {
    const b = browser();
    await b.get('/dashboard/sign-in');
    const big = `email=${'a'.repeat(17 * 1024)}%40example.com&csrf=${b.csrf}`;
    const declared = await b.post('/dashboard/sign-in/email', {}, { body: big });
    expect(declared.status).toBe(413);
    expect(mainOf(declared.text)).toContain('larger than this form takes');
    // Chunked, without a length: read up to the bound, then refused.
    const streamed = await fetch(`${server.baseUrl}/dashboard/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.origin, cookie: `__Host-signin=${b.cookies.get('__Host-signin')}` },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('a'.repeat(1024)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('answers unknown paths with a 404 page, other methods with 405 and Allow, another content type with 415', async () => {
    const b = browser();
    const missing = await b.get('/dashboard/nowhere?lang=tr');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<html lang="tr">');
    expect(mainOf(missing.text)).toContain('Sayfa bulunamadı');
    expect((await b.get('/webhooks/nothing')).status).toBe(404);
    const wrongMethod = await b.get('/dashboard/sign-out');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    await b.get('/dashboard/sign-in');
    const json = await b.post('/dashboard/sign-in/email', {}, { headers: { 'content-type': 'application/json' }, body: '{"email":"x@example.com"}' });
    expect(json.status).toBe(415);
  });

  it('speaks Turkish by ?lang=tr (kept in a cookie) or Accept-Language, and sends the message in Turkish', async () => {
    const b = browser();
    const tr = await b.get('/dashboard/sign-in?lang=tr');
    expect(tr.text).toContain('<html lang="tr">');
    expect(tr.text).toContain('href="/dashboard/sign-in?lang=en"');
    expect(tr.setCookies.some((c) => c.startsWith('lang=tr'))).toBe(true);
    expect((await b.get('/dashboard/sign-in')).text).toContain('<html lang="tr">');
    const sent = await b.post('/dashboard/sign-in/email', { email: 'turkce@example.com' });
    expect(mainOf(sent.text)).toContain('turkce@example.com ile giriş yapılabiliyorsa');
    const mail = await mailTo('turkce@example.com');
    expect(mail.subject).toContain('giriş kodunuz');
    expect(mail.text).toContain(`Giriş kodunuz: ${mail.code}`);
    const byHeader = await browser().get('/dashboard', { 'accept-language': 'de-DE, tr;q=0.8, en;q=0.5' });
    expect(byHeader.text).toContain('<html lang="tr">');
    expect((await browser().get('/dashboard', { 'accept-language': 'fr' })).text).toContain('<html lang="en">');
  });
});

describe('without SMTP_URL', () => {
  let outboxServer: RunningServer;
  beforeAll(async () => {
    outboxServer = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), SIGN_IN_TTL_SECONDS: '1', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await outboxServer?.stop();
  });

  it('writes the message to DATA_DIR/outbox and logs its code; the code signs in', async () => {
    const b = DashboardBrowser.forServer(outboxServer);
    await b.askCode('outbox@example.com');
    const dir = path.join(outboxServer.dataDir, 'outbox');
    expect(existsSync(dir)).toBe(true);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{9}Z-\d+-\d{6}-[0-9a-f]{6}\.eml$/);
    expect(readFileSync(path.join(dir, files[0]), 'utf8')).toContain('To: outbox@example.com');
    const mail = await outboxMail(outboxServer.dataDir, 'outbox@example.com');
    expect((await b.post('/dashboard/sign-in/code', { code: mail.code })).status).toBe(303);
    // The log line (at warn, so `make run` shows it) names the file and the code.
    await new Promise((resolve) => setTimeout(resolve, 400)); // the log is flushed every 200 ms
    const line = outboxServer.output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((l) => l.event === 'mail_outbox');
    expect(line).toMatchObject({ to: 'outbox@example.com', code: mail.code, file: path.join(dir, files[0]) });
  });

  it('refuses an expired code and link (SIGN_IN_TTL_SECONDS=1 here)', async () => {
    const b = DashboardBrowser.forServer(outboxServer);
    await b.askCode('late@example.com');
    const mail = await outboxMail(outboxServer.dataDir, 'late@example.com');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const link = await b.get(`/dashboard/sign-in/link?token=${mail.token}`);
    expect(link.status).toBe(400);
    expect(mainOf(link.text)).toContain('has expired');
    const answer = await b.post('/dashboard/sign-in/code', { code: mail.code });
    expect(answer.status).toBe(400);
    expect(mainOf(answer.text)).toContain('This code has expired');
    expect(sessionCookieOf(answer.setCookies)).toBeUndefined();
  });
});
