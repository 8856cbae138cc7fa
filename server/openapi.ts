// The OpenAPI 3.1 description, generated from the route table (parameters) plus the response shapes below.
import { EXTRA_NAMES } from '../pipeline/prayerTimes.js';
import { TIME_NAMES } from '../pipeline/methods.js';
import { paramSchema } from './params.js';
import { ROUTES } from './routes.js';

const hhmm = { type: 'string', pattern: '^\\d{2}:\\d{2}$' };
const instant = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

const SCHEMAS = {
  Error: object({
    error: object({
      code: { type: 'string' },
      message: { type: 'string' },
      docs: { type: 'string', format: 'uri' },
      pricing: { type: 'string', format: 'uri' },
    }),
  }),
  Location: {
    type: 'object',
    additionalProperties: true,
    description:
      'A catalog place (id, name, type, country, countryName, region, latitude, longitude, timeZone, population, path, urls) or a point (latitude, longitude, timeZone, nearestCity).',
    properties: { latitude: { type: 'number' }, longitude: { type: 'number' }, timeZone: { type: 'string' } },
  },
  Method: object({ id: { type: 'string' }, name: { type: 'string' } }),
  Hijri: object({
    day: { type: 'integer' },
    month: { type: 'integer' },
    year: { type: 'integer' },
    monthName: { type: 'string' },
  }),
  Times: object(Object.fromEntries(TIME_NAMES.map((n) => [n, hhmm]))),
  Estimated: { type: 'array', items: { type: 'string', enum: [...TIME_NAMES] } },
  DailyResponse: object({
    location: ref('Location'),
    method: ref('Method'),
    madhab: { type: 'string', enum: ['shafi', 'hanafi'] },
    timeZone: { type: 'string' },
    date: { type: 'string', format: 'date' },
    hijri: ref('Hijri'),
    times: ref('Times'),
    iso: object(Object.fromEntries(TIME_NAMES.map((n) => [n, instant]))),
    extras: object(Object.fromEntries(EXTRA_NAMES.map((n) => [n, hhmm])), []),
    estimated: ref('Estimated'),
  }),
  MonthResponse: object({
    location: ref('Location'),
    method: ref('Method'),
    madhab: { type: 'string', enum: ['shafi', 'hanafi'] },
    timeZone: { type: 'string' },
    year: { type: 'integer' },
    month: { type: 'integer' },
    days: {
      type: 'array',
      items: object({ date: { type: 'string', format: 'date' }, hijri: ref('Hijri'), times: ref('Times'), estimated: ref('Estimated') }),
    },
  }),
  NextPrayerResponse: object({
    location: ref('Location'),
    now: instant,
    next: object({
      prayer: { type: 'string', enum: ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] },
      time: hhmm,
      iso: instant,
      inSeconds: { type: 'integer', minimum: 0 },
    }),
    previous: {
      oneOf: [
        object({ prayer: { type: 'string' }, time: hhmm, iso: instant, secondsAgo: { type: 'integer', minimum: 0 } }),
        { type: 'null' },
      ],
    },
  }),
  QiblaResponse: object({ location: ref('Location'), bearing: { type: 'number' }, distanceKm: { type: 'number' } }),
  CitySearchResponse: object({ query: { type: 'string' }, cities: { type: 'array', items: ref('Location') } }),
  HijriResponse: object({
    date: { type: 'string', format: 'date' },
    hijri: object({
      day: { type: 'integer' },
      month: { type: 'integer' },
      year: { type: 'integer' },
      monthName: { type: 'string' },
      monthNameAr: { type: 'string' },
      weekday: { type: 'string' },
    }),
    calendar: { type: 'string', const: 'umm-al-qura' },
  }),
};

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests per minute of the plan.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this minute.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the per-minute window resets.', schema: { type: 'integer' } },
  'X-Quota-Limit': { description: 'Requests per month of the plan.', schema: { type: 'integer' } },
  'X-Quota-Remaining': { description: 'Requests left this month.', schema: { type: 'integer' } },
  'X-Quota-Reset': { description: 'First instant of the next UTC month.', schema: { type: 'string', format: 'date-time' } },
};

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('Error') } },
});

export function openApiDocument(publicBaseUrl: string): object {
  const paths: Record<string, unknown> = {};
  for (const route of ROUTES) {
    paths[route.path] = {
      get: {
        operationId: route.operationId,
        summary: route.summary,
        description: route.description,
        parameters: Object.entries(route.params).map(([name, spec]) => ({
          name,
          in: 'query',
          required: Boolean(spec.required),
          description: spec.description,
          schema: paramSchema(spec),
        })),
        responses: {
          200: {
            description: 'OK',
            headers: RATE_HEADERS,
            content: { 'application/json': { schema: ref(route.response) } },
          },
          400: errorResponse('Invalid request: missing, invalid, unknown or conflicting parameters.'),
          401: errorResponse('No valid API key.'),
          403: errorResponse('The API key was revoked.'),
          404: errorResponse('No such path, or no catalog place matches city.'),
          429: errorResponse('Per-minute limit or monthly quota used up.', {
            ...RATE_HEADERS,
            'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
          }),
          503: errorResponse('Starting, stopping, or the data cannot be read.'),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prayer Times API',
      version: '1.0.0',
      description: 'Islamic prayer times for any place on Earth, the qibla, city search and the Umm al-Qura Hijri date.',
    },
    servers: [{ url: publicBaseUrl }],
    security: [{ bearerKey: [] }, { headerKey: [] }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer mk_…' },
        headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}
