// The served OpenAPI description against the server: a broad sample of requests (every operation; places on every
// continent, the poles and both sides of the date line; every calculation method and madhab; DST days; dates of
// local mean time; every HTTP method; every error that can be provoked) and each answer's status, body and headers
// validated against what /api/v1/openapi.json says, with a draft 2020-12 validator. The description and the server
// cannot drift apart without this test failing.
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { METHOD_IDS, MADHABS } from '../../pipeline/astronomy/methods.js';
import { precompute } from '../../pipeline/precompute/precompute.js';
import type { AccountStore } from '../accounts/accountStore.js';
import { openAccountStore } from '../accounts/openStores.js';
import type { ErrorCode } from '../errors.js';
import { DocumentValidators } from '../../testing/schemaValidation.js';
import { dataDirWithCatalog, provisionKey, startServer, type RunningServer } from '../../testing/serverProcess.js';

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Reset'];
const PRO_PER_MONTH = 3;

type KeyName = 'business' | 'none' | 'unknown' | 'revoked' | 'trial' | 'pro';
interface Case {
  method?: string;
  path: string;
  status: number;
  code?: ErrorCode;
  key?: KeyName;
  /** The server without a catalog (503 for city lookups, points without nearestCity). */
  bare?: boolean;
}

let server: RunningServer;
let bare: RunningServer;
const keys = {} as Record<KeyName, string>;
let bareKey: string;
let doc: any;
let v: DocumentValidators;

beforeAll(async () => {
  const dir = dataDirWithCatalog(inject('catalogDataDir'));
  // Limits that do not get in the way (business), and small ones to reach both 429s (trial per minute, pro per month).
  const plans = path.join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 }, pro: { perMinute: 1000, perMonth: PRO_PER_MONTH } }));
  keys.business = await provisionKey(dir, 'conformance@example.com', 'business');
  keys.trial = await provisionKey(dir, 'trial@example.com', 'trial');
  keys.pro = await provisionKey(dir, 'pro@example.com', 'pro');
  keys.revoked = await provisionKey(dir, 'revoked@example.com', 'business');
  const store = openAccountStore(dir);
  store.revoke(keys.revoked);
  await store.close();
  keys.none = '';
  keys.unknown = `mk_${'Z'.repeat(32)}`;
  // A few places answered from precomputed timetables (and, asked again, from the rendered answers).
  await precompute({ dataDir: dir, years: [2026], methods: 'default', madhabs: 'default', scope: 'places:g745044,tr-34-kadikoy,g108410', workers: 1 });
  const bareDir = path.join(dir, 'bare');
  bareKey = await provisionKey(bareDir, 'bare@example.com', 'business');
  [server, bare] = await Promise.all([startServer({ DATA_DIR: dir, PLANS_FILE: plans }), startServer({ DATA_DIR: bareDir, PLANS_FILE: plans })]);
  const res = await fetch(`${server.baseUrl}/api/v1/openapi.json`); // no key needed
  expect(res.status).toBe(200);
  doc = await res.json();
  v = new DocumentValidators(doc);
}, 120_000);

afterAll(async () => {
  await Promise.all([server?.stop(), bare?.stop()]);
});

/** Schema errors, those repeated over array items once (`days/*`), at most ten. */
function summary(errors: ReadonlyArray<{ instancePath: string; message?: string }>): string {
  const distinct = [...new Set(errors.map((e) => `${e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '/'} ${e.message}`))];
  return distinct.slice(0, 10).join('; ') + (distinct.length > 10 ? `; and ${distinct.length - 10} more` : '');
}

