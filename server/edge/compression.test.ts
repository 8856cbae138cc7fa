// Compression and HEAD over raw sockets, from a real server (fetch would decompress and hide the lengths): the site's
// pages and files and the API's JSON go out in brotli or gzip as Accept-Encoding asks (q-values, identity, refusals),
// decompress to the plain body, carry Vary and an ETag of their own per coding (304 for it), and a HEAD carries the
// Content-Length of the same GET's body on the site, the API and the dashboard, whose pages are never compressed.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exchange, RawConnection, type RawResponse } from '../../deploy/rawHttp.js';
import { errorBody } from '../errors.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const PLACE = '/en/prayer-times/turkey/istanbul/kadikoy';
const MONTH = '/api/v1/month?city=turkey/istanbul/kadikoy&year=2026&month=3';

/** One request on a connection of its own; `headers` as lines (`Accept-Encoding: br`). */
async function send(method: string, path: string, headers: string[] = []): Promise<RawResponse> {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: a', `X-API-Key: ${key}`, ...headers];
  const { response, connection } = await exchange(server.port, `${lines.join('\r\n')}\r\n\r\n`, { head: method === 'HEAD' });
  connection.close();
  return response;
}

const decoded = (response: RawResponse): Buffer => {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.body);
  if (coding === 'gzip') return gunzipSync(response.body);
  expect(coding).toBeUndefined();
  return response.body;
};

/** The plain ETag with the coding added, as the server tags each form. */
const tagged = (etag: string, coding: string): string => `${etag.slice(0, -1)}-${coding}"`;

describe('the site', () => {
  it('a place page in brotli and gzip is the plain page; Vary on every form, an ETag per form, the length of the bytes sent', async () => {
    const plain = await send('GET', PLACE);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    const etag = plain.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);

    for (const [acceptEncoding, coding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['*', 'br'],
    ]) {
      const response = await send('GET', PLACE, [`Accept-Encoding: ${acceptEncoding}`]);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(coding);
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.headers.etag).toBe(tagged(etag, coding));
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      expect(response.body.length).toBeLessThan(plain.body.length / 3);
      expect(decoded(response).equals(plain.body), acceptEncoding).toBe(true);
    }
    // identity asked for, or every coding we have refused: the plain page.
    for (const acceptEncoding of ['identity', 'br;q=0, gzip;q=0', '*;q=0', 'identity;q=1, gzip;q=0.5', 'deflate', 'gzip;q=bad']) {
      const response = await send('GET', PLACE, [`Accept-Encoding: ${acceptEncoding}`]);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(response.headers.etag).toBe(etag);
      expect(response.body.equals(plain.body), acceptEncoding).toBe(true);
    }
  });

  it('answers 304 to the ETag of the form it would send, and 200 to another form’s', async () => {
    const br = await send('GET', PLACE, ['Accept-Encoding: br']);
    const notModified = await send('GET', PLACE, ['Accept-Encoding: br', `If-None-Match: ${br.headers.etag}`]);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(br.headers.etag);
    expect(notModified.headers.vary).toBe('Accept-Encoding');
    expect(notModified.headers['content-encoding']).toBeUndefined();
    expect(notModified.headers['content-length']).toBeUndefined();
    expect(notModified.body.length).toBe(0);

    // The brotli form's ETag does not stand for the plain page nor the gzip form: those are other bytes.
    const plain = await send('GET', PLACE, [`If-None-Match: ${br.headers.etag}`]);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzip = await send('GET', PLACE, ['Accept-Encoding: gzip', `If-None-Match: ${br.headers.etag}`]);
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect((await send('GET', PLACE, ['Accept-Encoding: gzip', `If-None-Match: W/${gzip.headers.etag}`])).status).toBe(304);
    expect((await send('GET', PLACE, [`If-None-Match: ${plain.headers.etag}`])).status).toBe(304);
  });

  it('HEAD carries the Content-Length of the GET in each form, with no body: the next answer follows at once', async () => {
    const get = await send('GET', PLACE);
    const getBr = await send('GET', PLACE, ['Accept-Encoding: br']);
    const connection = await RawConnection.open(server.port);
    connection.send(
      `HEAD ${PLACE} HTTP/1.1\r\nHost: a\r\n\r\nHEAD ${PLACE} HTTP/1.1\r\nHost: a\r\nAccept-Encoding: br\r\n\r\nHEAD /en/prayer-times/nowhere HTTP/1.1\r\nHost: a\r\n\r\nGET /robots.txt HTTP/1.1\r\nHost: a\r\n\r\n`,
    );
    const head = await connection.response({ head: true });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect(head.headers.etag).toBe(get.headers.etag);
    const headBr = await connection.response({ head: true });
    expect(headBr.headers['content-length']).toBe(String(getBr.body.length));
    expect(headBr.headers['content-encoding']).toBe('br');
    const notFound = await connection.response({ head: true });
    expect(notFound.status).toBe(404);
    expect(Number(notFound.headers['content-length'])).toBe((await send('GET', '/en/prayer-times/nowhere')).body.length);
    const next = await connection.response();
    expect(next.status).toBe(200);
    expect(next.text).toMatch(/^User-agent:/m);
    expect(connection.unread).toBe('');
    connection.close();
  });

  it('the stylesheet and scripts: compressed at start-up, each form its own ETag; small answers stay plain', async () => {
    const page = (await send('GET', PLACE)).text;
    const stylesheet = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(page)![1].replace(/&amp;/g, '&');
    const plain = await send('GET', stylesheet);
    for (const coding of ['br', 'gzip']) {
      const response = await send('GET', stylesheet, [`Accept-Encoding: ${coding}`]);
      expect(response.headers['content-encoding']).toBe(coding);
      expect(response.headers.etag).toBe(tagged(plain.headers.etag, coding));
      expect(response.headers['cache-control']).toBe(plain.headers['cache-control']);
      expect(decoded(response).equals(plain.body)).toBe(true);
      expect((await send('GET', stylesheet, [`Accept-Encoding: ${coding}`, `If-None-Match: ${response.headers.etag}`])).status).toBe(304);
    }
    // robots.txt is a few lines: not worth it, and not said to vary.
    const robots = await send('GET', '/robots.txt', ['Accept-Encoding: br']);
    expect(robots.body.length).toBeLessThan(1024);
    expect(robots.headers['content-encoding']).toBeUndefined();
    expect(robots.headers.vary).toBeUndefined();
  });
});

