// How parameter values are read and which error answers first (docs/api.md, "The OpenAPI description"), over HTTP: one
// white-space rule for every parameter of every operation, and the order of the checks when several would fail.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }));
});
afterAll(async () => {
  await server?.stop();
});

const get = async (p: string, headers: Record<string, string> = { 'X-API-Key': key }) => {
  const res = await fetch(server.baseUrl + p, { headers });
  return { status: res.status, body: (await res.json()) as any };
};
const query = (params: ReadonlyArray<readonly [string, string]>) => params.map(([n, v]) => `${n}=${v}`).join('&');

/** A valid request of each operation, with every parameter it takes that can be given together. */
const VALID: Array<[string, Array<[string, string]>]> = [
  ['/api/v1/times', [['lat', '41.01'], ['lon', '28.98'], ['tz', 'Europe/Istanbul'], ['method', 'diyanet'], ['madhab', 'hanafi'], ['date', '2026-03-01']]],
  ['/api/v1/times', [['city', 'istanbul'], ['date', '2026-03-01']]],
  ['/api/v1/month', [['lat', '52.52'], ['lon', '13.405'], ['year', '2026'], ['month', '3'], ['method', 'muslimWorldLeague'], ['madhab', 'shafi']]],
  ['/api/v1/next', [['city', 'ankara'], ['method', 'isna'], ['madhab', 'shafi']]],
  ['/api/v1/qibla', [['lat', '-6.2'], ['lon', '106.85']]],
  ['/api/v1/cities', [['q', 'istanbul'], ['limit', '5']]],
  ['/api/v1/hijri', [['date', '2026-02-18']]],
];

/** What must not change when a value gains white space: /next's seconds move with the clock. */
const stable = (path: string, body: any) => (path === '/api/v1/next' ? { location: body.location, next: body.next.prayer } : body);

describe('one rule for white space in every parameter', () => {
  it.each(VALID)('%s %j: spaces at both ends are dropped; a control character at either end is refused', async (path, params) => {
    const plain = await get(`${path}?${query(params)}`);
    expect(plain.status).toBe(200);
    for (let i = 0; i < params.length; i++) {
      const [name, value] = params[i];
      const withValue = (v: string) => `${path}?${query(params.map((p, j) => (j === i ? [name, v] : p)))}`;
      for (const spaced of [`%20${value}%20`, `+${value}`, `%C2%A0${value}`, `${value}%E3%80%80`]) {
        const res = await get(withValue(spaced));
        expect(res.status, `${name}=${spaced}`).toBe(200);
        expect(stable(path, res.body), `${name}=${spaced}`).toEqual(stable(path, plain.body));
      }
      for (const controlled of [`%09${value}`, `${value}%09`, `%0A${value}`, `${value}%0D%0A`, `${value}%00`, `%C2%85${value}`]) {
        const res = await get(withValue(controlled));
        expect(res.status, `${name}=${controlled}`).toBe(400);
        expect(res.body.error, `${name}=${controlled}`).toMatchObject({
          code: 'invalid_parameter',
          message: `${name} must not contain control characters (tab and line breaks included).`,
        });
      }
    }
  });

  it('the issue’s pair: q with a leading tab and lat with one get the same answer', async () => {
    const q = await get('/api/v1/cities?q=%09istanbul');
    const lat = await get('/api/v1/times?lat=%0941&lon=29');
    expect([q.status, q.body.error.code]).toEqual([400, 'invalid_parameter']);
    expect([lat.status, lat.body.error.code]).toEqual([400, 'invalid_parameter']);
    // A space is dropped in both.
    expect((await get('/api/v1/cities?q=%20istanbul')).body.query).toBe('istanbul');
    expect((await get('/api/v1/times?lat=%2041&lon=29&date=2026-03-01')).body.location.latitude).toBe(41);
  });

  it('the published document says the rule and the order, and /docs/api shows them', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as any;
    const paragraphs: string[] = doc.info.description.split('\n\n');
    expect(paragraphs.find((p) => p.startsWith('Every parameter value is read by one rule'))).toMatch(/lat=%0941 and q=%09ist are refused alike/);
    const order = paragraphs.find((p) => p.startsWith('When several things are wrong'));
    expect(order).toMatch(/then each parameter the operation takes, in the order it lists them/);
    const page = await (await fetch(`${server.baseUrl}/docs/api`)).text();
    const general = page.match(/<section id="general">([\s\S]*?)<\/section>/)?.[1] ?? '';
    expect(general).toContain('Every parameter value is read by one rule');
    expect(general).toContain('When several things are wrong, the first failing check answers');
  });
});