/** Sends a case and returns every way in which the answer differs from the description (none: it conforms). */
async function problems(c: Case): Promise<string[]> {
  const method = c.method ?? 'GET';
  const key = c.bare ? bareKey : keys[c.key ?? 'business'];
  const target = c.bare ? bare : server;
  const res = await fetch(target.baseUrl + c.path, { method, headers: key ? { Authorization: `Bearer ${key}` } : {} });
  const text = await res.text();
  const found: string[] = [];
  if (res.status !== c.status) found.push(`status ${res.status}, expected ${c.status}: ${text.slice(0, 300)}`);
  const pathname = new URL(c.path, 'http://x').pathname;
  const operation = method === 'GET' && doc.paths[pathname]?.get;
  const listed = operation && v.response(pathname, res.status);
  // Headers: those the description lists, present when required and valid when present. An answer it does not list
  // (another method or path) still carries X-Request-Id as the description defines it.
  const headerChecks = listed
    ? v.headers(pathname, res.status)
    : v.headers('/api/v1/times', 401).filter((header) => header.name === 'X-Request-Id');
  for (const header of headerChecks) {
    const value = res.headers.get(header.name);
    if (value === null) {
      if (header.required) found.push(`header ${header.name} missing`);
    } else if (!header.validate(value)) found.push(`header ${header.name}: ${JSON.stringify(value)} ${header.errors()}`);
  }
  // Every response to a valid key carries the limits, whatever its status.
  const validKey = c.bare || ['business', 'trial', 'pro'].includes(c.key ?? 'business');
  if (operation && validKey) for (const name of RATE_LIMIT_HEADERS) if (!res.headers.has(name)) found.push(`header ${name} missing`);
  if (method === 'HEAD' || res.status === 204) {
    if (text !== '') found.push(`a body on ${method} ${res.status}`);
    return found;
  }
  if (res.headers.get('content-type') !== 'application/json; charset=utf-8') found.push(`content-type ${res.headers.get('content-type')}`);
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    found.push(`not JSON: ${text.slice(0, 200)}`);
    return found;
  }
  if (res.status >= 400 && body?.error?.code !== c.code) found.push(`code ${body?.error?.code}, expected ${c.code}`);
  if (operation && !listed) found.push(`status ${res.status} is not listed for ${pathname}`);
  const validate = listed ? v.body(pathname, res.status) : v.schema('Error');
  if (!validate(body)) found.push(`body: ${summary(validate.errors ?? [])}`);
  if (res.status === 405 && !res.headers.get('allow')) found.push('405 without Allow');
  return found;
}

// ---- The sample ----

/** [label, lat, lon]: every continent, high latitudes, the poles, both sides of the date line, zones off the hour. */
const POINTS: Array<[string, number, number]> = [
  ['Istanbul', 41.0082, 28.9784],
  ['Mecca', 21.4225, 39.8262],
  ['Cairo', 30.0444, 31.2357],
  ['Lagos', 6.5244, 3.3792],
  ['Nairobi', -1.2921, 36.8219],
  ['Cape Town', -33.9249, 18.4241],
  ['Tehran (UTC+3:30)', 35.6892, 51.389],
  ['Karachi', 24.8607, 67.0011],
  ['Kathmandu (UTC+5:45)', 27.7172, 85.324],
  ['Dhaka', 23.8103, 90.4125],
  ['Jakarta', -6.2, 106.85],
  ['Kuala Lumpur', 3.139, 101.6869],
  ['Tokyo', 35.6762, 139.6503],
  ['London', 51.5074, -0.1278],
  ['Berlin', 52.52, 13.405],
  ['Moscow', 55.7558, 37.6173],
  ['Reykjavik', 64.1466, -21.9426],
  ['Tromsø', 69.6496, 18.956],
  ['Longyearbyen', 78.2232, 15.6267],
  ['Alert', 82.5018, -62.3481],
  ['North Pole', 90, 0],
  ['South Pole', -90, 0],
  ['McMurdo', -77.8463, 166.6683],
  ['New York', 40.7128, -74.006],
  ['Los Angeles', 34.0522, -118.2437],
  ['Anchorage', 61.2181, -149.9003],
  ['Honolulu', 21.3069, -157.8583],
  ['Mexico City', 19.4326, -99.1332],
  ['São Paulo', -23.5505, -46.6333],
  ['Buenos Aires', -34.6037, -58.3816],
  ['Ushuaia', -54.8019, -68.303],
  ['Sydney', -33.8688, 151.2093],
  ['Lord Howe Island (UTC+10:30, half-hour DST)', -31.5553, 159.0821],
  ['Auckland', -36.8485, 174.7633],
  ['Chatham Islands (UTC+12:45)', -43.9535, -176.5597],
  ['Kiritimati (UTC+14)', 1.87, -157.4],
  ['Apia', -13.8333, -171.7667],
  ['Nukuʻalofa', -21.1394, -175.2049],
  ['Suva', -18.1416, 178.4419],
  ['Tarawa', 1.3278, 172.9797],
  ['date line, east edge', 0, 180],
  ['date line, west edge', -16.5, -180],
  ['Chukotka by the date line', 65.7, -179.9],
  ['mid-Pacific (an Etc zone at sea)', 0, -140],
  ['Southern Ocean', -60, -30],
];