describe('the API', () => {
  it('a kept month in brotli and gzip is the plain JSON; plain for identity or no header; Vary on each', async () => {
    const plain = await send('GET', MONTH);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.headers['x-quota-remaining']).toBeDefined();
    expect(JSON.parse(plain.text).days.length).toBe(31);
    for (const coding of ['br', 'gzip']) {
      // Twice: the second is the kept answer, with its form kept beside it.
      for (let i = 0; i < 2; i++) {
        const response = await send('GET', MONTH, [`Accept-Encoding: ${coding}`]);
        expect(response.headers['content-encoding']).toBe(coding);
        expect(response.headers.vary).toBe('Accept-Encoding');
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(Number(response.headers['content-length'])).toBe(response.body.length);
        expect(decoded(response).equals(plain.body)).toBe(true);
      }
    }
    const identity = await send('GET', MONTH, ['Accept-Encoding: identity']);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain.body)).toBe(true);
  });

  it('kept answers (a search, the OpenAPI document) and a month made for one request are compressed', async () => {
    for (const path of ['/api/v1/cities?q=san&limit=20', '/api/v1/openapi.json', '/api/v1/month?lat=12.3456&lon=45.6789&year=2026&month=3']) {
      // Compressed first (the month is then made for this request), plain after: the same JSON.
      const br = await send('GET', path, ['Accept-Encoding: gzip, br']);
      const plain = await send('GET', path);
      expect(plain.status, path).toBe(200);
      expect(plain.body.length, path).toBeGreaterThan(4096);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.headers.vary, path).toBe('Accept-Encoding');
      expect(plain.headers.vary, path).toBe('Accept-Encoding');
      expect(decoded(br).equals(plain.body), path).toBe(true);
    }
  });

  it('an answer under 4 KB made for one request alone (a new point’s day) stays plain and does not vary', async () => {
    const response = await send('GET', '/api/v1/times?lat=40.9876&lon=29.1234&date=2026-03-01', ['Accept-Encoding: br']);
    expect(response.status).toBe(200);
    expect(response.body.length).toBeLessThan(4096);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
  });

  it('error bodies are a few hundred bytes: plain, without Vary', async () => {
    const response = await send('GET', '/api/v1/times?lat=99&lon=1', ['Accept-Encoding: br']);
    expect(response.status).toBe(400);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(JSON.parse(response.text).error.code).toBe('invalid_parameter');
  });

  it('HEAD is 405 with the Content-Length of the error it answers; 204 and 304 carry none', async () => {
    const links = { publicBaseUrl: `http://localhost:${server.port}` };
    const connection = await RawConnection.open(server.port);
    connection.send(`HEAD ${MONTH} HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\n\r\nOPTIONS ${MONTH} HTTP/1.1\r\nHost: a\r\nOrigin: https://example.com\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n`);
    const head = await connection.response({ head: true });
    expect(head.status).toBe(405);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(errorBody('method_not_allowed', 'HEAD is not allowed here; use GET.', links))));
    const preflight = await connection.response();
    expect(preflight.status).toBe(204);
    expect(preflight.headers['content-length']).toBeUndefined();
    const next = await connection.response();
    expect(next.status).toBe(200);
    expect(JSON.parse(next.text).status).toBe('ok');
    connection.close();
  });
});

describe('the dashboard', () => {
  it('is never compressed (its pages hold a CSRF token: BREACH), and HEAD carries the GET’s length', async () => {
    const page = await send('GET', '/dashboard/sign-in', ['Accept-Encoding: gzip, br']);
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.headers.vary).toBeUndefined();
    expect(page.text).toContain('name="csrf"');
    const head = await send('HEAD', '/dashboard/sign-in', ['Accept-Encoding: gzip, br']);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(page.body.length));
  });
});
