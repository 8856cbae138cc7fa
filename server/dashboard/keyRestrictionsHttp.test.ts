// A key's settings over real HTTP on the real server (issue 32): renaming it (escaped, CSRF), restricting it to web
// origins and to client address ranges (IPv4 and IPv6), each refused with 403 key_restricted within a second and
// served again when lifted; the client's address is the connection's, or behind TRUST_PROXY the one the proxy
// forwards (requests sent from other loopback addresses, as the clientAddress tests do); MCP is bound the same way.
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardBrowser, outboxMail } from '../../testing/dashboardBrowser.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';

const API = '/api/v1/qibla?lat=41&lon=29';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET of the API from a chosen local address (fetch cannot choose one), with the headers given. */
function apiFrom(port: number, options: { key: string; localAddress?: string; origin?: string; forwardedFor?: string; path?: string }): Promise<Answer> {
  const headers: Record<string, string> = { 'X-API-Key': options.key };
  if (options.origin !== undefined) headers.Origin = options.origin;
  if (options.forwardedFor !== undefined) headers['X-Forwarded-For'] = options.forwardedFor;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: options.path ?? API, localAddress: options.localAddress ?? '127.0.0.1', agent: false, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await sleep(50);
  }
}

const newKeyOf = (text: string): string => /<code class="new-key">(mk_[0-9A-Za-z]{32})<\/code>/.exec(text)![1];
const settingsIdOf = (listText: string, name: string): string => {
  const row = listText.split('<tr>').find((r) => r.includes(name))!;
  return /href="\/dashboard\/keys\/([0-9a-f]{16})"/.exec(row)![1];
};
const errorOf = (answer: Answer): { code: string; message: string; docs: string } => JSON.parse(answer.body).error;

