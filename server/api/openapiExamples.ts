// The examples of the OpenAPI description, made by the real code: each example request runs as the server runs it
// (query parsing, parameter declarations, rules, handler, JSON) against the place catalog at a fixed instant, and
// each error example is the body the real code gives for that case. `npm run openapi:examples` writes them to
// openapiExamples.json, which openapi.ts serves; a test checks that the file is still what the code answers, and
// that every example is valid against its schema.
import { RenderedBody } from '../timetables/renderedResponses.js';
import { AccessControl } from '../access/access.js';
import type { Account, AccountStore, KeyRecord } from '../accounts/accountStore.js';
import { ApiError, errorObject, internalErrorMessage, notFoundMessage, type ErrorCode } from '../errors.js';
import { hashKey } from '../accounts/keys.js';
import { parseQuery, validateParams } from './params.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { DEFAULT_PLANS } from '../accounts/plans.js';
import { admit, type Usage } from '../access/quota.js';
import { ROUTES, ROUTES_BY_PATH } from './routes.js';
import type { UsageLedger } from '../access/usageLedger.js';

/** The public base URL the examples are made with; the served description puts the server's own in its place. */
export const EXAMPLE_BASE_URL = 'http://localhost:8080';
/** The instant the examples are made at (what /next counts from). */
export const EXAMPLE_NOW = Date.UTC(2026, 2, 20, 14, 27, 31);
const OPENAPI_PATH = '/api/v1/openapi.json';

export interface ExampleRequest {
  summary: string;
  query: Readonly<Record<string, string>>;
}

/** Per operation, named examples: together they give every parameter a value. */
export const EXAMPLE_REQUESTS: Readonly<Record<string, Readonly<Record<string, ExampleRequest>>>> = {
  getPrayerTimes: {
    city: { summary: 'A Turkish district by name (diyanet, its country’s default)', query: { city: 'Kadıköy', date: '2026-03-21' } },
    coordinates: {
      summary: 'A point, with the nearest catalog place, a method, a madhab and a zone',
      query: { lat: '51.5074', lon: '-0.1278', tz: 'Europe/London', method: 'muslimWorldLeague', madhab: 'hanafi', date: '2026-06-21' },
    },
    highLatitude: { summary: 'Tromsø at midsummer: the times the sun does not give are estimated', query: { city: 'Tromsø', date: '2026-06-21' } },
  },
  getMonthlyTimetable: {
    city: { summary: 'A city by name: Istanbul, February 2026', query: { city: 'istanbul', year: '2026', month: '2' } },
  },
  getNextPrayer: {
    city: { summary: 'A place by its site path', query: { city: 'turkey/istanbul/kadikoy' } },
    coordinates: { summary: 'A point in New York', query: { lat: '40.7128', lon: '-74.006' } },
  },
  getQibla: {
    city: { summary: 'A city with its country', query: { city: 'Paris, FR' } },
    coordinates: { summary: 'A point in Jakarta', query: { lat: '-6.2', lon: '106.85' } },
  },
  searchCities: {
    name: { summary: 'Folded names: kadıköy, Kadıköy and KADIKOY find the same places', query: { q: 'kadıköy', limit: '3' } },
  },
  getHijriDate: {
    date: { summary: '1 Ramadan 1447', query: { date: '2026-02-18' } },
  },
};

/** Errors that a request's parameters or lookup give: made by running the request. */
const ERROR_REQUESTS: ReadonlyArray<{ code: ErrorCode; summary: string; path: string; query: string; withoutCatalog?: boolean }> = [
  { code: 'missing_parameter', summary: 'No place given', path: '/api/v1/times', query: '' },
  { code: 'invalid_parameter', summary: 'lat out of range', path: '/api/v1/times', query: 'lat=91&lon=29' },
  { code: 'unknown_parameter', summary: 'tz on /qibla', path: '/api/v1/qibla', query: 'lat=41&lon=29&tz=UTC' },
  { code: 'conflicting_parameters', summary: 'city with lat and lon', path: '/api/v1/times', query: 'city=istanbul&lat=41&lon=29' },
  { code: 'city_not_found', summary: 'No catalog place of that name', path: '/api/v1/times', query: 'city=Nowhereville' },
  { code: 'service_unavailable', summary: 'The place catalog is not built yet', path: '/api/v1/cities', query: 'q=ist', withoutCatalog: true },
];

export interface OperationExample extends ExampleRequest {
  value: unknown;
}

export interface ErrorExample {
  summary: string;
  /** What was sent. */
  request: string;
  value: { error: ReturnType<typeof errorObject> };
}

export interface Examples {
  generatedBy: string;
  now: string;
  operations: Record<string, Record<string, OperationExample>>;
  errors: Partial<Record<ErrorCode, ErrorExample>>;
}

const links = { publicBaseUrl: EXAMPLE_BASE_URL };
const queryText = (query: Readonly<Record<string, string>>): string => new URLSearchParams(query).toString();
const errorValue = (code: ErrorCode, message: string) => ({ error: errorObject(code, message, links) });

