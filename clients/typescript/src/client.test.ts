// The client against a real server: every operation's answer as the API gives it, the API's errors as values with
// its own body, the limits read from the headers (a 429 too), the client's own errors when no answer of the API's
// comes, bad options refused; the package built with its own tsconfig and working as built; the served document
// giving the committed types.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, expectTypeOf, inject, it } from 'vitest';
import { startNginx } from '../../../deploy/nginxProcess.js';
import { hashKey } from '../../../server/accounts/keys.js';
import { openAccountStore } from '../../../server/accounts/openStores.js';
import { EXAMPLE_BASE_URL } from '../../../server/api/openapiExamples.js';
import { dataDirWithCatalog, provisionKey, startServerWithKey, type RunningServer } from '../../../testing/serverProcess.js';
import { SCHEMA_FILE, schemaSource } from '../codegen.js';
import { createClient, type ApiErrorCode, type ClientErrorCode, type PrayerTimesClient, type Schema } from './index.js';

const TRIAL_PER_MINUTE = 2;
const REQUEST_ID = /^[0-9a-z]+-[0-9a-z]+$/;

let server: RunningServer;
let key: string;
let trialKey: string;
let revokedKey: string;
let restrictedKey: string;
let client: PrayerTimesClient;

beforeAll(async () => {
  const dir = dataDirWithCatalog(inject('catalogDataDir'));
  // The business plan practically unlimited (as startServerWithKey makes it), the trial one small enough for a 429.
  const plans = path.join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 }, trial: { perMinute: TRIAL_PER_MINUTE } }));
  trialKey = await provisionKey(dir, 'trial@example.com', 'trial');
  revokedKey = await provisionKey(dir, 'revoked@example.com', 'business');
  const store = openAccountStore(dir);
  store.revoke(revokedKey);
  // A key for a server elsewhere (a documentation range): refused from this test's loopback address.
  const restricted = await store.createKey('restricted@example.com', 'business');
  restrictedKey = restricted.key;
  await store.updateKeyOf(restricted.account.id, hashKey(restrictedKey), { name: 'Elsewhere', allowedRanges: ['203.0.113.0/24'] });
  await store.close();
  ({ server, key } = await startServerWithKey({ DATA_DIR: dir, PLANS_FILE: plans }));
  client = createClient({ baseUrl: server.baseUrl, apiKey: key });
});
afterAll(async () => {
  await server?.stop();
});

