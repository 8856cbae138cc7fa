// deploy/nginx.conf with Debian's nginx in front of the real server: the requests uWebSockets.js leaves unanswered
// on its own (HTTP/1.0, absolute-form targets, header names with punctuation, unknown methods, no Host, control
// characters in header values, bare LF, folded lines, odd versions) and the framing it gets wrong (two Content-Length
// headers) are each answered properly by the pair, and at once. Raw sockets, so that every byte sent is the test's.
// Fails, never skips, without /usr/sbin/nginx: `make test` installs it.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, provisionKey, startServer, type RunningServer } from '../testing/serverProcess.js';
import { askCodeFrom } from '../testing/signInFrom.js';
import { SENDS_PER_CLIENT_PER_HOUR } from '../server/dashboard/signIn.js';
import { startNginx, type RunningNginx } from './nginxProcess.js';
import { exchange, RawConnection, type RawResponse } from './rawHttp.js';

/** Every answer must come within this; uWebSockets.js alone would leave these requests hanging for 10 s. */
const PROMPT_MS = 2_000;
const BASE = 'https://prayer-times.example';
const TIMES = '/api/v1/times?lat=41.0082&lon=28.9784&date=2026-03-01';
const QIBLA = '/api/v1/qibla?lat=-6.2&lon=106.85';

let server: RunningServer;
let nginx: RunningNginx;
let key: string;

beforeAll(async () => {
  const dir = dataDirWithCatalog(inject('catalogDataDir'));
  const plans = path.join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
  key = await provisionKey(dir, 'proxy@example.com', 'business');
  // TRUST_PROXY as deploy/nginx.conf says: the server believes this nginx's X-Forwarded-For.
  server = await startServer({ DATA_DIR: dir, PLANS_FILE: plans, PUBLIC_BASE_URL: BASE, TRUST_PROXY: '127.0.0.1' });
  nginx = await startNginx(`127.0.0.1:${server.port}`, BASE);
});
afterAll(async () => {
  const log = nginx?.errorLog() ?? '';
  await nginx?.stop();
  await server?.stop();
  // A permission problem or a crash of a worker shows here (answers may still have looked right).
  expect(log).not.toMatch(/\[(emerg|alert|crit)\]/);
});

const send = (request: string | Buffer, options?: { head?: boolean }) => exchange(nginx.port, request, options);

function json(response: RawResponse): any {
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(response.text);
}

/** The server's own answer to a request with a valid key: its headers came through nginx. */
function expectFromServerWithKey(response: RawResponse): void {
  expect(response.headers['x-request-id']).toMatch(/^[0-9a-z]+-[0-9a-z]+$/); // the server's, not nginx's hex
  expect(Number(response.headers['ratelimit-limit'])).toBeGreaterThan(0);
  expect(response.headers['ratelimit-remaining']).toMatch(/^\d+$/);
  expect(response.headers['ratelimit-reset']).toMatch(/^\d+$/);
  expect(response.headers['x-quota-reset']).toMatch(/^\d{4}-\d\d-01T00:00:00Z$/);
  expect(response.headers['access-control-allow-origin']).toBe('*');
  expect(response.headers).not.toHaveProperty('uwebsockets');
}

/** An error nginx answered itself, in the API's shape. */
function expectNginxError(response: RawResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  expect(response.headers['access-control-allow-origin']).toBe('*');
  const body = json(response);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(20);
  expect(body.error.docs).toBe(`${BASE}/docs/errors#${code}`);
  expect(body.error.pricing).toBe(`${BASE}/pricing`);
}

const mcpInitialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'nginx-test', version: '1.0.0' } },
});
const MCP_HEADERS = 'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n';