const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, val]): [string, string] => [k, String(val)])).toString();
const ok = (label: string, path: string, extra: Partial<Case> = {}): [string, Case] => [label, { path, status: 200, ...extra }];
const fails = (label: string, path: string, status: number, code: ErrorCode, extra: Partial<Case> = {}): [string, Case] => [
  label,
  { path, status, code, ...extra },
];

const POINT_CASES: Array<[string, Case]> = POINTS.flatMap(([label, lat, lon], i) => {
  const where = { lat, lon };
  const date = ['2026-03-21', '2026-06-21', '2026-09-23', '2026-12-21'][i % 4];
  return [
    ok(`times at ${label}, ${date}`, `/api/v1/times?${q({ ...where, date })}`),
    ok(`month at ${label}`, `/api/v1/month?${q({ ...where, year: 2026, month: 1 + (i % 12) })}`),
    ok(`next at ${label}`, `/api/v1/next?${q(where)}`),
    ok(`qibla at ${label}`, `/api/v1/qibla?${q(where)}`),
  ];
});

const POLAR_CASES: Array<[string, Case]> = [
  ['Longyearbyen', 78.2232, 15.6267],
  ['Alert', 82.5018, -62.3481],
  ['North Pole', 90, 0],
  ['South Pole', -90, 0],
  ['McMurdo', -77.8463, 166.6683],
  ['Tromsø', 69.6496, 18.956],
  ['the Arctic Circle', 66.5634, 25.75],
].flatMap(([label, lat, lon]) => [
  ...['2026-06-21', '2026-12-21', '2026-03-20', '2026-09-23'].map((date) => ok(`times at ${label}, ${date}`, `/api/v1/times?${q({ lat, lon, date })}`)),
  ok(`month at ${label}, December`, `/api/v1/month?${q({ lat, lon, year: 2026, month: 12 })}`),
  ok(`month at ${label}, June, isna hanafi`, `/api/v1/month?${q({ lat, lon, year: 2026, month: 6, method: 'isna', madhab: 'hanafi' })}`),
]);

const METHOD_CASES: Array<[string, Case]> = METHOD_IDS.flatMap((method, i) =>
  MADHABS.flatMap((madhab) => [
    ok(`times with ${method} ${madhab} at Istanbul`, `/api/v1/times?${q({ lat: 41.0082, lon: 28.9784, method, madhab, date: '2026-05-01' })}`),
    ok(`times with ${method} ${madhab} at Tromsø at midsummer`, `/api/v1/times?${q({ lat: 69.6496, lon: 18.956, method, madhab, date: '2026-06-21' })}`),
  ]).concat([
    ok(`next with ${method} at a point`, `/api/v1/next?${q({ lat: POINTS[i][1], lon: POINTS[i][2], method })}`),
    ok(`month with ${method} in Ramadan at Mecca`, `/api/v1/month?${q({ lat: 21.4225, lon: 39.8262, method, year: 2026, month: 3 })}`),
  ]),
);

