// Parameter validation against the JSON Schemas published for it: lengths in characters (code points), and each
// pattern accepting exactly what the validator accepts.
import { describe, expect, it } from 'vitest';
import { addDays, formatDate, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { ApiError } from '../errors.js';
import { LOCATION_RULES, tzParam } from './location.js';
import { breaks, codePointLength, DATE_PATTERN, paramSchema, validateParams, validateValue, type ParamSpec, type StringParam } from './params.js';
import { ROUTES_BY_PATH } from './routes.js';
import { schemaValidator } from '../../testing/schemaValidation.js';

const ajv = schemaValidator();

const cities = ROUTES_BY_PATH.get('/api/v1/cities')!;
const qSpec = cities.params.q as StringParam;

/** The 400 code validateValue answers, or 'ok'. */
function verdict(name: string, spec: ParamSpec, raw: string): string {
  try {
    validateValue(name, spec, raw);
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

describe('lengths are counted in characters (code points), as JSON Schema counts them', () => {
  it('counts a surrogate pair once and a lone surrogate once', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('ab')).toBe(2);
    expect(codePointLength('🕌')).toBe(1);
    expect(codePointLength('🕌🕋')).toBe(2);
    expect(codePointLength('a🕌b')).toBe(3);
    expect(codePointLength('\ud83d')).toBe(1);
    expect(codePointLength('\udd4c\ud83d')).toBe(2);
  });

  it.each([
    ['one emoji', '🕌', 'invalid_parameter'],
    ['one emoji with spaces around it', '  🕌 ', 'invalid_parameter'],
    ['one letter', 'a', 'invalid_parameter'],
    ['two emoji', '🕌🕋', 'ok'],
    ['two letters', 'ab', 'ok'],
    ['a letter and an emoji', 'a🕌', 'ok'],
  ])('q = %s', (_what, q, expected) => {
    expect(verdict('q', qSpec, q)).toBe(expected);
    // The published schema agrees.
    expect(ajv.validate(paramSchema(qSpec), q)).toBe(expected === 'ok');
  });

  it('maxLength is counted in code points too', () => {
    // 100 emoji are 200 UTF-16 units but 100 characters: at the bound, accepted; one more is refused.
    expect(verdict('q', qSpec, '🕌'.repeat(qSpec.maxLength))).toBe('ok');
    expect(verdict('q', qSpec, '🕌'.repeat(qSpec.maxLength + 1))).toBe('invalid_parameter');
    expect(ajv.validate(paramSchema(qSpec), '🕌'.repeat(qSpec.maxLength))).toBe(true);
    expect(ajv.validate(paramSchema(qSpec), '🕌'.repeat(qSpec.maxLength + 1))).toBe(false);
  });
});

describe('every string parameter schema accepts what the validator accepts', () => {
  const stringParams = [...ROUTES_BY_PATH.values()].flatMap((route) =>
    Object.entries(route.params).filter((entry): entry is [string, StringParam] => entry[1].type === 'string'),
  );
  const samples = [
    '', ' ', 'a', 'ab', ' a ', 'a b', '  ab  ', 'Kadıköy', 'İSTANBUL', 'Paris, FR', 'turkey/istanbul/kadikoy', '🕌', '🕌🕋',
    'a\u0000b', 'a\nb', '\tab', 'ab\u007f', 'a\u0085b', '\u00a0ab\u00a0', '\u3000', '\u2028ab', 'diyanet', 'hanafi', 'DIYANET',
    'Europe/Istanbul', 'europe/berlin', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires', 'America/Port-au-Prince', 'UTC', '+03:00',
    'Mars/Olympus', '1Europe/Berlin', 'Europe Berlin', '2026-02-18', '1900-01-01', '2100-12-31', '1899-12-31', '2101-01-01',
    '2026-02-29', '2028-02-29', '2026-1-05', 'a'.repeat(199), 'a'.repeat(200), 'a'.repeat(201), ' '.repeat(5) + 'a'.repeat(200),
  ];
  for (const [name, spec] of stringParams) {
    it(`${name}: ${spec.format ?? (spec.enum ? 'enum' : 'text')}, ${spec.minLength ?? 1}..${spec.maxLength}`, () => {
      const validate = ajv.compile(paramSchema(spec));
      for (const raw of samples) {
        const accepted = verdict(name, spec, raw) === 'ok';
        const valid = Boolean(validate(raw));
        // A value the schema allows is accepted: for a zone, the pattern checks the spelling and the zone must also
        // exist (tested below). The validator trims white space at both ends first, so it also accepts a valid value
        // with white space around it, which the schema (untrimmed) may refuse.
        if (valid && spec.format !== 'timeZone') expect(accepted, `${name}=${JSON.stringify(raw)} valid by the schema`).toBe(true);
        if (accepted && !valid) expect(raw.trim(), `${name}=${JSON.stringify(raw)} accepted, against the schema`).not.toBe(raw);
        if (accepted && !valid && spec.format !== 'timeZone') {
          expect(validate(raw.trim()), `${name}=${JSON.stringify(raw.trim())}`).toBe(true);
        }
      }
    });
  }

  it('minLength is 1 wherever an empty value is refused', () => {
    for (const [name, spec] of stringParams) {
      expect(verdict(name, spec, '')).toBe('invalid_parameter');
      expect(paramSchema(spec).minLength).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('the date pattern is the validator: real dates from 1900-01-01 to 2100-12-31', () => {
  it('agrees on every YYYY-MM-DD with month 00..13 and day 00..32 from 1899 to 2101', () => {
    const pattern = new RegExp(DATE_PATTERN, 'u');
    const spec: StringParam = { type: 'string', maxLength: 10, format: 'date', description: 'd' };
    let valid = 0;
    for (let year = 1899; year <= 2101; year++) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const accepted = verdict('date', spec, text) === 'ok';
          expect(pattern.test(text), text).toBe(accepted);
          if (accepted) valid++;
        }
      }
    }
    // Every day from 1900-01-01 to 2100-12-31.
    let days = 0;
    for (let d: CalendarDate = { year: 1900, month: 1, day: 1 }; formatDate(d) <= '2100-12-31'; d = addDays(d, 1)) days++;
    expect(valid).toBe(days);
  });
});

describe('the time zone pattern', () => {
  it('matches every zone the runtime knows, each accepted, and names it does not match are refused', () => {
    const pattern = new RegExp(paramSchema(tzParam).pattern as string, 'u');
    for (const zone of [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/GMT-14', 'US/Eastern', 'asia/calcutta']) {
      expect(pattern.test(zone), zone).toBe(true);
      expect(verdict('tz', tzParam, zone), zone).toBe('ok');
    }
    for (const bad of ['+03:00', 'GMT+3 ', '/Europe', 'Europe Berlin', '3Zone', '']) expect(pattern.test(bad), bad).toBe(false);
  });
});

describe('LOCATION_RULES', () => {
  const names = ['city', 'lat', 'lon', 'tz'] as const;
  const values: Record<string, string> = { city: 'istanbul', lat: '41', lon: '29', tz: 'UTC' };
  const times = ROUTES_BY_PATH.get('/api/v1/times')!;

  it('give the same answer as the handler for every combination of city, lat, lon and tz', () => {
    for (let mask = 0; mask < 16; mask++) {
      const given = names.filter((_, i) => mask & (1 << i));
      const params = validateParams(times.params, new Map(given.map((n) => [n, values[n]])));
      let answer = 'ok';
      try {
        times.handle(params, { now: Date.UTC(2026, 2, 1), catalog: undefined, store: undefined });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // Without a catalog a city that passes the rules is a 503, not a 400.
        answer = error.code === 'service_unavailable' ? 'ok' : error.code;
      }
      const broken = LOCATION_RULES.find((rule) => breaks(rule, (n) => given.includes(n as (typeof names)[number])));
      expect(answer, given.join('+') || 'nothing').toBe(broken?.error ?? 'ok');
    }
  });
});