// [what, request, status, code, message]: each request breaks several checks; the first in the documented order answers.
const ORDER: Array<[string, string, number, string, RegExp]> = [
  // The query string itself, left to right, before anything else.
  ['bad encoding before an unknown parameter', '/api/v1/times?foo=1&lat=%ZZ&lon=29', 400, 'invalid_parameter', /^The value of "lat" is not valid percent-encoding/],
  ['a repeat before an unknown parameter', '/api/v1/times?foo=1&lat=1&lat=2&lon=29', 400, 'unknown_parameter', /"lat" is given more than once/],
  ['left to right: the bad encoding first', '/api/v1/times?lat=%ZZ&lon=1&lon=2', 400, 'invalid_parameter', /"lat" is not valid percent-encoding/],
  ['left to right: the repeat first', '/api/v1/times?lon=1&lon=2&lat=%ZZ', 400, 'unknown_parameter', /"lon" is given more than once/],
  // Then a parameter the operation does not take, before missing or invalid ones.
  ['unknown before missing', '/api/v1/cities?foo=1', 400, 'unknown_parameter', /^Unknown parameter "foo"/],
  ['unknown before invalid', '/api/v1/times?lat=91&lon=29&foo=1', 400, 'unknown_parameter', /^Unknown parameter "foo"/],
  ['unknown before a rule', '/api/v1/qibla?city=istanbul&lat=41&lon=29&tz=UTC', 400, 'unknown_parameter', /^Unknown parameter "tz"/],
  // Then each parameter in the order the operation lists them, wherever it sits in the query.
  ['lat before method', '/api/v1/times?method=foo&lat=abc&lon=29', 400, 'invalid_parameter', /^lat must be a number/],
  ['lat before method, reordered', '/api/v1/times?lat=abc&lon=29&method=foo', 400, 'invalid_parameter', /^lat must be a number/],
  ['madhab before date', '/api/v1/times?date=2026-02-30&madhab=x&lat=41&lon=29', 400, 'invalid_parameter', /^madhab must be one of/],
  ['year before month', '/api/v1/month?month=13&year=1800&lat=41&lon=29', 400, 'invalid_parameter', /^year must be an integer/],
  ['missing q before a bad limit', '/api/v1/cities?limit=0', 400, 'missing_parameter', /^The parameter q is required/],
  ['a bad q before a bad limit', '/api/v1/cities?limit=0&q=a', 400, 'invalid_parameter', /^q must be at least 2 characters/],
  // Value checks before the rules between parameters.
  ['a bad lat before city with lat', '/api/v1/times?city=istanbul&lat=91&lon=29', 400, 'invalid_parameter', /^lat must be a number/],
  ['a bad lat before a missing lon', '/api/v1/times?lat=abc', 400, 'invalid_parameter', /^lat must be a number/],
  ['a bad tz before tz with city', '/api/v1/times?city=istanbul&tz=Mars/Olympus', 400, 'invalid_parameter', /^tz must be an IANA time zone/],
  ['a bad date before no place at all', '/api/v1/times?date=2026-02-30', 400, 'invalid_parameter', /^date must be a real date/],
  // The rules in their order.
  ['city with lat before a missing lon', '/api/v1/times?city=istanbul&lat=41', 400, 'conflicting_parameters', /^Give either city or lat and lon/],
  ['a missing lon before tz without a place', '/api/v1/times?lat=41&tz=UTC', 400, 'missing_parameter', /lon is missing/],
  ['no place before tz without lat and lon', '/api/v1/times?tz=UTC', 400, 'missing_parameter', /^Give a place/],
  // The rules before the lookup; the lookup before checks that need the place.
  ['a rule before an unknown city', '/api/v1/times?city=Nowhereville&lat=1&lon=2', 400, 'conflicting_parameters', /^Give either city/],
  ['an unknown city before its date', '/api/v1/times?city=Nowhereville&date=2011-12-30', 404, 'city_not_found', /^No place matches/],
  ['a date the place skipped, last', '/api/v1/times?lat=-13.83&lon=-171.76&date=2011-12-30', 400, 'invalid_parameter', /does not exist in Pacific\/Apia/],
];

describe('which check answers when several fail', () => {
  it.each(ORDER)('%s: %s → %i %s', async (_what, request, status, code, message) => {
    const res = await get(request);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message).toMatch(message);
  });

  it('the key comes before all of them, then the parameters', async () => {
    const noKey = await get('/api/v1/times?lat=%ZZ&foo=1', {});
    expect([noKey.status, noKey.body.error.code]).toEqual([401, 'missing_api_key']);
  });

  it('the same request answers the same every time, and MCP’s tools follow the same order', async () => {
    for (const [, request, status, code] of ORDER) {
      const again = await get(request);
      expect([again.status, again.body.error.code], request).toEqual([status, code]);
    }
    const call = async (args: Record<string, unknown>) => {
      const res = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': key, 'Mcp-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getPrayerTimes', arguments: args } }),
      });
      return ((await res.json()) as any).result.structuredContent.error;
    };
    expect(await call({ lat: 'x', foo: 1 })).toMatchObject({ code: 'unknown_parameter' });
    expect(await call({ method: 'foo', lat: 91, lon: 29 })).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/^lat must be/) });
    expect(await call({ city: 'istanbul', lat: 91, lon: 29 })).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/^lat must be/) });
    expect(await call({ city: 'istanbul', lat: 41, lon: 29 })).toMatchObject({ code: 'conflicting_parameters' });
    expect(await call({ city: '\tistanbul' })).toMatchObject({ code: 'invalid_parameter', message: 'city must not contain control characters (tab and line breaks included).' });
    expect(await call({ city: ' istanbul ', date: '2026-03-01' })).toBeUndefined();
  });
});