/** [zone, lat, lon, the days its clocks change in 2026 (or the last year they did)]. */
const DST_CASES: Array<[string, Case]> = (
  [
    ['Europe/Berlin', 52.52, 13.405, ['2026-03-29', '2026-10-25']],
    ['America/New_York', 40.7128, -74.006, ['2026-03-08', '2026-11-01']],
    ['Australia/Sydney', -33.8688, 151.2093, ['2026-04-05', '2026-10-04']],
    ['America/Santiago', -33.4489, -70.6693, ['2026-04-05', '2026-09-06']],
    ['Pacific/Chatham', -43.9535, -176.5597, ['2026-04-05', '2026-09-27']],
    ['Australia/Lord_Howe', -31.5553, 159.0821, ['2026-04-05', '2026-10-04']],
    ['Asia/Tehran', 35.6892, 51.389, ['2021-03-22', '2021-09-22']],
    ['Africa/Casablanca', 33.5731, -7.5898, ['2026-02-15', '2026-03-22']],
    ['America/Havana', 23.1136, -82.3666, ['2026-03-08', '2026-11-01']],
  ] as Array<[string, number, number, string[]]>
).flatMap(([tz, lat, lon, dates]) => [
  ...dates.map((date) => ok(`times on a DST day in ${tz}, ${date}`, `/api/v1/times?${q({ lat, lon, tz, date })}`)),
  ok(`month of a DST change in ${tz}`, `/api/v1/month?${q({ lat, lon, tz, year: dates[0].slice(0, 4), month: Number(dates[0].slice(5, 7)) })}`),
  ok(`next in ${tz}`, `/api/v1/next?${q({ lat, lon, tz })}`),
]);

/** Dates when the place's clocks kept local mean time, or an offset that is not whole minutes. */
const LMT_CASES: Array<[string, Case]> = [
  ok('times in Istanbul on 1900-01-01 (LMT)', '/api/v1/times?city=Istanbul&date=1900-01-01'),
  ok('month in Riyadh, March 1947 (LMT until the 14th)', '/api/v1/month?city=Riyadh&year=1947&month=3'),
  ok('times in Riyadh on 1947-03-01 (LMT)', '/api/v1/times?city=Riyadh&date=1947-03-01'),
  ok('times at Mecca on 1900-01-01 (LMT), by coordinates', `/api/v1/times?${q({ lat: 21.4225, lon: 39.8262, date: '1900-01-01' })}`),
  ok('times in Kathmandu on 1910-06-01 (LMT until 1920)', '/api/v1/times?city=Kathmandu&date=1910-06-01'),
  ok('times in Tehran on 1900-01-01 (LMT)', '/api/v1/times?city=Tehran&date=1900-01-01'),
  ok('times in Amsterdam on 1930-05-01 (UTC+0:19:32)', '/api/v1/times?city=Amsterdam&date=1930-05-01'),
  ok('times in Dublin on 1910-01-01 (UTC-0:25:21)', '/api/v1/times?city=Dublin&date=1910-01-01'),
  ok('times in Monrovia on 1960-01-01 (UTC-0:44:30)', '/api/v1/times?city=Monrovia&date=1960-01-01'),
  ok('times in Singapore on 1900-01-01 (UTC+6:55:25)', '/api/v1/times?city=Singapore&date=1900-01-01'),
  ok('times in Paris on 1900-01-01 (UTC+0:09:21)', '/api/v1/times?city=Paris%2C%20FR&date=1900-01-01'),
  ok('times in New York on 1900-01-01 (standard time)', '/api/v1/times?city=New%20York%20City&date=1900-01-01'),
  ok('month in Kadıköy, January 1900 (LMT)', '/api/v1/month?city=Kad%C4%B1k%C3%B6y&year=1900&month=1'),
  ok('month at Istanbul by coordinates, February 1900 (LMT; not a leap year)', '/api/v1/month?lat=41&lon=29&year=1900&month=2'),
  ok('month in Tokyo, December 2100', '/api/v1/month?city=Tokyo&year=2100&month=12'),
  ok('times in Apia on 2100-12-31', '/api/v1/times?city=Apia&date=2100-12-31'),
];

const CITY_CASES: Array<[string, Case]> = [
  'Istanbul',
  'İSTANBUL',
  'Kadıköy',
  'kadikoy',
  'turkey/ankara/polatli',
  'Riyadh',
  'Mecca',
  'Paris, FR',
  'Paris, France',
  'Köln, Almanya',
  'Cologne',
  'New York City',
  'Tokyo',
  'Jakarta',
  'Cairo',
  'Reykjavík',
  'Longyearbyen',
  'McMurdo Station',
  'Tromsø',
  'Apia',
  'Suva',
  'Tarawa',
  'Waitangi',
  'Ushuaia',
  'Honolulu',
].flatMap((city, i) => {
  const c = encodeURIComponent(city);
  return [
    ok(`times for ${city}`, `/api/v1/times?city=${c}&date=2026-0${1 + (i % 9)}-15`),
    ok(`next for ${city}`, `/api/v1/next?city=${c}`),
    ok(`qibla for ${city}`, `/api/v1/qibla?city=${c}`),
    ...(i % 5 === 0 ? [ok(`month for ${city}`, `/api/v1/month?city=${c}&year=2026&month=${1 + (i % 12)}`)] : []),
  ];
});

