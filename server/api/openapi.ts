// The OpenAPI 3.1 description. The operations, their parameters (schemas, bounds, patterns) and the rules between
// parameters come from the route table (routes.ts, params.ts, location.ts); the error codes from errors.ts; the
// enumerations from the pipeline's own lists; the examples are what the code answers (openapiExamples.ts). What is
// written here is the shape of the responses and their headers.
import { readFileSync } from 'node:fs';
import { MAX_DATE, MIN_DATE } from '../../pipeline/zones/calendarDate.js';
import { HIJRI_MONTH_NAMES, hijriDate } from '../../pipeline/astronomy/hijri.js';
import { MADHABS, METHOD_IDS, methodById, TIME_NAMES } from '../../pipeline/astronomy/methods.js';
import { EXTRA_NAMES } from '../../pipeline/astronomy/prayerTimes.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { NEXT_PRAYERS } from '../timetables/nextPrayer.js';
import type { Examples } from './openapiExamples.js';
import {
  DATE_PATTERN,
  DATE_RANGE_TEXT,
  describeRule,
  PARAMETER_CHECKS,
  paramSchema,
  parametersNotTaken,
  rulesFor,
  TIME_ZONE_PATTERN,
  type ParameterRule,
} from './params.js';
import { ROUTES, type Route } from './routes.js';