/** The same request without the client: status, headers and body as they come. */
async function raw(pathAndQuery: string, apiKey = key) {
  const res = await fetch(server.baseUrl + pathAndQuery, { headers: { Authorization: `Bearer ${apiKey}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const nextMonthStart = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().replace('.000Z', 'Z');
};

describe('answers', () => {
  it('each operation gives the API’s body as its data, typed', async () => {
    const times = await client.getPrayerTimes({ city: 'istanbul', date: '2026-03-21' });
    expect(times.ok).toBe(true);
    if (!times.ok) return;
    expect(times.status).toBe(200);
    expect(times.data).toEqual((await raw('/api/v1/times?city=istanbul&date=2026-03-21')).body);
    expect(times.data.date).toBe('2026-03-21');
    expect(times.data.times.fajr).toMatch(/^\d\d:\d\d$/);
    const location = times.data.location;
    expect('id' in location && location.path).toBe('turkey/istanbul/istanbul');

    const point = await client.getPrayerTimes({ lat: 51.5074, lon: -0.1278, tz: 'Europe/London', method: 'muslimWorldLeague', madhab: 'hanafi' });
    expect(point.ok && [point.data.method.id, point.data.madhab, point.data.timeZone]).toEqual(['muslimWorldLeague', 'hanafi', 'Europe/London']);

    const month = await client.getMonthlyTimetable({ city: 'istanbul', year: 2026, month: 2 });
    expect(month.ok && month.data.days.map((day) => day.date)).toHaveLength(28);

    const next = await client.getNextPrayer({ lat: 40.7128, lon: -74.006 });
    expect(next.ok && next.data.next.inSeconds).toBeGreaterThanOrEqual(0);

    const qibla = await client.getQibla({ lat: -6.2, lon: 106.85 });
    expect(qibla.ok && qibla.data).toEqual((await raw('/api/v1/qibla?lat=-6.2&lon=106.85')).body);

    const cities = await client.searchCities({ q: 'ist', limit: 5 });
    expect(cities.ok && cities.data.cities.length).toBeGreaterThan(0);
    expect(cities.ok && cities.data.cities.length).toBeLessThanOrEqual(5);

    // getHijriDate takes no required parameter: it may be called without a query.
    const today = await client.getHijriDate();
    expect(today.ok && today.data.calendar).toBe('umm-al-qura');
    const hijri = await client.getHijriDate({ date: '2026-02-18' });
    expect(hijri.ok && hijri.data).toEqual((await raw('/api/v1/hijri?date=2026-02-18')).body);
  });

  it('each answer carries the limits its headers gave, and its request id', async () => {
    const first = await client.getQibla({ lat: 21, lon: 40 });
    const second = await client.getQibla({ lat: 21, lon: 40 });
    const after = await raw('/api/v1/qibla?lat=21&lon=40');
    expect(first.limits).toEqual({
      minute: { limit: 1e9, remaining: expect.any(Number), resetSeconds: expect.any(Number) },
      month: { limit: 1e12, remaining: expect.any(Number), resetAt: nextMonthStart() },
      retryAfterSeconds: undefined,
    });
    // One serving thread counts exactly: each request takes one from the month, and from the minute unless a new
    // 60-second window opened in between (then the count starts again at the limit).
    const minuteStep = (before: number, now: number) => (now === 1e9 - 1 ? 1 : before - now);
    expect(second.limits!.month.remaining).toBe(first.limits!.month.remaining - 1);
    expect(Number(after.headers.get('X-Quota-Remaining'))).toBe(second.limits!.month.remaining - 1);
    expect(minuteStep(first.limits!.minute.remaining, second.limits!.minute.remaining)).toBe(1);
    expect(minuteStep(second.limits!.minute.remaining, Number(after.headers.get('RateLimit-Remaining')))).toBe(1);
    expect(second.limits!.minute.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(second.limits!.minute.resetSeconds).toBeLessThanOrEqual(60);
    expect(first.requestId).toMatch(REQUEST_ID);
    expect(second.requestId).not.toBe(first.requestId);
  });

  it('works on a base URL with a trailing slash', async () => {
    const result = await createClient({ baseUrl: `${server.baseUrl}/`, apiKey: key }).getQibla({ lat: 21, lon: 40 });
    expect(result.ok).toBe(true);
  });
});

describe('the API’s errors', () => {
  it('are values with the API’s error body, its status and the limits', async () => {
    const cases = [
      { call: () => client.getPrayerTimes({ lat: 91, lon: 0 }), path: '/api/v1/times?lat=91&lon=0', status: 400, code: 'invalid_parameter' },
      { call: () => client.getPrayerTimes({ city: 'istanbul', lat: 41, lon: 29 }), path: '/api/v1/times?city=istanbul&lat=41&lon=29', status: 400, code: 'conflicting_parameters' },
      { call: () => client.getPrayerTimes({}), path: '/api/v1/times', status: 400, code: 'missing_parameter' },
      { call: () => client.getPrayerTimes({ city: 'Qqqxzzy Nowhere' }), path: '/api/v1/times?city=Qqqxzzy+Nowhere', status: 404, code: 'city_not_found' },
    ] as const;
    for (const { call, path: pathAndQuery, status, code } of cases) {
      const result = await call();
      const expected = await raw(pathAndQuery);
      expect(result.ok, code).toBe(false);
      if (result.ok) continue;
      expect([result.status, result.error.code], pathAndQuery).toEqual([status, code]);
      expect(result.error).toEqual(expected.body.error);
      expect(result.error).toMatchObject({ message: expect.any(String), docs: expect.stringContaining(`#${code}`) });
      expect(result.limits?.month.limit).toBe(1e12);
      expect(result.requestId).toMatch(REQUEST_ID);
    }
  });

  it('refuse what the types refuse: the server answers 400 to a JavaScript caller who passes it anyway', async () => {
    // @ts-expect-error: lat is a number
    const text = await client.getQibla({ lat: 'north', lon: 29 });
    expect(!text.ok && [text.status, text.error.code]).toEqual([400, 'invalid_parameter']);
    // @ts-expect-error: /qibla takes no tz
    const extra = await client.getQibla({ lat: 41, lon: 29, tz: 'Europe/Istanbul' });
    expect(!extra.ok && [extra.status, extra.error.code]).toEqual([400, 'unknown_parameter']);
    // @ts-expect-error: /cities needs q
    const none = await client.searchCities();
    expect(!none.ok && [none.status, none.error.code]).toEqual([400, 'missing_parameter']);
    // @ts-expect-error: not a method of the API
    const method = await client.getPrayerTimes({ city: 'istanbul', method: 'sundial' });
    expect(!method.ok && [method.status, method.error.code]).toEqual([400, 'invalid_parameter']);
  });

  it('about the key come without limits: none, unknown, revoked, restricted', async () => {
    const cases: Array<[PrayerTimesClient, number, ApiErrorCode]> = [
      [createClient({ baseUrl: server.baseUrl }), 401, 'missing_api_key'],
      [createClient({ baseUrl: server.baseUrl, apiKey: `mk_${'Z'.repeat(32)}` }), 401, 'invalid_api_key'],
      [createClient({ baseUrl: server.baseUrl, apiKey: revokedKey }), 403, 'api_key_revoked'],
      [createClient({ baseUrl: server.baseUrl, apiKey: restrictedKey }), 403, 'key_restricted'],
    ];
    for (const [keyed, status, code] of cases) {
      const result = await keyed.getQibla({ lat: 21, lon: 40 });
      expect(!result.ok && [result.status, result.error.code, result.limits]).toEqual([status, code, undefined]);
      expect(!result.ok && result.error.message).toBeTruthy();
    }
  });

  it('a 429 says how long to wait, in the limits', async () => {
    const trial = createClient({ baseUrl: server.baseUrl, apiKey: trialKey });
    for (let i = 0; i < TRIAL_PER_MINUTE; i++) expect((await trial.getQibla({ lat: 21, lon: 40 })).ok).toBe(true);
    const refused = await trial.getQibla({ lat: 21, lon: 40 });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect([refused.status, refused.error.code]).toEqual([429, 'rate_limit_exceeded']);
    expect(refused.limits).toMatchObject({ minute: { limit: TRIAL_PER_MINUTE, remaining: 0 }, month: { limit: 1000 } });
    expect(refused.limits!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.limits!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused.limits!.retryAfterSeconds).toBe(refused.limits!.minute.resetSeconds);
  });
});