const STORE_CASES: Array<[string, Case]> = [1, 2].flatMap((round) => [
  ok(`times for Istanbul from the store (${round})`, '/api/v1/times?city=Istanbul&date=2026-07-04'),
  ok(`month for Kadıköy from the store (${round})`, '/api/v1/month?city=turkey/istanbul/kadikoy&year=2026&month=11'),
  ok(`next for Riyadh from the store (${round})`, '/api/v1/next?city=Riyadh'),
  ok(`times for Riyadh with hanafi, computed (${round})`, '/api/v1/times?city=Riyadh&date=2026-07-04&madhab=hanafi'),
]);

const OTHER_CASES: Array<[string, Case]> = [
  ok('times today', '/api/v1/times?lat=41&lon=29'),
  ok('times with tz', '/api/v1/times?lat=41&lon=29&tz=Asia/Tokyo&date=2026-01-01'),
  ok('times with a lower-case tz', '/api/v1/times?lat=41&lon=29&tz=europe/berlin&date=2026-01-01'),
  ok('times with tz UTC at the North Pole', '/api/v1/times?lat=90&lon=0&tz=UTC&date=2026-06-21'),
  ok('times on the first supported day', '/api/v1/times?lat=0&lon=0&date=1900-01-01'),
  ok('times on the last supported day', '/api/v1/times?lat=0&lon=0&date=2100-12-31'),
  ok('times on a leap day', '/api/v1/times?lat=0&lon=0&date=2000-02-29'),
  ok('times with white space around values', '/api/v1/times?lat=%2041%20&lon=29&date=%202026-01-01%20'),
  ok('month this month', '/api/v1/month?lat=41&lon=29'),
  ok('month with only year', '/api/v1/month?lat=41&lon=29&year=2030'),
  ok('month with only month', '/api/v1/month?lat=41&lon=29&month=2'),
  ok('month February of a leap year', '/api/v1/month?lat=41&lon=29&year=2028&month=2'),
  ok('month February 1900 in New York (not a leap year)', '/api/v1/month?lat=40.7128&lon=-74.006&year=1900&month=2'),
  ok('month December 2100', '/api/v1/month?lat=-33.9&lon=151.2&year=2100&month=12'),
  ok('next with madhab', '/api/v1/next?lat=24.86&lon=67&madhab=shafi'),
  ...['ist', 'kad', 'New', 'lon', 'São', 'Köln', 'kadıköy, istanbul', 'paris, us', 'zz', 'qqqqqqqq', '🕌🕋', 'a b', 'ab'].map((text) =>
    ok(`cities ${text}`, `/api/v1/cities?${q({ q: text })}`),
  ),
  ok('cities limit 1', '/api/v1/cities?q=ist&limit=1'),
  ok('cities limit 50', '/api/v1/cities?q=san&limit=50'),
  ...['1900-01-01', '1924-03-03', '1947-03-14', '2000-02-29', '2026-02-18', '2026-03-20', '2100-12-31'].map((date) =>
    ok(`hijri ${date}`, `/api/v1/hijri?date=${date}`),
  ),
  ok('hijri today', '/api/v1/hijri'),
];

