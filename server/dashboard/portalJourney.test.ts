// A developer's way through the dashboard over real HTTP, against the real server (outbox mode): permanent actions
// ask first (revoking a key, removing a passkey, cancelling or ending a subscription), with CSRF still enforced and
// the bare POST changing nothing; sign-in keeps the page asked for through the code and the link, and ignores every
// `next` that is not a dashboard path; the signed-out notice; the new key's page (Copy buttons, a curl that works,
// the docs); the billing page after a cancellation; the passkey blocks' note for an address that is not the relying
// party's. The same in Chromium: portalJourney.browser.test.ts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountStore, openPasskeyStore } from '../accounts/openStores.js';
import { DashboardBrowser, outboxMail, type Answer } from '../../testing/dashboardBrowser.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';

const API = '/api/v1/qibla?lat=41&lon=29';
const hasCurl = ['/usr/bin/curl', '/bin/curl', '/usr/local/bin/curl'].some((p) => existsSync(p));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: RunningServer;
let origin: string;

beforeAll(async () => {
  // Each test browser is a client of its own behind a proxy on loopback (X-Forwarded-For): the send limits are per client.
  server = await startServer({ TRUST_PROXY: '127.0.0.1' });
  origin = `http://localhost:${server.port}`;
});
afterAll(async () => {
  await server?.stop();
});

const mailTo = (email: string) => outboxMail(server.dataDir, email);

async function signedIn(email: string): Promise<DashboardBrowser> {
  const b = DashboardBrowser.forServer(server);
  const answer = await b.signIn(email, mailTo);
  expect(answer.status).toBe(303);
  return b;
}

async function apiStatus(key: string): Promise<number> {
  const res = await fetch(server.baseUrl + API, { headers: { 'X-API-Key': key } });
  await res.arrayBuffer();
  return res.status;
}

async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(50);
  }
}

const newKeyOf = (text: string): string => /<code class="new-key">(mk_[0-9A-Za-z]{32})<\/code>/.exec(text)![1];
const mainOf = (text: string): string => text.slice(text.indexOf('<main'), text.indexOf('</main>'));
const unescape = (text: string): string => text.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

async function createKey(b: DashboardBrowser, name: string): Promise<{ key: string; id: string; page: Answer }> {
  await b.get('/dashboard/keys');
  const page = await b.post('/dashboard/keys', { name });
  expect(page.status).toBe(200);
  const key = newKeyOf(page.text);
  const list = await b.get('/dashboard/keys');
  const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const row = list.text.split('<tr>').find((r) => r.includes(`>${escaped}<`))!;
  const id = /action="\/dashboard\/keys\/([0-9a-f]{16})\/revoke"/.exec(row)![1];
  return { key, id, page };
}