describe('what uWebSockets.js leaves unanswered, answered by the pair', () => {
  it('HTTP/1.0 with a key: 200 with the JSON, the headers, and the connection closed', async () => {
    const { response, connection } = await send(`GET ${TIMES} HTTP/1.0\r\nX-API-Key: ${key}\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(PROMPT_MS);
    expect(response.headers.connection).toBe('close');
    expectFromServerWithKey(response);
    const body = json(response);
    expect(body.date).toBe('2026-03-01');
    expect(body.location.timeZone).toBe('Europe/Istanbul');
    expect(Object.keys(body.times)).toEqual(['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha']);
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('HTTP/1.0 /healthz without a Host header (a health checker): 200, closed', async () => {
    const { response, connection } = await send('GET /healthz HTTP/1.0\r\n\r\n');
    expect(response.status).toBe(200);
    expect(json(response).status).toBe('ok');
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('HTTP/1.0 /readyz without a Host header (a load balancer): the server’s own answer, 200 with the build', async () => {
    const { response, connection } = await send('GET /readyz HTTP/1.0\r\n\r\n');
    expect(response.status).toBe(200);
    expect(json(response)).toEqual({ status: 'ready', build: null });
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('header names with `_` or `.` are dropped and the request answered; a key sent as X_API_Key counts for nothing', async () => {
    const { response } = await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX_Forwarded_Host: evil\r\nX.Trace: 1\r\nX-API-Key: ${key}\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(PROMPT_MS);
    expectFromServerWithKey(response);
    expect(json(response).bearing).toBeCloseTo(295.15, 0);

    const underscored = (await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX_API_Key: ${key}\r\n\r\n`)).response;
    expect(underscored.status).toBe(401);
    expect(json(underscored).error.code).toBe('missing_api_key');
  });

  it('an absolute-form target: answered as its path', async () => {
    const { response } = await send(`GET http://api.example${QIBLA} HTTP/1.1\r\nHost: api.example\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(PROMPT_MS);
    expectFromServerWithKey(response);
    expect(json(response).location.latitude).toBe(-6.2);
  });

  it('an unknown method: 405 from nginx at once, with Allow, and the connection still serves', async () => {
    const { response, connection } = await send(`FOO ${TIMES} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`);
    expectNginxError(response, 405, 'method_not_allowed');
    expect(response.ms).toBeLessThan(PROMPT_MS);
    expect(response.headers.allow).toBe('GET, OPTIONS');
    expect(json(response).error.message).toContain('FOO');
    connection.send(`GET /healthz HTTP/1.1\r\nHost: api.example\r\n\r\n`);
    expect((await connection.response()).status).toBe(200);
    connection.close();

    const mcp = (await send(`PROPFIND /mcp HTTP/1.1\r\nHost: api.example\r\n\r\n`)).response;
    expectNginxError(mcp, 405, 'method_not_allowed');
    expect(mcp.headers.allow).toBe('POST, OPTIONS');
  });

  it('methods the server knows stay the server’s: PUT is its 405', async () => {
    const { response } = await send(`PUT ${TIMES} HTTP/1.1\r\nHost: api.example\r\nContent-Length: 0\r\n\r\n`);
    expect(response.status).toBe(405);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-z]+-[0-9a-z]+$/);
    expect(response.headers.allow).toBe('GET, OPTIONS');
    expect(json(response).error.code).toBe('method_not_allowed');
  });

  it('a malformed request line (a lower-case method): 400 from nginx', async () => {
    const { response, connection } = await send(`get /healthz HTTP/1.1\r\nHost: api.example\r\n\r\n`);
    expectNginxError(response, 400, 'bad_request');
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('HTTP/1.1 without Host: 400 from nginx, closed', async () => {
    const { response, connection } = await send(`GET ${QIBLA} HTTP/1.1\r\nX-API-Key: ${key}\r\n\r\n`);
    expectNginxError(response, 400, 'bad_request');
    expect(response.ms).toBeLessThan(PROMPT_MS);
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('two different Content-Length headers: 400 from nginx, nothing reaches the server', async () => {
    const { response, connection } = await send(
      `POST /mcp HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n${MCP_HEADERS}Content-Length: 2\r\nContent-Length: ${mcpInitialize.length}\r\n\r\n${mcpInitialize}`,
    );
    expectNginxError(response, 400, 'bad_request');
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('Transfer-Encoding with Content-Length: 400 from nginx', async () => {
    const { response, connection } = await send(
      `POST /mcp HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n${MCP_HEADERS}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expectNginxError(response, 400, 'bad_request');
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('more headers than uWebSockets.js takes (about 45): only those the server reads go on, and it answers', async () => {
    const many = Array.from({ length: 100 }, (_, i) => `X-Custom-${i}: ${i}\r\n`).join('');
    const { response } = await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\n${many}X-API-Key: ${key}\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });

  it('a request line over 8 KiB: 414 from nginx', async () => {
    const { response } = await send(`GET /api/v1/cities?q=${'a'.repeat(9_000)} HTTP/1.1\r\nHost: api.example\r\n\r\n`);
    expectNginxError(response, 414, 'uri_too_long');
  });
});

describe('what uWebSockets.js drops before the server’s JavaScript, answered by the pair', () => {
  const withKey = (head: string) => `${head}X-API-Key: ${key}\r\n\r\n`;

  it('any punctuation but `-` in a header name: the header is dropped and the request answered', async () => {
    for (const name of ['X!A', 'X~A', 'X@A', 'X{A}', 'X*A', 'X/A', 'X=A', "X'A", 'X"A']) {
      const { response } = await send(withKey(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\n${name}: 1\r\n`));
      expect(response.status, name).toBe(200);
      expect(response.ms).toBeLessThan(PROMPT_MS);
      expectFromServerWithKey(response);
    }
  });

  it('NUL in a header value: 400 from nginx', async () => {
    const { response } = await send(withKey(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-Trace: a\0b\r\n`));
    expectNginxError(response, 400, 'bad_request');
  });

  it('another control character in a header that goes on: 400 from nginx, at once; in one that does not, dropped', async () => {
    for (const header of [`X-API-Key: ${key}\x01`, 'Cookie: a=\x1fb', 'Accept-Language: tr\x0b', 'Origin: https://app.example\x7f\x1b']) {
      const { response } = await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\n${header}\r\n\r\n`);
      expectNginxError(response, 400, 'bad_request');
      expect(response.ms).toBeLessThan(PROMPT_MS);
    }
    const { response } = await send(withKey(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-Trace: a\x01b\r\n`));
    expect(response.status).toBe(200);
    expectFromServerWithKey(response);
    // A tab is no control character here (uWebSockets.js takes it): the key with a tab inside is simply unknown.
    const tab = (await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: mk_a\tb\r\n\r\n`)).response;
    expect(tab.status).toBe(401);
    expect(json(tab).error.code).toBe('invalid_api_key');
  });

  it('bare LF line ends: answered', async () => {
    const { response } = await send(`GET ${QIBLA} HTTP/1.1\nHost: api.example\nX-API-Key: ${key}\n\n`);
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(PROMPT_MS);
    expectFromServerWithKey(response);
  });

  it('a folded header line, or a space before the colon: 400 from nginx', async () => {
    for (const head of [`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-Trace: a\r\n b\r\n`, `GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-Trace : a\r\n`]) {
      const { response, connection } = await send(withKey(head));
      expectNginxError(response, 400, 'bad_request');
      expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
    }
  });

  it('HTTP/1.2 to HTTP/1.9: answered as HTTP/1.1', async () => {
    for (const version of ['HTTP/1.2', 'HTTP/1.9']) {
      const { response } = await send(withKey(`GET ${QIBLA} ${version}\r\nHost: api.example\r\n`));
      expect(response.status, version).toBe(200);
      expect(response.statusLine).toMatch(/^HTTP\/1\.1 200/);
      expectFromServerWithKey(response);
    }
  });

  it('HTTP/2.0 or later in plain text: 505 from nginx; a version spelt otherwise: 400 from nginx', async () => {
    for (const version of ['HTTP/2.0', 'HTTP/3.0']) {
      const { response, connection } = await send(withKey(`GET ${QIBLA} ${version}\r\nHost: api.example\r\n`));
      expectNginxError(response, 505, 'http_version_not_supported');
      expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
    }
    for (const version of ['http/1.1', 'HTTP/01.1', 'HTTP/1']) {
      const { response } = await send(withKey(`GET ${QIBLA} ${version}\r\nHost: api.example\r\n`));
      expectNginxError(response, 400, 'bad_request');
    }
  });

  it('no version at all (HTTP/0.9): the body alone, as that version has no status line or headers, then closed', async () => {
    const connection = await RawConnection.open(nginx.port);
    connection.send('GET /healthz\r\n');
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
    expect(JSON.parse(connection.unread).status).toBe('ok');
  });

  it('two Host headers: 400 from nginx (the server itself refuses them too)', async () => {
    const { response, connection } = await send(withKey(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nHost: other.example\r\n`));
    expectNginxError(response, 400, 'bad_request');
    expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
  });

  it('a Transfer-Encoding other than chunked: 501 from nginx (the server itself refuses it too)', async () => {
    for (const coding of ['xchunked', 'gzip, chunked', 'identity']) {
      const { response, connection } = await send(
        `POST /mcp HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n${MCP_HEADERS}Transfer-Encoding: ${coding}\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      );
      expectNginxError(response, 501, 'not_implemented');
      expect(await connection.whenClosed(PROMPT_MS)).toBeLessThan(PROMPT_MS);
    }
  });
});

describe('the client’s address (TRUST_PROXY=127.0.0.1)', () => {
  it('is the address nginx was reached from, whatever X-Forwarded-For a client sends', async () => {
    const from = (localAddress: string, email: string, forwardedFor?: string) => askCodeFrom(nginx.port, { localAddress, origin: BASE, email, forwardedFor });
    for (let i = 0; i < SENDS_PER_CLIENT_PER_HOUR; i++) expect(await from('127.0.0.2', `behind${i}@example.com`, `203.0.113.${i + 1}`)).toBe(200);
    expect(await from('127.0.0.2', 'behind-more@example.com', '198.51.100.7')).toBe(429);
    // Another client of the same nginx: a bucket of its own (the server believed nginx's X-Forwarded-For).
    expect(await from('127.0.0.3', 'behind-other@example.com')).toBe(200);
  });
});

describe('the API, MCP and the site through the pair', () => {
  it('takes the key from either header, and refuses a missing or unknown one with the server’s 401', async () => {
    for (const header of [`X-API-Key: ${key}`, `Authorization: Bearer ${key}`]) {
      const { response } = await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\n${header}\r\n\r\n`);
      expect(response.status).toBe(200);
      expectFromServerWithKey(response);
    }
    const none = (await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\n\r\n`)).response;
    expect(none.status).toBe(401);
    expect(json(none).error.code).toBe('missing_api_key');
    const unknown = (await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: mk_${'x'.repeat(32)}\r\n\r\n`)).response;
    expect(unknown.status).toBe(401);
    expect(json(unknown).error.code).toBe('invalid_api_key');
    expect(json(unknown).error.docs).toBe(`${BASE}/docs/authentication`);
  });

  it('counts each request once: RateLimit-Remaining falls by one per request', async () => {
    const first = (await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`)).response;
    const second = (await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`)).response;
    expect(Number(first.headers['x-quota-remaining']) - Number(second.headers['x-quota-remaining'])).toBe(1);
  });

  it('MCP initialize: the JSON-RPC answer with the rate-limit headers', async () => {
    const { response } = await send(
      `POST /mcp HTTP/1.1\r\nHost: api.example\r\nAuthorization: Bearer ${key}\r\n${MCP_HEADERS}Content-Length: ${Buffer.byteLength(mcpInitialize)}\r\n\r\n${mcpInitialize}`,
    );
    expect(response.status).toBe(200);
    expect(response.ms).toBeLessThan(PROMPT_MS);
    expectFromServerWithKey(response);
    const body = json(response);
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBe(1);
    expect(body.result.serverInfo.name).toBe('prayer-times');
  });

  it('MCP with a chunked body (which nginx reads whole and sends on with a length)', async () => {
    const chunks = [mcpInitialize.slice(0, 40), mcpInitialize.slice(40)].map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('');
    const { response } = await send(`POST /mcp HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n${MCP_HEADERS}Transfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(json(response).result.serverInfo.name).toBe('prayer-times');
  });

  it('MCP bodies: 1 MiB reaches the server, one byte more is 413 from nginx before the body is sent', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    const exactly = Buffer.from(ping + ' '.repeat((1 << 20) - ping.length));
    const head = (length: number) => `POST /mcp HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n${MCP_HEADERS}Content-Length: ${length}\r\n\r\n`;
    const fits = (await send(Buffer.concat([Buffer.from(head(exactly.length)), exactly]))).response;
    expect(fits.status).toBe(200);
    expect(json(fits)).toMatchObject({ jsonrpc: '2.0', id: 7, result: {} });

    const { response, connection } = await send(head(exactly.length + 1));
    expectNginxError(response, 413, 'payload_too_large');
    expect(response.ms).toBeLessThan(PROMPT_MS);
    connection.close();
  });

  it('keeps a client connection for several requests, pipelined ones included', async () => {
    const connection = await RawConnection.open(nginx.port);
    const paths = [TIMES, QIBLA, '/api/v1/hijri?date=2026-02-18', '/api/v1/cities?q=ist&limit=2', '/healthz', '/api/v1/openapi.json'];
    for (const p of paths) {
      connection.send(`GET ${p} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`);
      const response = await connection.response();
      expect(response.status, p).toBe(200);
      expect(response.ms).toBeLessThan(PROMPT_MS);
      expect(response.headers.connection).toBe('keep-alive');
    }
    connection.send(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`).join(''));
    const pipelined = [];
    for (const p of paths) pipelined.push({ p, response: await connection.response() });
    for (const { p, response } of pipelined) expect(response.status, p).toBe(200);
    expect(json(pipelined[4].response).status).toBe('ok');
    expect(connection.closed).toBe(false);
    connection.close();
  });

  it('HEAD (the server’s 405, without a body: the Content-Length of its error) leaves the kept upstream connections clean', async () => {
    const connection = await RawConnection.open(nginx.port);
    for (let i = 0; i < 5; i++) {
      connection.send(`HEAD ${TIMES} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`);
      const head = await connection.response({ head: true });
      expect(head.status).toBe(405);
      expect(head.headers.allow).toBe('GET, OPTIONS');
      expect(Number(head.headers['content-length'])).toBeGreaterThan(100);
      connection.send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`);
      const get = await connection.response();
      expect(get.status).toBe(200);
      expect(json(get).location.longitude).toBe(106.85);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(connection.unread).toBe('');
    connection.close();
  });

  it('passes Accept-Encoding on: the server’s brotli and gzip reach the client; the dashboard stays plain', async () => {
    for (const [acceptEncoding, coding, decode] of [
      ['gzip', 'gzip', gunzipSync],
      ['gzip, br', 'br', brotliDecompressSync],
    ] as const) {
      const { response } = await send(`GET /api/v1/openapi.json HTTP/1.1\r\nHost: api.example\r\nAccept-Encoding: ${acceptEncoding}\r\n\r\n`);
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe(coding);
      expect(response.headers.vary).toBe('Accept-Encoding');
      const document = JSON.parse(decode(response.body).toString('utf8'));
      expect(document.openapi).toMatch(/^3\.1/);
      expect(document.servers[0].url).toContain(BASE);
    }
    // A page with a CSRF token is never compressed, by the server or by nginx (BREACH).
    const { response } = await send(`GET /dashboard/sign-in HTTP/1.1\r\nHost: api.example\r\nAccept-Encoding: gzip, br\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString('utf8')).toContain('name="csrf"');
  });

  it('the site behind nginx: pages as HTML with their headers, and the JSON 404 for a path nobody serves', async () => {
    for (const p of ['/', '/en/prayer-times/turkey/istanbul/kadikoy']) {
      const { response } = await send(`GET ${p} HTTP/1.1\r\nHost: api.example\r\n\r\n`);
      expect(response.status, p).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.body.toString('utf8')).toContain(`<link rel="canonical" href="${BASE}${p}">`);
      // Conditional requests reach the server through nginx (If-None-Match is passed on).
      const again = await send(`GET ${p} HTTP/1.1\r\nHost: api.example\r\nIf-None-Match: ${response.headers.etag}\r\n\r\n`);
      expect(again.response.status, p).toBe(304);
    }
    const { response } = await send(`GET /nowhere HTTP/1.1\r\nHost: api.example\r\n\r\n`);
    expect(response.status).toBe(404);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-z]+-[0-9a-z]+$/);
    expect(json(response).error).toMatchObject({ code: 'not_found', docs: `${BASE}/docs/errors#not_found` });
  });

  it('CORS preflight reaches the server', async () => {
    const { response } = await send(
      `OPTIONS ${TIMES} HTTP/1.1\r\nHost: api.example\r\nOrigin: https://app.example\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: x-api-key\r\n\r\n`,
    );
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-headers']).toBe('Authorization, X-API-Key');
  });

  it('logs each request with the server’s request id', async () => {
    const { response } = await send(`GET ${QIBLA} HTTP/1.1\r\nHost: api.example\r\nX-API-Key: ${key}\r\n\r\n`);
    const id = response.headers['x-request-id'];
    // nginx writes the line once the answer is sent; give it a moment.
    let line: string | undefined;
    for (let i = 0; i < 40 && !line; i++) {
      line = nginx.accessLog().split('\n').find((l) => l.includes(`"requestId":"${id}"`));
      if (!line) await new Promise((r) => setTimeout(r, 25));
    }
    expect(JSON.parse(line!)).toMatchObject({ method: 'GET', uri: QIBLA, status: 200, requestId: id });
  });
});