describe('a key’s settings: rename and restrictions', () => {
  let server: RunningServer;
  let alice: DashboardBrowser;
  let key = '';
  let id = '';

  const save = (fields: { name?: string; origins?: string; ranges?: string }) =>
    alice.post(`/dashboard/keys/${id}`, { name: fields.name ?? 'browser key', origins: fields.origins ?? '', ranges: fields.ranges ?? '' });

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dash-restrict-'));
    const plansFile = path.join(dir, 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ trial: { perMinute: 1000, perMonth: 100000 } }));
    // The dashboard browser's requests come from 127.0.0.1 with X-Forwarded-For: the proxy is trusted.
    server = await startServer({ PLANS_FILE: plansFile, TRUST_PROXY: '127.0.0.1' });
    alice = DashboardBrowser.forServer(server);
    expect((await alice.signIn('alice@example.com', (email) => outboxMail(server.dataDir, email))).status).toBe(303);
    await alice.get('/dashboard/keys');
    key = newKeyOf((await alice.post('/dashboard/keys', { name: 'browser key' })).text);
    id = settingsIdOf((await alice.get('/dashboard/keys')).text, 'browser key');
    await within(1000, async () => (await apiFrom(server.port, { key })).status === 200);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the list links each key to its settings page, a form with the name and both lists', async () => {
    const list = await alice.get('/dashboard/keys');
    expect(list.text).toContain(`<a href="/dashboard/keys/${id}" aria-label="browser key (${key.slice(0, 9)}…${key.slice(-4)}): name and restrictions">browser key</a>`);
    const page = await alice.get(`/dashboard/keys/${id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain(`<form class="key-settings" method="post" action="/dashboard/keys/${id}"`);
    expect(page.text).toMatch(/<input id="key-name" name="name" type="text" required maxlength="60" autocomplete="off" value="browser key"/);
    expect(page.text).toContain('<textarea id="key-origins" name="origins"');
    expect(page.text).toContain('<textarea id="key-ranges" name="ranges"');
    expect(page.text).not.toContain(key);
    const tr = await alice.get(`/dashboard/keys/${id}?lang=tr`);
    expect(tr.text).toContain('Anahtar ayarları: browser key');
    await alice.get(`/dashboard/keys/${id}?lang=en`);
  });

  it('renames: 303 back to the page with a status message; the name is escaped everywhere', async () => {
    await alice.get(`/dashboard/keys/${id}`);
    const saved = await save({ name: '<img src=x onerror=alert(1)>  renamed' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/dashboard/keys/${id}?saved=1`);
    const page = await alice.get(saved.headers.get('location')!);
    expect(page.text).toContain('role="status">Saved.');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt; renamed');
    const list = await alice.get('/dashboard/keys');
    expect(list.text).not.toContain('<img src=x');
    expect(list.text).toContain('&lt;img src=x onerror=alert(1)&gt; renamed</a>');
    await save({ name: 'browser key' });
  });

  it('refuses an empty name, an origin with a path and a range that is none: 400, the text kept, nothing saved', async () => {
    await alice.get(`/dashboard/keys/${id}`);
    const empty = await save({ name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('id="key-name-error" role="alert">Give the key a name.');
    const badOrigin = await save({ origins: 'https://ok.example\nhttps://app.example/path"><script>' });
    expect(badOrigin.status).toBe(400);
    expect(badOrigin.text).toContain('id="key-origins-error" role="alert">“https://app.example/path&quot;&gt;&lt;script&gt;” is not an origin');
    expect(badOrigin.text).not.toContain('"><script>');
    expect(badOrigin.text).toMatch(/<textarea id="key-origins"[^>]*aria-invalid="true">https:\/\/ok.example\nhttps:\/\/app.example\/path&quot;&gt;&lt;script&gt;<\/textarea>/);
    const badRange = await save({ ranges: '203.0.113.0/33' });
    expect(badRange.status).toBe(400);
    expect(badRange.text).toContain('“203.0.113.0/33” is not an address or a CIDR range');
    expect((await apiFrom(server.port, { key, origin: 'https://elsewhere.example' })).status).toBe(200);
  });

  it('needs the session’s form token and the own origin; another account’s key or a made-up id is a 404', async () => {
    await alice.get(`/dashboard/keys/${id}`);
    expect((await alice.post(`/dashboard/keys/${id}`, { name: 'forged', csrf: 'wrong' })).status).toBe(403);
    expect((await alice.post(`/dashboard/keys/${id}`, { name: 'forged' }, { origin: 'https://evil.example' })).status).toBe(403);
    const bob = DashboardBrowser.forServer(server);
    expect((await bob.signIn('bob@example.com', (email) => outboxMail(server.dataDir, email))).status).toBe(303);
    expect((await bob.get(`/dashboard/keys/${id}`)).status).toBe(404);
    await bob.get('/dashboard/keys');
    expect((await bob.post(`/dashboard/keys/${id}`, { name: 'taken', origins: 'https://evil.example' })).status).toBe(404);
    expect((await alice.get('/dashboard/keys/0123456789abcdef')).status).toBe(404);
    expect((await alice.get('/dashboard/keys/not-an-id')).status).toBe(404);
    expect((await alice.get('/dashboard/keys')).text).toContain('>browser key</a>');
    expect((await apiFrom(server.port, { key, origin: 'https://evil.example' })).status).toBe(200);
  });

  it('origins: a browser request from another origin is refused with 403 key_restricted within a second, not counted; its own and requests without Origin are served', async () => {
    await alice.get(`/dashboard/keys/${id}`);
    expect((await save({ origins: 'https://app.example.com\nhttps://*.example.org' })).status).toBe(303);
    const tookMs = await within(1000, async () => (await apiFrom(server.port, { key, origin: 'https://evil.example' })).status === 403);
    expect(tookMs).toBeLessThan(1000);
    const refused = await apiFrom(server.port, { key, origin: 'https://evil.example' });
    expect(refused.headers['content-type']).toContain('application/json');
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(refused.headers['x-quota-remaining']).toBeUndefined();
    const error = errorOf(refused);
    expect(error.code).toBe('key_restricted');
    expect(error.message).toContain('web origins');
    expect(error.message).toContain('Origin https://evil.example is not one of them');
    expect(error.docs).toMatch(/\/docs\/authentication$/); // as every 401 and 403: the page that explains keys

    const own = await apiFrom(server.port, { key, origin: 'https://app.example.com' });
    expect(own.status).toBe(200);
    const remaining = Number(own.headers['x-quota-remaining']);
    for (const origin of ['https://evil.example', 'http://app.example.com', 'https://example.org', 'null']) {
      expect((await apiFrom(server.port, { key, origin })).status, origin).toBe(403);
    }
    expect((await apiFrom(server.port, { key, origin: 'https://shop.example.org' })).status).toBe(200);
    // The refusals were not counted: two more requests served, two more counted.
    const server1 = await apiFrom(server.port, { key });
    expect(server1.status).toBe(200);
    expect(Number(server1.headers['x-quota-remaining'])).toBe(remaining - 2);

    // Lifted: any origin again.
    expect((await save({})).status).toBe(303);
    await within(1000, async () => (await apiFrom(server.port, { key, origin: 'https://evil.example' })).status === 200);
  });

  it('IPv4 ranges: the connection’s address, and behind the trusted proxy the address it forwards', async () => {
    await alice.get(`/dashboard/keys/${id}`);
    expect((await save({ ranges: '127.0.0.2\n203.0.113.0/24' })).status).toBe(303);
    await within(1000, async () => (await apiFrom(server.port, { key, localAddress: '127.0.0.3' })).status === 403);
    const refused = await apiFrom(server.port, { key, localAddress: '127.0.0.3' });
    expect(errorOf(refused).code).toBe('key_restricted');
    expect(errorOf(refused).message).toContain('client address ranges listed for it in the dashboard; 127.0.0.3 is not in them');
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.2' })).status).toBe(200);
    // Through the trusted proxy (127.0.0.1): the forwarded address decides.
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '203.0.113.9' })).status).toBe(200);
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '198.51.100.1' })).status).toBe(403);
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1' })).status).toBe(403); // the proxy itself is not listed
    // A forged X-Forwarded-For from a client that is no trusted proxy is its own claim: its address decides.
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.3', forwardedFor: '203.0.113.9' })).status).toBe(403);
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.2', forwardedFor: '198.51.100.1' })).status).toBe(200);
    // A forged entry left of the proxy's is not believed either.
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '203.0.113.9, 198.51.100.1' })).status).toBe(403);
  });

  it('IPv6 ranges, and both lists at once', async () => {
    await alice.get(`/dashboard/keys/${id}`);
    expect((await save({ ranges: '2001:DB8::/32' })).status).toBe(303);
    // The IPv4 ranges before it refused IPv6 too: wait for an address the new range allows.
    await within(1000, async () => (await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '2001:db8:0:ffff::7' })).status === 200);
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '2001:db9::1' })).status).toBe(403);
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '2001:0DB8::1' })).status).toBe(200);
    const refused = await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '2001:db9::1' });
    expect(errorOf(refused).message).toContain('2001:db9::1 is not in them');
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.2' })).status).toBe(403);

    expect((await save({ origins: 'https://app.example.com', ranges: '2001:db8::/32' })).status).toBe(303);
    await within(1000, async () => (await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '2001:db8::1', origin: 'https://evil.example' })).status === 403);
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '2001:db8::1', origin: 'https://app.example.com' })).status).toBe(200);
    expect((await apiFrom(server.port, { key, localAddress: '127.0.0.1', forwardedFor: '192.0.2.1', origin: 'https://app.example.com' })).status).toBe(403);
    // The page shows the lists as stored, one per line.
    const page = await alice.get(`/dashboard/keys/${id}`);
    expect(page.text).toMatch(/<textarea id="key-ranges"[^>]*>2001:db8::\/32<\/textarea>/);
    expect(page.text).toMatch(/<textarea id="key-origins"[^>]*>https:\/\/app.example.com<\/textarea>/);
  });

  it('MCP is bound by the same restrictions', async () => {
    await alice.get(`/dashboard/keys/${id}`);
    expect((await save({ ranges: '127.0.0.2/32' })).status).toBe(303);
    const initialize = (localAddress: string) =>
      new Promise<Answer>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
        const request = http.request(
          {
            host: '127.0.0.1',
            port: server.port,
            path: '/mcp',
            method: 'POST',
            localAddress,
            agent: false,
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': Buffer.byteLength(body) },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    // Wait for the new range (the lists before it refused 127.0.0.2 too), then another address.
    await within(1000, async () => (await initialize('127.0.0.2')).status === 200);
    const refused = await initialize('127.0.0.3');
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('key_restricted');
    expect((await save({})).status).toBe(303);
  });
});