const ERROR_CASES: Array<[string, Case]> = [
  fails('no place', '/api/v1/times', 400, 'missing_parameter'),
  fails('lat without lon', '/api/v1/times?lat=41', 400, 'missing_parameter'),
  fails('lon without lat', '/api/v1/month?lon=29', 400, 'missing_parameter'),
  fails('tz alone', '/api/v1/next?tz=UTC', 400, 'missing_parameter'),
  fails('cities without q', '/api/v1/cities', 400, 'missing_parameter'),
  fails('lat 91', '/api/v1/times?lat=91&lon=29', 400, 'invalid_parameter'),
  fails('lat empty', '/api/v1/times?lat=&lon=29', 400, 'invalid_parameter'),
  fails('lon not a number', '/api/v1/qibla?lat=1&lon=east', 400, 'invalid_parameter'),
  fails('a date that does not exist', '/api/v1/times?lat=41&lon=29&date=2026-02-30', 400, 'invalid_parameter'),
  fails('a date before 1900', '/api/v1/times?lat=41&lon=29&date=1899-12-31', 400, 'invalid_parameter'),
  fails('a year after 2100', '/api/v1/month?lat=41&lon=29&year=2101', 400, 'invalid_parameter'),
  fails('month 13', '/api/v1/month?lat=41&lon=29&month=13', 400, 'invalid_parameter'),
  fails('an unknown zone', '/api/v1/times?lat=41&lon=29&tz=Mars/Olympus', 400, 'invalid_parameter'),
  fails('tz with city', '/api/v1/times?city=istanbul&tz=UTC', 400, 'invalid_parameter'),
  fails('an unknown method', '/api/v1/next?lat=41&lon=29&method=foo', 400, 'invalid_parameter'),
  fails('q of one emoji', `/api/v1/cities?q=${encodeURIComponent('🕌')}`, 400, 'invalid_parameter'),
  fails('q of one letter', '/api/v1/cities?q=a', 400, 'invalid_parameter'),
  fails('q of 101 emoji', `/api/v1/cities?q=${encodeURIComponent('🕌'.repeat(101))}`, 400, 'invalid_parameter'),
  fails('limit 51', '/api/v1/cities?q=ist&limit=51', 400, 'invalid_parameter'),
  fails('a control character', '/api/v1/times?city=ist%00anbul', 400, 'invalid_parameter'),
  fails('broken percent-encoding', '/api/v1/hijri?date=%ZZ', 400, 'invalid_parameter'),
  fails('tz on qibla', '/api/v1/qibla?lat=41&lon=29&tz=UTC', 400, 'unknown_parameter'),
  fails('an unknown parameter', '/api/v1/times?lat=41&lon=29&foo=bar', 400, 'unknown_parameter'),
  fails('a parameter twice', '/api/v1/times?lat=41&lon=29&lat=42', 400, 'unknown_parameter'),
  fails('a place on hijri', '/api/v1/hijri?lat=1', 400, 'unknown_parameter'),
  fails('date on month', '/api/v1/month?lat=41&lon=29&date=2026-01-01', 400, 'unknown_parameter'),
  fails('city with lat and lon', '/api/v1/times?city=istanbul&lat=41&lon=29', 400, 'conflicting_parameters'),
  fails('city with lat', '/api/v1/qibla?city=istanbul&lat=41', 400, 'conflicting_parameters'),
  fails('no key', '/api/v1/times?lat=41&lon=29', 401, 'missing_api_key', { key: 'none' }),
  fails('no key, bad parameters (the key comes first)', '/api/v1/times?lat=91', 401, 'missing_api_key', { key: 'none' }),
  fails('an unknown key', '/api/v1/qibla?lat=41&lon=29', 401, 'invalid_api_key', { key: 'unknown' }),
  fails('a revoked key', '/api/v1/cities?q=ist', 403, 'api_key_revoked', { key: 'revoked' }),
  fails('an unknown city', '/api/v1/times?city=Nowhereville', 404, 'city_not_found'),
  fails('an unknown site path', '/api/v1/qibla?city=turkey/nowhere/nothing', 404, 'city_not_found'),
  fails('an unknown city with a country', '/api/v1/next?city=Paris%2C%20JP', 404, 'city_not_found'),
  fails('no such path', '/api/v1/nothing', 404, 'not_found'),
  fails('another version', '/api/v2/times', 404, 'not_found', { key: 'none' }),
  fails('a trailing slash', '/api/v1/times/', 404, 'not_found'),
  fails('city without a catalog', '/api/v1/times?city=istanbul', 503, 'service_unavailable', { bare: true }),
  fails('cities without a catalog', '/api/v1/cities?q=ist', 503, 'service_unavailable', { bare: true }),
  ok('a point without a catalog: no nearestCity', '/api/v1/times?lat=41&lon=29&date=2026-01-01', { bare: true }),
  ok('qibla for a point without a catalog', '/api/v1/qibla?lat=-90&lon=0', { bare: true }),
  ok('next for a point without a catalog', '/api/v1/next?lat=1.87&lon=-157.4', { bare: true }),
];