describe('permanent actions ask first', () => {
  it('revoking a key: the list’s button GETs a question; only its form’s POST revokes; CSRF still holds', async () => {
    const b = await signedIn('revoker@example.com');
    const { key, id } = await createKey(b, 'CI <server>');
    await within(1000, async () => (await apiStatus(key)) === 200);
    const list = await b.get('/dashboard/keys');
    // The Revoke button is a GET form to the question: no token in a URL, nothing changed by it.
    expect(list.text).toContain(`<form class="inline" method="get" action="/dashboard/keys/${id}/revoke">`);

    const question = await b.get(`/dashboard/keys/${id}/revoke`);
    expect(question.status).toBe(200);
    expect(question.headers.get('cache-control')).toBe('no-store');
    const main = mainOf(question.text);
    expect(main).toMatch(/<h1>Revoke the key “CI &lt;server&gt;” \(mk_[0-9A-Za-z]{6}…[0-9A-Za-z]{4}\)\?<\/h1>/);
    expect(main).toContain('This cannot be undone');
    expect(main).toMatch(new RegExp(`<form class="choose confirm" method="post" action="/dashboard/keys/${id}/revoke"[^>]*>\\s*<input type="hidden" name="csrf" value="[A-Za-z0-9_-]{43}">\\s*<input type="hidden" name="confirm" value="yes">`));
    expect(main).toContain('<a href="/dashboard/keys">Keep it: back to your keys</a>');
    expect(await apiStatus(key)).toBe(200);

    // The bare POST (an older page's form, a script): nothing changes, the browser is sent to the question.
    const bare = await b.post(`/dashboard/keys/${id}/revoke`, {});
    expect(bare.status).toBe(303);
    expect(bare.headers.get('location')).toBe(`/dashboard/keys/${id}/revoke`);
    // CSRF first, whatever the confirmation says: no token, a wrong one, another origin, no origin.
    await b.get(`/dashboard/keys/${id}/revoke`);
    expect((await b.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes' }, { csrf: false })).status).toBe(403);
    expect((await b.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes', csrf: 'wrong' })).status).toBe(403);
    expect((await b.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await b.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes' }, { origin: null })).status).toBe(403);
    await sleep(300);
    expect(await apiStatus(key)).toBe(200);

    // Confirmed, from the question's form.
    await b.get(`/dashboard/keys/${id}/revoke`);
    const revoked = await b.post(`/dashboard/keys/${id}/revoke`, { confirm: 'yes' });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe(`/dashboard/keys?revoked=${id}`);
    await within(1000, async () => (await apiStatus(key)) === 403);
    // Asked again for a revoked key: back to the list, which says it is revoked.
    const again = await b.get(`/dashboard/keys/${id}/revoke`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`/dashboard/keys?revoked=${id}`);

    // Another account's key, a malformed id: 404 pages, asked or posted. Without a session: to sign-in, coming back here.
    const other = await signedIn('bystander@example.com');
    expect((await other.get(`/dashboard/keys/${id}/revoke`)).status).toBe(404);
    expect((await other.get('/dashboard/keys/zzz/revoke')).status).toBe(404);
    const stranger = DashboardBrowser.forServer(server);
    const out = await stranger.get(`/dashboard/keys/${id}/revoke`);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(`/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/keys/${id}/revoke`)}`);
  });

  it('removing a passkey: a question first, the bare POST changes nothing, CSRF holds, then it is gone', async () => {
    const b = await signedIn('remover@example.com');
    // A passkey as registration leaves it (registering needs an authenticator: portalJourney.browser.test.ts).
    const accounts = openAccountStore(server.dataDir);
    const passkeys = openPasskeyStore(server.dataDir);
    try {
      const accountId = accounts.accountByEmail('remover@example.com')!.id;
      const added = await passkeys.addCredential({
        id: 'cHJldGVuZGVkLWNyZWRlbnRpYWw',
        accountId,
        publicKey: 'AQID',
        counter: 0,
        transports: ['internal'],
        deviceType: 'multiDevice',
        backedUp: true,
        userHandle: await passkeys.userHandle(accountId),
        name: 'Work "laptop"',
        createdAt: Date.now(),
      });
      expect(added).toBe(true);
    } finally {
      await passkeys.close();
      await accounts.close();
    }
    const list = await b.get('/dashboard/passkeys');
    // The question's id is in the query: the dashboard's GET paths are lower-cased, a credential id is not.
    expect(list.text).toContain('<form method="get" action="/dashboard/passkeys/remove">\n<input type="hidden" name="id" value="cHJldGVuZGVkLWNyZWRlbnRpYWw">');
    const question = await b.get('/dashboard/passkeys/remove?id=cHJldGVuZGVkLWNyZWRlbnRpYWw');
    expect(question.status).toBe(200);
    expect(mainOf(question.text)).toContain('<h1>Remove the passkey “Work &quot;laptop&quot;”?</h1>');
    expect(mainOf(question.text)).toContain('This cannot be undone');
    expect(question.text).toMatch(/<input type="hidden" name="confirm" value="yes">/);

    const bare = await b.post('/dashboard/passkeys/cHJldGVuZGVkLWNyZWRlbnRpYWw/remove', {});
    expect(bare.status).toBe(303);
    expect(bare.headers.get('location')).toBe('/dashboard/passkeys/remove?id=cHJldGVuZGVkLWNyZWRlbnRpYWw');
    await b.get('/dashboard/passkeys/remove?id=cHJldGVuZGVkLWNyZWRlbnRpYWw');
    expect((await b.post('/dashboard/passkeys/cHJldGVuZGVkLWNyZWRlbnRpYWw/remove', { confirm: 'yes', csrf: 'wrong' })).status).toBe(403);
    expect((await b.post('/dashboard/passkeys/cHJldGVuZGVkLWNyZWRlbnRpYWw/remove', { confirm: 'yes' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await b.get('/dashboard/passkeys')).text).toContain('Work &quot;laptop&quot;');

    await b.get('/dashboard/passkeys/remove?id=cHJldGVuZGVkLWNyZWRlbnRpYWw');
    const removed = await b.post('/dashboard/passkeys/cHJldGVuZGVkLWNyZWRlbnRpYWw/remove', { confirm: 'yes' });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('/dashboard/passkeys?removed=1');
    expect((await b.get('/dashboard/passkeys')).text).not.toContain('Work &quot;laptop&quot;');
    // Gone: asking or posting again is the 404 page.
    expect((await b.get('/dashboard/passkeys/remove?id=cHJldGVuZGVkLWNyZWRlbnRpYWw')).status).toBe(404);
    expect((await b.get('/dashboard/passkeys/remove')).status).toBe(404);
    expect((await b.post('/dashboard/passkeys/cHJldGVuZGVkLWNyZWRlbnRpYWw/remove', {})).status).toBe(404);
  });

  it('ending a subscription (local provider): cancelling and ending ask first; the billing page never says "Active (Pro)" after a cancellation', async () => {
    const b = await signedIn('subscriber@example.com');
    await b.get('/dashboard/billing');
    const checkout = await b.post('/dashboard/billing/checkout', { plan: 'pro' });
    expect(checkout.status).toBe(303);
    const session = new URL(checkout.headers.get('location')!, origin).searchParams.get('session')!;
    await b.get(checkout.headers.get('location')!);
    const paid = await b.post('/dashboard/billing/local/checkout', { session, action: 'pay' });
    expect(paid.status).toBe(303);
    expect((await b.get('/dashboard/billing')).text).toContain('<dd>Active (Pro)</dd>');

    const portal = await b.post('/dashboard/billing/portal', {});
    const portalUrl = portal.headers.get('location')!;
    const portalPage = await b.get(portalUrl);
    expect(portalPage.text).toMatch(/<form method="get" action="\/dashboard\/billing\/local\/portal">\s*<input type="hidden" name="return" value="[^"]+">\s*<input type="hidden" name="ask" value="cancel">\s*<button type="submit">Cancel at period end<\/button>/);
    expect(portalPage.text).toMatch(/<input type="hidden" name="ask" value="end_now">\s*<button type="submit">End subscription now/);
    const returnTo = new URL(portalUrl, origin).searchParams.get('return')!;

    // Cancel: the bare POST asks; CSRF holds; then the question's form.
    const bare = await b.post('/dashboard/billing/local/portal', { action: 'cancel', return: returnTo });
    expect(bare.status).toBe(303);
    expect(bare.headers.get('location')).toBe(`/dashboard/billing/local/portal?return=${encodeURIComponent(returnTo)}&ask=cancel`);
    expect((await b.get('/dashboard/billing')).text).toContain('<dd>Active (Pro)</dd>');
    const question = await b.get(bare.headers.get('location')!);
    expect(question.status).toBe(200);
    expect(mainOf(question.text)).toContain('<h1>Cancel the Pro subscription at the end of the period?</h1>');
    expect((await b.post('/dashboard/billing/local/portal', { action: 'cancel', confirm: 'yes', return: returnTo }, { origin: 'https://evil.example' })).status).toBe(403);
    await b.get(bare.headers.get('location')!);
    const cancelled = await b.post('/dashboard/billing/local/portal', { action: 'cancel', confirm: 'yes', return: returnTo });
    expect(cancelled.status).toBe(303);
    const afterCancel = await b.get('/dashboard/billing');
    expect(afterCancel.text).not.toContain('Active (Pro)');
    expect(afterCancel.text).toMatch(/<dt>Subscription<\/dt><dd>Cancelled: Pro until \d{1,2} \w+ \d{4}, then Trial<\/dd>/);
    expect(afterCancel.text).toContain('<dt>Current plan</dt><dd>Pro</dd>');
    expect((await b.get('/dashboard/billing?lang=tr')).text).toMatch(/<dd>İptal edildi: [^<]+ tarihine kadar Pro, sonra Deneme<\/dd>/);
    await b.get('/dashboard/billing?lang=en');

    // End now: asks, then ends; the page says Ended, the plan is Trial.
    await b.get(portalUrl);
    const bareEnd = await b.post('/dashboard/billing/local/portal', { action: 'end_now', return: returnTo });
    expect(bareEnd.headers.get('location')).toContain('&ask=end_now');
    const endQuestion = await b.get(bareEnd.headers.get('location')!);
    expect(mainOf(endQuestion.text)).toContain('<h1>End the Pro subscription now?</h1>');
    expect(mainOf(endQuestion.text)).toContain('This cannot be undone');
    const ended = await b.post('/dashboard/billing/local/portal', { action: 'end_now', confirm: 'yes', return: returnTo });
    expect(ended.status).toBe(303);
    const afterEnd = await b.get('/dashboard/billing');
    expect(afterEnd.text).toContain('<dt>Subscription</dt><dd>Ended</dd>');
    expect(afterEnd.text).toContain('<dt>Current plan</dt><dd>Trial</dd>');
    // Nothing left to end: the question is not asked.
    expect((await b.get(bareEnd.headers.get('location')!)).status).toBe(409);
  });
});

describe('sign-in keeps the page asked for', () => {
  it('through the code and the link: the sign-in page, the forms and the mail carry `next`, and the sign-in lands there', async () => {
    const stranger = DashboardBrowser.forServer(server);
    const away = await stranger.get('/dashboard/usage?lang=en');
    expect(away.status).toBe(303);
    expect(away.headers.get('location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fusage%3Flang%3Den');

    // By code.
    const page = await stranger.get('/dashboard/sign-in?next=%2Fdashboard%2Fusage');
    expect(page.text).toContain('<input type="hidden" name="next" value="/dashboard/usage">');
    expect(page.text).toContain('data-verify="/dashboard/sign-in/passkey?next=%2Fdashboard%2Fusage"');
    const sent = await stranger.post('/dashboard/sign-in/email', { email: 'returner@example.com', next: '/dashboard/usage' });
    expect(sent.text).toContain('<input type="hidden" name="next" value="/dashboard/usage">');
    expect(sent.text).toContain('href="/dashboard/sign-in?next=%2Fdashboard%2Fusage"');
    const mail = await mailTo('returner@example.com');
    const wrong = await stranger.post('/dashboard/sign-in/code', { code: mail.code === '000000' ? '111111' : '000000', next: '/dashboard/usage' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('<input type="hidden" name="next" value="/dashboard/usage">');
    const landed = await stranger.post('/dashboard/sign-in/code', { code: mail.code, next: '/dashboard/usage' });
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe('/dashboard/usage');

    // By the link, opened in another browser: the mail's link names the page too.
    const asker = DashboardBrowser.forServer(server);
    await asker.get('/dashboard/sign-in?next=%2Fdashboard%2Fbilling');
    await asker.post('/dashboard/sign-in/email', { email: 'linker@example.com', next: '/dashboard/billing' });
    const linkMail = await mailTo('linker@example.com');
    const link = /(https?:\/\/\S+\/dashboard\/sign-in\/link\?\S+)/.exec(linkMail.text)![1];
    expect(link).toBe(`${origin}/dashboard/sign-in/link?token=${linkMail.token}&next=%2Fdashboard%2Fbilling`);
    const phone = DashboardBrowser.forServer(server);
    const confirm = await phone.get(link.slice(origin.length));
    expect(confirm.text).toContain('<input type="hidden" name="next" value="/dashboard/billing">');
    const linked = await phone.post('/dashboard/sign-in/link', { token: linkMail.token, next: '/dashboard/billing' });
    expect(linked.status).toBe(303);
    expect(linked.headers.get('location')).toBe('/dashboard/billing');
    expect((await phone.get('/dashboard/billing')).status).toBe(200);
  });

  it('ignores a `next` that is not a dashboard path (//evil, /\\evil, absolute URLs…): no field, and the sign-in lands on /dashboard', async () => {
    const hostile = ['//evil.example', '/\\evil.example', 'https://evil.example/dashboard', `${origin}/dashboard/keys`, '/dashboard//evil.example', '/dashboard/../en', 'javascript:alert(1)', '/en'];
    for (const [i, next] of hostile.entries()) {
      const b = DashboardBrowser.forServer(server);
      const page = await b.get(`/dashboard/sign-in?next=${encodeURIComponent(next)}`);
      expect(page.status).toBe(200);
      expect(page.text, next).not.toContain('name="next"');
      expect(page.text, next).toContain('data-verify="/dashboard/sign-in/passkey"');
      const email = `hostile${i}@example.com`;
      const sent = await b.post('/dashboard/sign-in/email', { email, next });
      expect(sent.status).toBe(200);
      expect(sent.text, next).not.toContain('name="next"');
      const mail = await mailTo(email);
      expect(mail.text, next).not.toContain('next=');
      // Posted by hand all the same: ignored.
      const landed = await b.post('/dashboard/sign-in/code', { code: mail.code, next });
      expect(landed.status).toBe(303);
      expect(landed.headers.get('location'), next).toBe('/dashboard');
    }
    // A crafted link with a hostile `next`: the confirmation carries none, and the sign-in lands on /dashboard.
    const asker = DashboardBrowser.forServer(server);
    await asker.askCode('crafted@example.com');
    const mail = await mailTo('crafted@example.com');
    const phone = DashboardBrowser.forServer(server);
    const confirm = await phone.get(`/dashboard/sign-in/link?token=${mail.token}&next=${encodeURIComponent('//evil.example')}`);
    expect(confirm.text).not.toContain('name="next"');
    const linked = await phone.post('/dashboard/sign-in/link', { token: mail.token, next: '//evil.example' });
    expect(linked.headers.get('location')).toBe('/dashboard');
  });

  it('says "You are signed out" after signing out, in English and Turkish', async () => {
    const b = await signedIn('leaver@example.com');
    await b.get('/dashboard');
    const out = await b.post('/dashboard/sign-out', {});
    expect(out.headers.get('location')).toBe('/dashboard/sign-in?signed-out=1');
    const page = await b.get(out.headers.get('location')!);
    expect(mainOf(page.text)).toContain('<p class="note" role="status">You are signed out.</p>');
    expect(mainOf((await b.get('/dashboard/sign-in?signed-out=1&lang=tr')).text)).toContain('<p class="note" role="status">Çıkış yaptınız.</p>');
    expect(mainOf((await b.get('/dashboard/sign-in?lang=en')).text)).not.toContain('signed out');
  });
});

describe('the new key, the docs and the passkeys’ address', () => {
  it('shows the new key once with Copy buttons, a curl that works as printed, and the way to the docs', async () => {
    const b = await signedIn('copier@example.com');
    const { key, page } = await createKey(b, 'curl');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const main = mainOf(page.text);
    expect(main).toContain(`<p id="new-key"><code class="new-key">${key}</code></p>`);
    expect(main).toMatch(/<button type="button" data-copy="new-key" data-status="new-key-status" data-copied="Copied\." data-failed="[^"]+" hidden>Copy the key<\/button>/);
    expect(main).toMatch(/<button type="button" data-copy="new-key-curl" [^>]*hidden>Copy the command<\/button>/);
    expect(page.text).toMatch(/<script src="\/assets\/copySnippet\.js\?v=[^"]+" defer><\/script>/);
    expect(main).toContain('<a href="/docs">Getting started</a>');
    expect(main).toContain('<a href="/docs/api">API reference</a>');
    const curl = unescape(/<textarea id="new-key-curl"[^>]*>([^<]*)<\/textarea>/.exec(main)![1]);
    expect(curl).toBe(`curl -H 'X-API-Key: ${key}' '${origin}/api/v1/times?lat=41.0082&lon=28.9784'`);
    if (hasCurl) {
      await within(1000, async () => (await apiStatus(key)) === 200);
      const answer = JSON.parse(execFileSync('sh', ['-c', `${curl} --silent --show-error --fail`], { encoding: 'utf8' }));
      expect(answer.times.fajr).toMatch(/^\d\d:\d\d$/);
    }
    // The home page and every signed-in page's navigation lead to the API docs.
    const home = await b.get('/dashboard');
    expect(mainOf(home.text)).toContain('<a href="/docs">Getting started with the API</a>');
    expect(mainOf(home.text)).toContain('<a href="/docs/api">API reference</a>');
    expect(home.text).toContain('<li><a href="/docs">API docs</a></li>');
    expect((await b.get('/dashboard/keys?lang=tr')).text).toContain('<li><a href="/docs">API belgeleri</a></li>');
  });

  it('names the relying party’s address on the passkey blocks, for a page open at another one (127.0.0.1)', async () => {
    const b = DashboardBrowser.forServer(server);
    const page = await b.get('/dashboard/sign-in?next=%2Fdashboard%2Fkeys');
    expect(page.text).toContain(`data-rp-origin="${origin}"`);
    expect(page.text).toContain(`<p class="note" data-passkey-elsewhere hidden>Passkeys cannot work on this page: this site’s passkeys belong to the address localhost`);
    expect(page.text).toContain(`Open this page at <a href="${origin}/dashboard/sign-in?next=%2Fdashboard%2Fkeys">${origin}/dashboard/sign-in?next=%2Fdashboard%2Fkeys</a></p>`);
    const signed = await signedIn('elsewhere@example.com');
    const passkeys = await signed.get('/dashboard/passkeys');
    expect(passkeys.text).toContain(`<a href="${origin}/dashboard/passkeys">${origin}/dashboard/passkeys</a>`);
    expect(passkeys.text).toContain(`data-rp-origin="${origin}"`);
  });
});