/** The committed examples (`npm run openapi:examples` writes them). */
export const EXAMPLES_FILE = new URL('./openapiExamples.json', import.meta.url);
/** The base URL the examples were made with (openapiExamples.ts): replaced by the server's. */
const EXAMPLES_BASE_URL = 'http://localhost:8080';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** An object with exactly these properties (all required unless listed otherwise). */
const object = (properties: Record<string, unknown>, required = Object.keys(properties), description?: string) => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required,
  additionalProperties: false,
});
const text = { type: 'string', minLength: 1 };
const hhmm = { type: 'string', pattern: '^(?:[01]\\d|2[0-3]):[0-5]\\d$', description: 'Local wall-clock time, HH:mm (24-hour).' };
const minuteInstant = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
  description:
    'The UTC instant of that same local minute: whole UTC minutes (seconds 00), except where the zone kept local mean time, whose offset has seconds (Istanbul before 1910: 1900-01-01T03:26:04Z).',
};
const secondInstant = { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' };
const date = { type: 'string', format: 'date', pattern: DATE_PATTERN, description: `YYYY-MM-DD, ${DATE_RANGE_TEXT}.` };
const latitude = { type: 'number', minimum: -90, maximum: 90 };
const longitude = { type: 'number', minimum: -180, maximum: 180 };
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Hijri fields of a day: the years are those of the supported Gregorian range. */
const hijriFields = {
  day: { type: 'integer', minimum: 1, maximum: 30 },
  month: { type: 'integer', minimum: 1, maximum: 12 },
  year: { type: 'integer', minimum: hijriDate(MIN_DATE).year, maximum: hijriDate(MAX_DATE).year },
  monthName: { type: 'string', enum: [...HIJRI_MONTH_NAMES] },
};

const catalogLocationFields = {
  id: { ...text, description: 'Stable id: g<geonameid> for GeoNames places, tr-<plate>-<slug> for Turkish districts.' },
  name: { ...text, description: 'The name in its native spelling.' },
  type: { type: 'string', enum: ['city', 'district'] },
  country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' },
  countryName: { ...text, description: 'The English name of the country.' },
  region: { type: 'string', description: 'Province or state; empty when the sources give none.' },
  latitude,
  longitude,
  timeZone: ref('TimeZone'),
  population: { type: 'integer', minimum: 0, description: 'When known.' },
  path: {
    type: 'string',
    pattern: '^[a-z0-9-]+/[a-z0-9-]+/[a-z0-9-]+$',
    description: 'The site path, country/region/place in lowercase ASCII slugs; city= takes it too.',
  },
  urls: object(
    { tr: { type: 'string', format: 'uri' }, en: { type: 'string', format: 'uri' } },
    ['tr', 'en'],
    'The place’s pages on the site, in Turkish and in English.',
  ),
};

const SCHEMAS = {
  Error: object({
    error: object({
      code: { type: 'string', enum: Object.keys(ERROR_STATUS), description: 'What went wrong; each status has its own codes.' },
      message: { ...text, description: 'What was wrong, in words a user can act on: the parameter and the allowed values.' },
      docs: { type: 'string', format: 'uri', description: 'The section of the error reference for this code (for 401 and 403, the page on keys).' },
      pricing: { type: 'string', format: 'uri' },
    }),
  }),
  TimeZone: { type: 'string', pattern: TIME_ZONE_PATTERN, description: 'An IANA time zone, canonical name.' },
  CatalogLocation: {
    type: 'object',
    description: 'A place of the catalog: a city, or a Turkish district. It may gain properties.',
    properties: catalogLocationFields,
    required: Object.keys(catalogLocationFields).filter((name) => name !== 'population'),
    not: { required: ['nearestCity'] },
  },
  PointLocation: {
    type: 'object',
    description: 'A point given by lat and lon, with the nearest catalog place (absent only while no catalog is built). It may gain properties.',
    properties: { latitude, longitude, timeZone: ref('TimeZone'), nearestCity: ref('CatalogLocation') },
    required: ['latitude', 'longitude', 'timeZone'],
    not: { required: ['id'] },
  },
  Location: {
    description: 'Where the answer is for: the catalog place that city= named, or the point of lat and lon.',
    oneOf: [ref('CatalogLocation'), ref('PointLocation')],
  },
  Method: object({
    id: { type: 'string', enum: [...METHOD_IDS] },
    name: { type: 'string', enum: METHOD_IDS.map((id) => methodById(id).name) },
  }),
  Madhab: { type: 'string', enum: [...MADHABS], description: 'The Asr convention used.' },
  Hijri: object(hijriFields, undefined, 'The Umm al-Qura date of the day.'),
  Times: object(Object.fromEntries(TIME_NAMES.map((n) => [n, hhmm]))),
  Instants: object(Object.fromEntries(TIME_NAMES.map((n) => [n, minuteInstant])), undefined, 'The UTC instants of the times.'),
  Extras: object(
    Object.fromEntries(EXTRA_NAMES.map((n) => [n, hhmm])),
    [],
    'Times from the astronomical events; one whose event does not happen that day is left out.',
  ),
  Estimated: {
    type: 'array',
    description: 'The times that a high-latitude rule estimated, in the order of times; empty when none.',
    items: { type: 'string', enum: [...TIME_NAMES] },
    uniqueItems: true,
  },
  DailyResponse: object({
    location: ref('Location'),
    method: ref('Method'),
    madhab: ref('Madhab'),
    timeZone: ref('TimeZone'),
    date,
    hijri: ref('Hijri'),
    times: ref('Times'),
    iso: ref('Instants'),
    extras: ref('Extras'),
    estimated: ref('Estimated'),
  }),
  MonthResponse: object({
    location: ref('Location'),
    method: ref('Method'),
    madhab: ref('Madhab'),
    timeZone: ref('TimeZone'),
    year: { type: 'integer', minimum: MIN_DATE.year, maximum: MAX_DATE.year },
    month: { type: 'integer', minimum: 1, maximum: 12 },
    days: {
      type: 'array',
      description: 'One entry per day of the month, in order.',
      minItems: 28,
      maxItems: 31,
      items: object({ date, hijri: ref('Hijri'), times: ref('Times'), estimated: ref('Estimated') }),
    },
  }),
  NextPrayerResponse: object({
    location: ref('Location'),
    now: { ...secondInstant, description: 'The server’s UTC instant, to the second.' },
    next: object({
      prayer: ref('Prayer'),
      time: hhmm,
      iso: minuteInstant,
      inSeconds: { type: 'integer', minimum: 0, description: 'Whole seconds from now to iso.' },
    }),
    previous: {
      description: 'The latest prayer at or before now (yesterday’s isha before today’s fajr); null only if it cannot be computed.',
      oneOf: [
        object({ prayer: ref('Prayer'), time: hhmm, iso: minuteInstant, secondsAgo: { type: 'integer', minimum: 0 } }),
        { type: 'null' },
      ],
    },
  }),
  Prayer: { type: 'string', enum: [...NEXT_PRAYERS] },
  QiblaResponse: object({
    location: ref('Location'),
    bearing: {
      type: 'number',
      minimum: 0,
      exclusiveMaximum: 360,
      description: 'Great-circle initial bearing to the Kaaba, degrees clockwise from true north, 2 decimals.',
    },
    distanceKm: { type: 'number', minimum: 0, description: 'WGS-84 geodesic distance to the Kaaba, kilometres, 1 decimal.' },
  }),
  CitySearchResponse: object({
    query: { type: 'string', description: 'q as searched (trimmed).' },
    cities: { type: 'array', description: 'Best first; empty when nothing matches.', maxItems: 50, items: ref('CatalogLocation') },
  }),
  HijriResponse: object({
    date,
    hijri: object({
      ...hijriFields,
      monthNameAr: { ...text, description: 'The month’s Arabic name.' },
      weekday: { type: 'string', enum: WEEKDAYS, description: 'The English name of the weekday.' },
    }),
    calendar: { type: 'string', const: 'umm-al-qura' },
  }),
};

const COMPONENT_SCHEMA_REF = '#/components/schemas/';

/** A copy of a schema with its `#/components/schemas/X` references read as `#/$defs/X`; the names it refers to in `names`. */
function withLocalRefs(value: unknown, names: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withLocalRefs(item, names));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_SCHEMA_REF)) {
        const name = inner.slice(COMPONENT_SCHEMA_REF.length);
        names.add(name);
        return [key, `#/$defs/${name}`];
      }
      return [key, withLocalRefs(inner, names)];
    }),
  );
}

