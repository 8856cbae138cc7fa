// Bad input always gets a clear 4xx with the contract's error body; never a 500, never a dead server.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey());
});
afterAll(async () => {
  await server?.stop();
});

const P = 'lat=41&lon=29';
const LONG = 'a'.repeat(10_000);

// [description, method, path, status, code]
const CASES: Array<[string, string, string, number, string]> = [
  ['lat not a number', 'GET', '/api/v1/times?lat=abc&lon=29', 400, 'invalid_parameter'],
  ['lat NaN', 'GET', '/api/v1/times?lat=NaN&lon=29', 400, 'invalid_parameter'],
  ['lat Infinity', 'GET', '/api/v1/times?lat=Infinity&lon=29', 400, 'invalid_parameter'],
  ['lat -Infinity', 'GET', '/api/v1/times?lat=-Infinity&lon=29', 400, 'invalid_parameter'],
  ['lat 1e400 (overflows to Infinity)', 'GET', '/api/v1/times?lat=1e400&lon=29', 400, 'invalid_parameter'],
  ['lat empty', 'GET', '/api/v1/times?lat=&lon=29', 400, 'invalid_parameter'],
  ['lat 91', 'GET', '/api/v1/times?lat=91&lon=29', 400, 'invalid_parameter'],
  ['lat -90.0001', 'GET', '/api/v1/times?lat=-90.0001&lon=29', 400, 'invalid_parameter'],
  ['lon 180.5', 'GET', '/api/v1/times?lat=41&lon=180.5', 400, 'invalid_parameter'],
  ['lon hexadecimal', 'GET', '/api/v1/times?lat=41&lon=0x10', 400, 'invalid_parameter'],
  ['lat with a comma', 'GET', '/api/v1/times?lat=41,5&lon=29', 400, 'invalid_parameter'],
  ['lon empty', 'GET', '/api/v1/times?lat=41&lon=', 400, 'invalid_parameter'],
  ['lat without lon', 'GET', '/api/v1/times?lat=41', 400, 'missing_parameter'],
  ['lon without lat', 'GET', '/api/v1/month?lon=29', 400, 'missing_parameter'],
  ['no place at all', 'GET', '/api/v1/next', 400, 'missing_parameter'],
  ['city with lat and lon', 'GET', `/api/v1/times?city=istanbul&${P}`, 400, 'conflicting_parameters'],
  ['city with lat only', 'GET', '/api/v1/qibla?city=istanbul&lat=41', 400, 'conflicting_parameters'],
  ['tz with city', 'GET', '/api/v1/times?city=istanbul&tz=UTC', 400, 'invalid_parameter'],
  ['tz unknown zone', 'GET', `/api/v1/times?${P}&tz=Mars/Olympus`, 400, 'invalid_parameter'],
  ['tz as an offset', 'GET', `/api/v1/times?${P}&tz=%2B03:00`, 400, 'invalid_parameter'],
  ['tz empty', 'GET', `/api/v1/times?${P}&tz=`, 400, 'invalid_parameter'],
  ['tz on qibla', 'GET', `/api/v1/qibla?${P}&tz=UTC`, 400, 'unknown_parameter'],
  ['unknown method', 'GET', `/api/v1/times?${P}&method=foo`, 400, 'invalid_parameter'],
  ['method empty', 'GET', `/api/v1/times?${P}&method=`, 400, 'invalid_parameter'],
  ['method in the wrong case', 'GET', `/api/v1/times?${P}&method=DIYANET`, 400, 'invalid_parameter'],
  ['unknown madhab', 'GET', `/api/v1/times?${P}&madhab=maliki`, 400, 'invalid_parameter'],
  ['date 2026-02-30', 'GET', `/api/v1/times?${P}&date=2026-02-30`, 400, 'invalid_parameter'],
  ['date 1899-12-31', 'GET', `/api/v1/times?${P}&date=1899-12-31`, 400, 'invalid_parameter'],
  ['date 2101-01-01', 'GET', `/api/v1/times?${P}&date=2101-01-01`, 400, 'invalid_parameter'],
  ['date without padding', 'GET', `/api/v1/times?${P}&date=2026-1-5`, 400, 'invalid_parameter'],
  ['date without dashes', 'GET', `/api/v1/times?${P}&date=20260105`, 400, 'invalid_parameter'],
  ['date month 13', 'GET', `/api/v1/times?${P}&date=2026-13-01`, 400, 'invalid_parameter'],
  ['date with a time', 'GET', `/api/v1/times?${P}&date=2026-01-05T00:00`, 400, 'invalid_parameter'],
  ['month 13', 'GET', `/api/v1/month?${P}&month=13`, 400, 'invalid_parameter'],
  ['month 0', 'GET', `/api/v1/month?${P}&month=0`, 400, 'invalid_parameter'],
  ['month 1.5', 'GET', `/api/v1/month?${P}&month=1.5`, 400, 'invalid_parameter'],
  ['month word', 'GET', `/api/v1/month?${P}&month=may`, 400, 'invalid_parameter'],
  ['year 1899', 'GET', `/api/v1/month?${P}&year=1899`, 400, 'invalid_parameter'],
  ['year 2101', 'GET', `/api/v1/month?${P}&year=2101`, 400, 'invalid_parameter'],
  ['year 2026.0', 'GET', `/api/v1/month?${P}&year=2026.0`, 400, 'invalid_parameter'],
  ['date on month', 'GET', `/api/v1/month?${P}&date=2026-01-01`, 400, 'unknown_parameter'],
  ['unknown parameter', 'GET', `/api/v1/times?${P}&foo=bar`, 400, 'unknown_parameter'],
  ['repeated parameter', 'GET', `/api/v1/times?${P}&lat=42`, 400, 'unknown_parameter'],
  ['broken percent-encoding', 'GET', `/api/v1/times?${P}&date=%ZZ`, 400, 'invalid_parameter'],
  ['NUL in a value', 'GET', '/api/v1/times?city=ist%00anbul', 400, 'invalid_parameter'],
  ['newline in a value', 'GET', `/api/v1/times?${P}&method=diyanet%0A`, 400, 'invalid_parameter'],
  ['escape character in a value', 'GET', `/api/v1/times?${P}&tz=Europe/Berlin%1B`, 400, 'invalid_parameter'],
  ['a 10 KB value', 'GET', `/api/v1/times?city=${LONG}`, 400, 'invalid_parameter'],
  ['a 10 KB parameter name', 'GET', `/api/v1/times?${P}&${LONG}=1`, 400, 'unknown_parameter'],
  ['cities without q', 'GET', '/api/v1/cities', 400, 'missing_parameter'],
  ['cities q of one letter', 'GET', '/api/v1/cities?q=a', 400, 'invalid_parameter'],
  ['cities q one letter after trimming', 'GET', '/api/v1/cities?q=%20a%20', 400, 'invalid_parameter'],
  ['cities limit 0', 'GET', '/api/v1/cities?q=ist&limit=0', 400, 'invalid_parameter'],
  ['cities limit 51', 'GET', '/api/v1/cities?q=ist&limit=51', 400, 'invalid_parameter'],
  ['cities limit not an integer', 'GET', '/api/v1/cities?q=ist&limit=5.5', 400, 'invalid_parameter'],
  ['cities with lat', 'GET', '/api/v1/cities?q=ist&lat=1', 400, 'unknown_parameter'],
  ['hijri impossible date', 'GET', '/api/v1/hijri?date=2026-02-30', 400, 'invalid_parameter'],
  ['hijri with a place', 'GET', '/api/v1/hijri?lat=1', 400, 'unknown_parameter'],
  ['qibla with method', 'GET', `/api/v1/qibla?${P}&method=isna`, 400, 'unknown_parameter'],
  ['POST', 'POST', `/api/v1/times?${P}`, 405, 'method_not_allowed'],
  ['PUT', 'PUT', '/api/v1/month', 405, 'method_not_allowed'],
  ['DELETE', 'DELETE', '/api/v1/qibla', 405, 'method_not_allowed'],
  ['PATCH', 'PATCH', '/api/v1/hijri', 405, 'method_not_allowed'],
  ['HEAD', 'HEAD', '/api/v1/times', 405, 'method_not_allowed'],
  ['no such path', 'GET', '/api/v1/nothing', 404, 'not_found'],
  ['another version', 'GET', '/api/v2/times', 404, 'not_found'],
  ['trailing slash', 'GET', '/api/v1/times/', 404, 'not_found'],
];