/** A stand-in for the server that shows what nginx sends it. */
interface Seen {
  httpVersion: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaderCount: number;
  socketPort: number;
}

describe('what reaches the server (nginx in front of a recorder)', () => {
  let recorder: http.Server;
  let proxy: RunningNginx;
  const seen: Seen[] = [];

  beforeAll(async () => {
    recorder = http.createServer((req, res) => {
      seen.push({ httpVersion: req.httpVersion, headers: req.headers, rawHeaderCount: req.rawHeaders.length / 2, socketPort: req.socket.remotePort! });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    proxy = await startNginx(`127.0.0.1:${(recorder.address() as AddressInfo).port}`, BASE);
  });
  afterAll(async () => {
    const log = proxy?.errorLog() ?? '';
    await proxy?.stop();
    recorder?.closeAllConnections();
    await new Promise((resolve) => recorder?.close(resolve));
    expect(log).not.toMatch(/\[(emerg|alert|crit)\]/);
  });

  async function through(request: string): Promise<Seen> {
    const before = seen.length;
    const { response, connection } = await exchange(proxy.port, request);
    connection.close();
    expect(response.status).toBe(200);
    expect(seen.length).toBe(before + 1);
    return seen[before];
  }

  it('HTTP/1.1 on kept connections with a Host, whatever the client spoke', async () => {
    const ports = new Set<number>();
    for (let i = 0; i < 5; i++) {
      const s = await through('GET /healthz HTTP/1.0\r\n\r\n');
      expect(s.httpVersion).toBe('1.1');
      expect(s.headers.host).toBeTruthy();
      expect(s.headers.connection).toBeUndefined();
      ports.add(s.socketPort);
    }
    // Five requests from five client connections, over fewer upstream connections (each nginx worker keeps its own).
    expect(ports.size).toBeLessThan(5);
  });

  it('the key headers, MCP’s and the forwarding headers go on; nothing else does', async () => {
    const s = await through(
      'POST /mcp HTTP/1.1\r\nHost: api.example\r\nAuthorization: Bearer mk_a\r\nX-API-Key: mk_b\r\nContent-Type: application/json\r\n' +
        'Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nX-Forwarded-For: 203.0.113.9\r\n' +
        'X_API_Key: mk_c\r\nX-Custom: 1\r\nUser-Agent: test\r\nCookie: a=1\r\nX-CSRF-Token: tok\r\nAccept-Encoding: gzip, br\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(s.headers).toMatchObject({
      host: 'api.example',
      authorization: 'Bearer mk_a',
      'x-api-key': 'mk_b',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      'content-length': '2',
      'x-forwarded-for': '127.0.0.1', // the peer, not what the client claimed
      'x-forwarded-proto': 'http',
      cookie: 'a=1',
      'x-csrf-token': 'tok', // the dashboard's JSON posts (passkeys) carry their CSRF token here
      'accept-encoding': 'gzip, br', // the server compresses, as the client asks
    });
    expect(s.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(s.headers).not.toHaveProperty('x_api_key');
    expect(s.headers).not.toHaveProperty('x-custom');
    expect(s.headers).not.toHaveProperty('user-agent');
    expect(s.rawHeaderCount).toBeLessThanOrEqual(25);
  });

  it('a server that is down: 503 service_unavailable from nginx, at once', async () => {
    recorder.closeAllConnections();
    await new Promise((resolve) => recorder.close(resolve));
    const { response } = await exchange(proxy.port, 'GET /api/v1/qibla?lat=1&lon=1 HTTP/1.1\r\nHost: api.example\r\n\r\n');
    expectNginxError(response, 503, 'service_unavailable');
    expect(response.headers['retry-after']).toBe('5');
    expect(response.ms).toBeLessThan(PROMPT_MS);
  });
});
