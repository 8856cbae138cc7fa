// HTTP that uWebSockets.js lets through to JavaScript but HTTP does not allow, over raw sockets straight to the
// server: two Host headers (400), a transfer coding other than chunked (501), and bytes that are not UTF-8 in the
// query, raw or percent-encoded (one rule: 400). And HEAD's 405, which has no body but the length of one.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exchange, RawConnection, type RawResponse } from '../../deploy/rawHttp.js';
import { errorBody } from '../errors.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }));
});
afterAll(async () => {
  await server?.stop();
});

const QIBLA = '/api/v1/qibla?lat=21.4&lon=39.8';
const send = (request: string | Buffer) => exchange(server.port, request);

/** The edge's own refusal: the API's error shape on every path, and the connection closed after it. */
async function expectRefusal({ response, connection }: { response: RawResponse; connection: RawConnection }, status: number, code: string, message: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  expect(response.headers['x-request-id']).toMatch(/^[0-9a-z]+-[0-9a-z]+$/);
  const { error } = JSON.parse(response.text);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(message);
  expect(error.docs).toBe(`http://localhost:${server.port}/docs/errors#${code}`);
  await connection.whenClosed();
}

describe('two Host headers', () => {
  it('are 400 bad_request on every surface, and the connection is closed', async () => {
    for (const path of [QIBLA, '/en', '/dashboard/sign-in', '/healthz']) {
      await expectRefusal(await send(`GET ${path} HTTP/1.1\r\nHost: a.example\r\nX-API-Key: ${key}\r\nHost: b.example\r\n\r\n`), 400, 'bad_request', /2 Host headers/);
    }
    await expectRefusal(await send(`GET ${QIBLA} HTTP/1.1\r\nHost: a\r\nHost: a\r\nHost: a\r\n\r\n`), 400, 'bad_request', /3 Host headers/);
  });

  it('one Host header is answered as usual', async () => {
    const { response, connection } = await send(`GET ${QIBLA} HTTP/1.1\r\nHost: a.example\r\nX-API-Key: ${key}\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text).bearing).toBeGreaterThan(0);
    connection.close();
  });
});

describe('Transfer-Encoding', () => {
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  const chunked = `${Buffer.byteLength(initialize).toString(16)}\r\n${initialize}\r\n0\r\n\r\n`;
  const mcp = (codings: string) =>
    `POST /mcp HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${codings}\r\n${chunked}`;

  it('other than chunked alone is 501 not_implemented, and the connection is closed (the body cannot be framed)', async () => {
    for (const codings of ['Transfer-Encoding: xchunked\r\n', 'Transfer-Encoding: gzip, chunked\r\n', 'Transfer-Encoding: chunked, chunked\r\n', 'Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n']) {
      await expectRefusal(await send(mcp(codings)), 501, 'not_implemented', /^Transfer-Encoding ".*" is not supported/);
    }
    await expectRefusal(await send(`GET ${QIBLA} HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n`), 501, 'not_implemented', /"identity"/);
  });

  it('chunked, in any case, is read as ever', async () => {
    for (const codings of ['Transfer-Encoding: chunked\r\n', 'Transfer-Encoding: Chunked\r\n']) {
      const { response, connection } = await send(mcp(codings));
      expect(response.status, codings).toBe(200);
      expect(JSON.parse(response.text).result.serverInfo.name).toBe('prayer-times');
      connection.close();
    }
  });
});

describe('bytes that are not UTF-8 in the query', () => {
  const raw = (path: string, bytes: number[], rest = '') =>
    Buffer.concat([Buffer.from(`GET ${path}`, 'latin1'), Buffer.from(bytes), Buffer.from(`${rest} HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\n`, 'latin1')]);
  const escaped = (bytes: number[]) => bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

  it('are answered alike, raw or percent-encoded: 400 invalid_parameter naming the parameter', async () => {
    const cases: Array<[path: string, bytes: number[], rest: string, name: string]> = [
      ['/api/v1/cities?q=is', [0xff, 0xfe], '', 'q'], // never a UTF-8 byte
      ['/api/v1/cities?q=ist', [0xc0, 0xaf], '', 'q'], // an overlong "/"
      ['/api/v1/times?city=ist', [0xed, 0xa0, 0x80], 'anbul', 'city'], // an encoded surrogate
      ['/api/v1/times?city=', [0xc3], '&date=2026-03-01', 'city'], // a sequence cut short
      ['/api/v1/qibla?lat=1&lon=1&x', [0xe2, 0x82], '=1', ''], // in a name
    ];
    for (const [path, bytes, rest, name] of cases) {
      const sentRaw = (await send(raw(path, bytes, rest))).response;
      const sentEscaped = (await send(`GET ${path}${escaped(bytes)}${rest} HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\n`)).response;
      expect(sentRaw.status, path).toBe(400);
      expect(sentRaw.text, path).toBe(sentEscaped.text);
      const { error } = JSON.parse(sentRaw.text);
      expect(error.code).toBe('invalid_parameter');
      expect(error.message).toBe(name ? `The value of "${name}" is not valid UTF-8 (raw or percent-encoded).` : 'A parameter name is not valid UTF-8 (raw or percent-encoded).');
    }
  });

  it('U+FFFD itself is refused too (raw bytes that are not UTF-8 reach the server as it); valid UTF-8 raw is taken', async () => {
    const replacement = (await send(`GET /api/v1/cities?q=ist%EF%BF%BD HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\n`)).response;
    expect(replacement.status).toBe(400);
    expect(JSON.parse(replacement.text).error.message).toBe('The value of "q" is not valid UTF-8 (raw or percent-encoded).');

    const kadikoy = Buffer.from('Kadıköy', 'utf8');
    const sentRaw = (await send(raw('/api/v1/cities?q=', [...kadikoy], '&limit=1'))).response;
    const sentEscaped = (await send(`GET /api/v1/cities?q=${encodeURIComponent('Kadıköy')}&limit=1 HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\n`)).response;
    expect(sentRaw.status).toBe(200);
    expect(sentRaw.text).toBe(sentEscaped.text);
    expect(JSON.parse(sentRaw.text).cities[0].name).toBe('Kadıköy');
  });
});

describe('HEAD', () => {
  it('is the server’s 405 with Allow and no body (the length its error body has): the next answer follows at once', async () => {
    const connection = await RawConnection.open(server.port);
    connection.send(`HEAD ${QIBLA} HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n`);
    const head = await connection.response({ head: true });
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET, OPTIONS');
    // The length of the body a GET of this answer would carry (RFC 9110, 9.3.2), none of it sent.
    const error = errorBody('method_not_allowed', 'HEAD is not allowed here; use GET.', { publicBaseUrl: `http://localhost:${server.port}` });
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(error)));
    // Read as an answer with a body: nothing between its head and the next status line.
    const next = await connection.response();
    expect(next.status).toBe(200);
    expect(JSON.parse(next.text).status).toBe('ok');
    connection.close();
  });
});