/**
 * The JSON Schema of what an MCP tool's `structuredContent` holds (mcp.ts): the operation's 200 body, or, on a result
 * with `isError`, the API's error body; one document that stands alone, the component schemas it refers to
 * (transitively) under `$defs`. Derived from the same SCHEMAS the OpenAPI document serves.
 */
export function toolOutputSchema(response: string): { type: 'object'; description: string; anyOf: unknown[]; $defs: Record<string, unknown> } {
  if (!Object.hasOwn(SCHEMAS, response)) throw new Error(`no response schema ${response}`);
  const names = new Set<string>();
  const root = withLocalRefs({ anyOf: [ref(response), ref('Error')] }, names) as { anyOf: unknown[] };
  const defs: Record<string, unknown> = {};
  for (const name of names) {
    // `names` grows while the loop walks it: a Set's iteration visits what is added during it.
    if (!(name in defs)) defs[name] = withLocalRefs(SCHEMAS[name as keyof typeof SCHEMAS], names);
  }
  return {
    type: 'object',
    description: `The operation's answer as the API gives it with status 200 (${response}); with isError, the API's error body (Error).`,
    ...root,
    $defs: defs,
  };
}

// Response headers.
const HEADERS = {
  'RateLimit-Limit': { description: 'Requests per minute of the plan.', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in this minute.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Whole seconds until the per-minute window resets.', schema: { type: 'integer', minimum: 1, maximum: 60 } },
  'X-Quota-Limit': { description: 'Requests per month of the plan.', schema: { type: 'integer', minimum: 1 } },
  'X-Quota-Remaining': { description: 'Requests left this month.', schema: { type: 'integer', minimum: 0 } },
  'X-Quota-Reset': {
    description: 'The first instant of the next UTC month, when the monthly quota resets.',
    schema: { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-01T00:00:00Z$' },
  },
  'Retry-After': { description: 'Whole seconds to wait.', schema: { type: 'integer', minimum: 1 } },
  'X-Request-Id': { description: 'Names the request in the server’s log.', schema: { type: 'string', pattern: '^[0-9a-z]+-[0-9a-z]+$' } },
} as const;
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Reset'] as const;

/**
 * When an error is answered, relative to the key check (http.ts): `afterKey` answers had a valid key and carry the
 * rate-limit and quota headers (a 429 too, with Retry-After, although it is not counted); `beforeKey` answers come
 * before the key is looked at, or refuse it, and carry none; `either` can be both.
 */
const ERROR_TIMING: Readonly<Record<ErrorCode, 'afterKey' | 'beforeKey' | 'either'>> = {
  missing_parameter: 'afterKey',
  invalid_parameter: 'afterKey',
  unknown_parameter: 'afterKey',
  conflicting_parameters: 'afterKey',
  missing_api_key: 'beforeKey',
  invalid_api_key: 'beforeKey',
  api_key_revoked: 'beforeKey',
  key_restricted: 'beforeKey',
  city_not_found: 'afterKey',
  not_found: 'beforeKey',
  method_not_allowed: 'beforeKey',
  rate_limit_exceeded: 'afterKey',
  quota_exceeded: 'afterKey',
  // Starting or stopping: before the key; no catalog, or the store unreadable: after it.
  service_unavailable: 'either',
  internal_error: 'either',
};

type Timing = 'afterKey' | 'beforeKey' | 'either';

const timingOf = (codes: readonly ErrorCode[]): Timing => {
  const timings = new Set(codes.map((code) => ERROR_TIMING[code]));
  return timings.size === 1 ? [...timings][0] : 'either';
};

/** The headers of a response: X-Request-Id always; the rate-limit and quota headers when the key was checked. */
function responseHeaders(timing: Timing, retryAfter = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (timing !== 'beforeKey') for (const name of RATE_LIMIT_HEADERS) out[name] = { ...HEADERS[name], required: timing === 'afterKey' };
  if (retryAfter) out['Retry-After'] = { ...HEADERS['Retry-After'], required: true };
  out['X-Request-Id'] = { ...HEADERS['X-Request-Id'], required: true };
  return out;
}

const codesOf = (status: number): ErrorCode[] =>
  (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);

/** The error responses an operation lists, by component name. */
const ERROR_RESPONSES: Record<string, { description: string; codes: ErrorCode[] }> = {
  BadRequest: {
    description: 'A parameter is missing, invalid, unknown or given twice, or parameters conflict; when several are, the first check in the order the API’s description gives answers.',
    codes: codesOf(400),
  },
  Unauthorized: { description: 'No API key, or one that does not exist.', codes: codesOf(401) },
  Forbidden: { description: 'The API key was revoked, or it is restricted (origins, address ranges) and this request is outside its restrictions.', codes: codesOf(403) },
  CityNotFound: { description: 'No catalog place matches city.', codes: ['city_not_found'] },
  NotFound: {
    description: 'Only for a path that is not the API’s: this operation has no lookup that can fail. Listed for every operation, as the specification does.',
    codes: ['not_found'],
  },
  TooManyRequests: { description: 'The per-minute limit or the monthly quota is used up (the month’s wins when both are).', codes: codesOf(429) },
  InternalError: { description: 'Never expected; the message names the request id, under which the stack is logged.', codes: codesOf(500) },
  ServiceUnavailable: {
    description: 'Starting or stopping; the place catalog not built (city and /cities); or the precomputed timetables cannot be read.',
    codes: codesOf(503),
  },
};

/** One example per code that the response can carry. */
function errorExamples(codes: readonly ErrorCode[], examples: Examples) {
  return Object.fromEntries(
    codes.flatMap((code) => {
      const example = examples.errors[code];
      return example ? [[code, { summary: example.summary, description: example.request, value: example.value }]] : [];
    }),
  );
}

function errorResponse(name: string, examples: Examples) {
  const { description, codes } = ERROR_RESPONSES[name];
  return {
    description: `${description} Codes: ${codes.join(', ')}.`,
    headers: responseHeaders(timingOf(codes), codes.some((code) => ERROR_STATUS[code] === 429)),
    content: {
      'application/json': {
        schema: {
          allOf: [ref('Error'), { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }],
        },
        examples: errorExamples(codes, examples),
      },
    },
  };
}

/**
 * `x-parameter-rules` of an operation: the rules between its parameters, in the order the server checks them; a
 * request that breaks one gets a 400 with its `error` code (docs/api.md, "The OpenAPI description").
 */
function rulesExtension(rules: readonly ParameterRule[]) {
  return rules.map((rule) => {
    const { message: _message, error, ...shape } = rule;
    return { ...shape, error, description: describeRule(rule) };
  });
}

function operationDescription(route: Route, rules: readonly ParameterRule[]): string {
  const parts = [route.description];
  if (rules.length) {
    parts.push(
      `Parameters go together as follows (x-parameter-rules; checked in this order, the first broken rule answers 400 with its code): ${rules
        .map((rule) => `${describeRule(rule)} (${rule.error})`)
        .join('; ')}.`,
    );
  }
  const notTaken = parametersNotTaken(route.rules ?? [], route.params);
  if (notTaken.length) parts.push(`${notTaken.join(', ')}: not a parameter of this operation; giving it is 400 unknown_parameter.`);
  return parts.join('\n\n');
}

/**
 * An example value of a parameter, from the operation's example requests, else from another operation's (the
 * location and calculation parameters are the same declarations everywhere); numbers as numbers.
 */
function parameterExample(route: Route, name: string, examples: Examples): unknown {
  const own = Object.values(examples.operations[route.operationId] ?? {});
  const others = Object.entries(examples.operations).flatMap(([id, named]) => (id === route.operationId ? [] : Object.values(named)));
  const value = [...own, ...others].find((example) => example.query[name] !== undefined)?.query[name];
  if (value === undefined) return undefined;
  return route.params[name].type === 'string' ? value : Number(value);
}

function operation(route: Route, examples: Examples) {
  const rules = rulesFor(route.rules ?? [], route.params);
  const takesCity = Object.hasOwn(route.params, 'city');
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: operationDescription(route, rules),
    parameters: Object.entries(route.params).map(([name, spec]) => {
      const example = parameterExample(route, name, examples);
      return {
        name,
        in: 'query',
        required: Boolean(spec.required),
        description: spec.description,
        schema: paramSchema(spec),
        ...(example !== undefined ? { example } : {}),
      };
    }),
    ...(rules.length ? { 'x-parameter-rules': rulesExtension(rules) } : {}),
    responses: {
      200: {
        description: 'OK',
        headers: responseHeaders('afterKey'),
        content: {
          'application/json': {
            schema: ref(route.response),
            examples: Object.fromEntries(
              Object.entries(examples.operations[route.operationId] ?? {}).map(([name, example]) => [
                name,
                { summary: example.summary, description: `GET ${route.path}?${new URLSearchParams(example.query)}`, value: example.value },
              ]),
            ),
          },
        },
      },
      400: { $ref: '#/components/responses/BadRequest' },
      401: { $ref: '#/components/responses/Unauthorized' },
      403: { $ref: '#/components/responses/Forbidden' },
      404: { $ref: `#/components/responses/${takesCity ? 'CityNotFound' : 'NotFound'}` },
      429: { $ref: '#/components/responses/TooManyRequests' },
      500: { $ref: '#/components/responses/InternalError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  };
}

let committed: Examples | undefined;

/** The committed examples, their URLs on the server's public base URL. */
function examplesFor(publicBaseUrl: string): Examples {
  committed ??= JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Examples;
  const base = JSON.stringify(publicBaseUrl).slice(1, -1);
  return JSON.parse(JSON.stringify(committed).replaceAll(EXAMPLES_BASE_URL, base));
}

export function openApiDocument(publicBaseUrl: string): object {
  const examples = examplesFor(publicBaseUrl);
  const paths: Record<string, unknown> = {};
  for (const route of ROUTES) paths[route.path] = { get: operation(route as unknown as Route, examples) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prayer Times API',
      version: '1.0.0',
      // Paragraphs; the API reference shows those that do not define x-parameter-rules (it lists each operation's rules).
      description: [
        'Islamic prayer times for any place on Earth, the qibla, city search and the Umm al-Qura Hijri date. ' +
          'Every response carries X-Request-Id; every response to a valid key carries the rate-limit and quota headers, a 429 also Retry-After.',
        'An operation whose parameters depend on each other lists the rules in x-parameter-rules: an array checked in order, each ' +
          '{type: "excludes" | "requires", parameter, parameters} (when parameter is given, none / all of parameters must be) or ' +
          '{type: "oneOf", groups} (exactly one group must be given, whole), with the 400 error code it answers and a description.',
        PARAMETER_CHECKS.whiteSpace,
        PARAMETER_CHECKS.order,
      ].join('\n\n'),
    },
    servers: [{ url: publicBaseUrl }],
    security: [{ bearerKey: [] }, { headerKey: [] }],
    paths,
    components: {
      schemas: SCHEMAS,
      responses: Object.fromEntries(Object.keys(ERROR_RESPONSES).map((name) => [name, errorResponse(name, examples)])),
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer mk_…' },
        headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}