describe('bad input', () => {
  it.each(CASES)('%s → %s %s gives %i %s', async (_what, method, path, status, code) => {
    const res = await fetch(server.baseUrl + path, { method, headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(status);
    if (method === 'HEAD') return; // no body by definition
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(10);
    expect(body.error.docs).toMatch(new RegExp(`/docs/errors#${code}$`));
    expect(body.error.pricing).toMatch(/\/pricing$/);
    if (status === 405) expect(res.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it('answers HEAD without a body, so the next answer on the connection is read right', async () => {
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.write(`HEAD /api/v1/times?${P} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no second answer: ${received}`)), 5000);
      socket.on('data', () => {
        if (received.includes('"status"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    socket.destroy();
    const [head, next] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 405 /);
    // The HEAD answer ends with its headers: the next bytes are the next answer's status line.
    expect(next).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('names the offending parameter and the allowed values', async () => {
    const unknown = (await (await fetch(`${server.baseUrl}/api/v1/times?${P}&foo=bar`, { headers: { 'X-API-Key': key } })).json()) as any;
    expect(unknown.error.message).toContain('"foo"');
    const method = (await (await fetch(`${server.baseUrl}/api/v1/times?${P}&method=foo`, { headers: { 'X-API-Key': key } })).json()) as any;
    expect(method.error.message).toContain('diyanet');
    expect(method.error.message).toContain('portugal');
  });

  it('survives them all at once and keeps serving', async () => {
    const replies = await Promise.all(CASES.map(([, method, path]) => fetch(server.baseUrl + path, { method, headers: { Authorization: `Bearer ${key}` } })));
    expect(replies.every((r) => r.status >= 400 && r.status < 500)).toBe(true);
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const ok = await fetch(`${server.baseUrl}/api/v1/times?${P}`, { headers: { 'X-API-Key': key } });
    expect(ok.status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });
});