const OPERATION_PATHS = ['/api/v1/times', '/api/v1/month', '/api/v1/next', '/api/v1/qibla', '/api/v1/cities', '/api/v1/hijri'];
const HTTP_METHOD_CASES: Array<[string, Case]> = OPERATION_PATHS.flatMap((p) => [
  ...['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'].map((method) => fails(`${method} ${p}`, `${p}?lat=41&lon=29`, 405, 'method_not_allowed', { method })),
  ok(`OPTIONS ${p}`, p, { method: 'OPTIONS', status: 204, key: 'none' }),
]).concat([
  fails('POST /healthz', '/healthz', 405, 'method_not_allowed', { method: 'POST' }),
  fails('POST /api/v1/openapi.json', '/api/v1/openapi.json', 405, 'method_not_allowed', { method: 'POST' }),
]);

const SAMPLE = [
  ...POINT_CASES,
  ...POLAR_CASES,
  ...METHOD_CASES,
  ...DST_CASES,
  ...LMT_CASES,
  ...CITY_CASES,
  ...STORE_CASES,
  ...OTHER_CASES,
  ...ERROR_CASES,
  ...HTTP_METHOD_CASES,
];

describe('every answer conforms to the served description', () => {
  it('the sample is broad: every operation, every 200 and error status, every error code that can be provoked', () => {
    expect(SAMPLE.length).toBeGreaterThan(300);
    const operations = new Set(SAMPLE.map(([, c]) => new URL(c.path, 'http://x').pathname));
    for (const p of OPERATION_PATHS) expect(operations.has(p), p).toBe(true);
    const codes = new Set(SAMPLE.map(([, c]) => c.code).filter(Boolean));
    const provoked = ['missing_parameter', 'invalid_parameter', 'unknown_parameter', 'conflicting_parameters', 'missing_api_key', 'invalid_api_key', 'api_key_revoked', 'city_not_found', 'not_found', 'method_not_allowed', 'service_unavailable'];
    for (const code of provoked) expect(codes.has(code as ErrorCode), code).toBe(true);
  });

  it.each(SAMPLE)('%s', async (_label, c) => {
    expect(await problems(c)).toEqual([]);
  });

  it('429 rate_limit_exceeded (the trial plan’s minute) and quota_exceeded (a month of 3), with Retry-After', async () => {
    const trial: string[][] = [];
    for (let i = 0; i < 10; i++) trial.push(await problems({ path: `/api/v1/qibla?lat=${i}&lon=0`, status: 200, key: 'trial' }));
    trial.push(await problems({ path: '/api/v1/qibla?lat=41&lon=29', status: 429, code: 'rate_limit_exceeded', key: 'trial' }));
    trial.push(await problems({ path: '/api/v1/times?lat=91', status: 429, code: 'rate_limit_exceeded', key: 'trial' }));
    expect(trial.flat()).toEqual([]);
    const pro: string[][] = [];
    // Counted: a 200, a 400 and a 404 (every status counts but a 429's).
    pro.push(await problems({ path: '/api/v1/hijri?date=2026-01-01', status: 200, key: 'pro' }));
    pro.push(await problems({ path: '/api/v1/hijri?date=2026-13-01', status: 400, code: 'invalid_parameter', key: 'pro' }));
    pro.push(await problems({ path: '/api/v1/times?city=Nowhereville', status: 404, code: 'city_not_found', key: 'pro' }));
    pro.push(await problems({ path: '/api/v1/hijri', status: 429, code: 'quota_exceeded', key: 'pro' }));
    pro.push(await problems({ path: '/api/v1/cities?q=ist', status: 429, code: 'quota_exceeded', key: 'pro' }));
    expect(pro.flat()).toEqual([]);
    const res = await fetch(`${server.baseUrl}/api/v1/hijri`, { headers: { 'X-API-Key': keys.pro } });
    expect(res.headers.get('x-quota-remaining')).toBe('0');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