describe('when no answer of the API’s comes', () => {
  it('a server that is not there is a network_error, status 0', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const result = await createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key }).getQibla({ lat: 21, lon: 40 });
    expect(result).toMatchObject({ ok: false, status: 0, error: { code: 'network_error' }, limits: undefined, requestId: undefined });
    expect(!result.ok && result.error.message).toMatch(/^No answer from the API: /);
  });

  it('an aborted request is aborted, status 0', async () => {
    const cancelled = await client.getQibla({ lat: 21, lon: 40 }, { signal: AbortSignal.abort() });
    expect(cancelled).toMatchObject({ ok: false, status: 0, error: { code: 'aborted' } });
  });

  it('a page that is not the API’s is an unexpected_response with its status', async () => {
    // The site answers under /en: its HTML 404, not the API's JSON.
    const result = await createClient({ baseUrl: `${server.baseUrl}/en`, apiKey: key }).getQibla({ lat: 21, lon: 40 });
    expect(result).toMatchObject({ ok: false, status: 404, error: { code: 'unexpected_response' } });
    expect(!result.ok && result.error.message).toContain('text/html');
  });

  it('bad options are a TypeError that says what to pass', () => {
    for (const baseUrl of ['api.example.org', 'ftp://api.example.org', 'https://api.example.org/?key=1', 'https://user:pw@api.example.org', '', undefined]) {
      expect(() => createClient({ baseUrl } as any), String(baseUrl)).toThrow(/^baseUrl must be an http or https URL/);
    }
    for (const apiKey of [42, '', 'mk_abc def', 'mk_abc\n', 'mk_çok']) {
      expect(() => createClient({ baseUrl: 'https://api.example.org', apiKey } as any), String(apiKey)).toThrow(/^apiKey must be a string of visible ASCII/);
    }
    expect(() => createClient(undefined as any)).toThrow(TypeError);
  });
});