/** Runs one request as http.ts does, past the key check; returns the JSON body. */
function answer(path: string, rawQuery: string, catalog: PlaceCatalog | undefined): unknown {
  const route = ROUTES_BY_PATH.get(path)!;
  try {
    const result = route.handle(validateParams(route.params, parseQuery(rawQuery)), { now: EXAMPLE_NOW, catalog, store: undefined });
    return JSON.parse(result instanceof RenderedBody ? result.json : JSON.stringify(result));
  } catch (error) {
    if (error instanceof ApiError) return errorValue(error.code, error.message);
    throw error;
  }
}

/** The key check and the limits of access.ts, over an account store of three made-up keys. */
function accessErrors(): Array<[ErrorCode, string, string]> {
  const account: Account = { id: 'acc_example', email: 'someone@example.com', plan: 'trial', createdAt: '2026-01-05T09:00:00Z' };
  const key = (n: string) => `mk_${n.repeat(32)}`;
  const record = (k: string, revokedAt?: string): KeyRecord => ({
    hash: hashKey(k),
    prefix: k.slice(0, 9),
    accountId: account.id,
    name: 'Example key',
    lastFour: k.slice(-4),
    createdAt: account.createdAt,
    ...(revokedAt ? { revokedAt } : {}),
  });
  const store = {
    version: () => 1,
    allKeys: () =>
      new Map([
        ...[key('A'), key('R')].map((k) => [hashKey(k), record(k, k === key('R') ? '2026-03-01T08:30:00.000Z' : undefined)] as const),
        // A key for a web page, restricted to its site's origin.
        [hashKey(key('W')), { ...record(key('W')), allowedOrigins: ['https://app.example.com'] }] as const,
      ]),
    allAccounts: () => new Map([[account.id, account]]),
  } as unknown as AccountStore;
  let usage: Usage = { month: '2026-03', monthCount: 120, windowStart: EXAMPLE_NOW - 12_000, windowCount: DEFAULT_PLANS.trial.perMinute };
  const ledger: UsageLedger = { count: (_id, plan, now, requests) => admit(usage, plan, now, requests), read: () => ({ ...usage }) };
  const access = new AccessControl(store, DEFAULT_PLANS, ledger);
  const refusal = (run: () => unknown): [ErrorCode, string] => {
    try {
      run();
    } catch (error) {
      if (error instanceof ApiError) return [error.code, error.message];
      throw error;
    }
    throw new Error('expected a refusal');
  };
  const found: Array<[ErrorCode, string, string]> = [];
  const add = (summary: string, [code, message]: [ErrorCode, string]) => found.push([code, message, summary]);
  add('No key in Authorization or X-API-Key', refusal(() => access.admit('', '', EXAMPLE_NOW)));
  add('A key that does not exist', refusal(() => access.admit(`Bearer ${key('X')}`, '', EXAMPLE_NOW)));
  add('A revoked key', refusal(() => access.admit('', key('R'), EXAMPLE_NOW)));
  add('A key restricted to https://app.example.com, used by a page of another site', refusal(() => access.admit('', key('W'), EXAMPLE_NOW, { headers: { origin: 'https://elsewhere.example' } })));
  add('The trial plan’s 10 requests of this minute are used', refusal(() => access.admit('', key('A'), EXAMPLE_NOW)));
  usage = { month: '2026-03', monthCount: DEFAULT_PLANS.trial.perMonth, windowStart: EXAMPLE_NOW - 12_000, windowCount: 1 };
  add('The trial plan’s 1,000 requests of this month are used', refusal(() => access.admit('', key('A'), EXAMPLE_NOW)));
  return found;
}

/** Every example, made now by the code (the catalog gives the places; its public base URL must be EXAMPLE_BASE_URL). */
export function buildExamples(catalog: PlaceCatalog): Examples {
  if (catalog.publicBaseUrlInUse() !== EXAMPLE_BASE_URL) throw new Error(`the catalog must build its URLs on ${EXAMPLE_BASE_URL}`);
  const operations: Examples['operations'] = {};
  for (const route of ROUTES) {
    operations[route.operationId] = Object.fromEntries(
      Object.entries(EXAMPLE_REQUESTS[route.operationId]).map(([name, request]) => [
        name,
        { ...request, value: answer(route.path, queryText(request.query), catalog) },
      ]),
    );
  }
  const errors: Examples['errors'] = {};
  for (const { code, summary, path, query, withoutCatalog } of ERROR_REQUESTS) {
    const value = answer(path, query, withoutCatalog ? undefined : catalog) as ErrorExample['value'];
    if (value.error?.code !== code) throw new Error(`${path}?${query} gave ${JSON.stringify(value)}, not ${code}`);
    errors[code] = { summary, request: `GET ${path}${query ? `?${query}` : ''}`, value };
  }
  for (const [code, message, summary] of accessErrors()) {
    errors[code] = { summary, request: 'GET /api/v1/times?city=istanbul', value: errorValue(code, message) };
  }
  errors.not_found = {
    summary: 'A path that is not the API’s (answered before the key is looked at)',
    request: 'GET /api/v1/prayer-times',
    value: errorValue('not_found', notFoundMessage('/api/v1/prayer-times', OPENAPI_PATH)),
  };
  errors.internal_error = {
    summary: 'Never expected: the request id finds the logged stack',
    request: 'GET /api/v1/times?city=istanbul',
    value: errorValue('internal_error', internalErrorMessage('mi3k2x9p1-4f2a')),
  };
  return { generatedBy: 'npm run openapi:examples', now: new Date(EXAMPLE_NOW).toISOString(), operations, errors };
}