describe('behind deploy/nginx.conf', () => {
  it('reads the limits through the proxy; an error of the proxy’s own, in the API’s shape, is an unexpected_response', async () => {
    const nginx = await startNginx(`127.0.0.1:${server.port}`, 'http://api.example');
    try {
      const proxied = createClient({ baseUrl: `http://127.0.0.1:${nginx.port}`, apiKey: key });
      const result = await proxied.getQibla({ lat: 21, lon: 40 });
      expect(result).toMatchObject({ ok: true, status: 200, limits: { minute: { limit: 1e9 }, month: { limit: 1e12 } } });
      // nginx answers a request line over 8 KiB itself: 414 uri_too_long, a code the OpenAPI document does not have.
      const tooLong = await proxied.searchCities({ q: 'a'.repeat(9_000) });
      expect(tooLong).toMatchObject({ ok: false, status: 414, error: { code: 'unexpected_response' }, limits: undefined });
      expect(!tooLong.ok && tooLong.error.message).toMatch(/^uri_too_long: \S/);
    } finally {
      await nginx.stop();
    }
  });
});

describe('types', () => {
  it('narrow on ok: the data, or the error with the API’s codes and the client’s', async () => {
    const result = await client.getQibla({ lat: 21, lon: 40 });
    if (result.ok) {
      expectTypeOf(result.data).toEqualTypeOf<Schema<'QiblaResponse'>>();
      expectTypeOf(result.data.bearing).toEqualTypeOf<number>();
    } else {
      expectTypeOf(result.error.code).toEqualTypeOf<ApiErrorCode | ClientErrorCode>();
    }
    expect(result.ok).toBe(true);
  });
});

describe('the package', () => {
  it('builds with its own tsconfig (web platform only, no Node.js types), and works as built', async () => {
    const configPath = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
    const outDir = mkdtempSync(path.join(tmpdir(), 'prayer-times-client-'));
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { outDir }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    expect(readdirSync(outDir).sort()).toEqual(
      ['client', 'index', 'rateLimits', 'schema'].flatMap((name) => [`${name}.d.ts`, `${name}.js`]).sort(),
    );
    const built = await import(pathToFileURL(path.join(outDir, 'index.js')).href);
    const result = await built.createClient({ baseUrl: server.baseUrl, apiKey: key }).getQibla({ lat: 21, lon: 40 });
    expect(result).toMatchObject({ ok: true, status: 200, data: { bearing: expect.any(Number) } });
  });

  it('has the types the served document gives', async () => {
    const served = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as any;
    // Served on the server's own base URL, not the committed examples' one: no type depends on it.
    expect(served.servers[0].url).not.toBe(EXAMPLE_BASE_URL);
    expect(await schemaSource(served)).toBe(readFileSync(SCHEMA_FILE, 'utf8'));
  });
});
