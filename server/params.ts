// Query parameters declared once per route: validation, the OpenAPI description and the MCP input schemas are
// all derived from these declarations.
import { isWithinSupportedRange, parseDate } from '../pipeline/calendarDate.js';
import { canonicalZoneName } from '../pipeline/zoneRules.js';
import { ApiError } from './errors.js';

interface Common {
  description: string;
  required?: boolean;
}

export interface NumberParam extends Common {
  type: 'number' | 'integer';
  minimum: number;
  maximum: number;
  default?: number;
}

export interface StringParam extends Common {
  type: 'string';
  enum?: readonly string[];
  /** Counted after trimming white space at both ends. */
  minLength?: number;
  maxLength: number;
  format?: 'date' | 'timeZone';
  default?: string;
}

export type ParamSpec = NumberParam | StringParam;
export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

export type ParamValues<P extends ParamSpecs> = {
  [K in keyof P]?: P[K] extends NumberParam ? number : string;
};

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const MAX_NAME_IN_MESSAGE = 40;

const shown = (name: string): string =>
  JSON.stringify(name.length > MAX_NAME_IN_MESSAGE ? name.slice(0, MAX_NAME_IN_MESSAGE) + '…' : name);

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new ApiError('invalid_parameter', `${what} is not valid percent-encoding.`);
  }
}

/** Splits a raw query string; a parameter given twice is refused. */
export function parseQuery(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  if (raw === '') return out;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq), 'A parameter name');
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1), `The value of ${shown(name)}`);
    if (out.has(name)) {
      throw new ApiError('unknown_parameter', `The parameter ${shown(name)} is given more than once; give it once.`);
    }
    out.set(name, value);
  }
  return out;
}

function bounds(spec: NumberParam): string {
  return `${spec.type === 'integer' ? 'an integer' : 'a number'} from ${spec.minimum} to ${spec.maximum}`;
}

/** Checks one value against its declaration; returns it parsed, or throws the contract's 400. */
export function validateValue(name: string, spec: ParamSpec, raw: unknown): number | string {
  if (spec.type !== 'string') {
    const text = typeof raw === 'number' ? String(raw) : raw;
    const pattern = spec.type === 'integer' ? INTEGER : NUMBER;
    const value = typeof text === 'string' && pattern.test(text.trim()) ? Number(text.trim()) : NaN;
    if (!Number.isFinite(value) || value < spec.minimum || value > spec.maximum) {
      throw new ApiError('invalid_parameter', `${name} must be ${bounds(spec)}.`);
    }
    return value;
  }
  if (typeof raw !== 'string') throw new ApiError('invalid_parameter', `${name} must be a string.`);
  if (CONTROL_CHARACTERS.test(raw)) throw new ApiError('invalid_parameter', `${name} must not contain control characters.`);
  const value = raw.trim();
  if (value.length > spec.maxLength) {
    throw new ApiError('invalid_parameter', `${name} must be at most ${spec.maxLength} characters long.`);
  }
  if (value.length < (spec.minLength ?? 1)) {
    throw new ApiError(
      'invalid_parameter',
      spec.minLength && spec.minLength > 1 ? `${name} must be at least ${spec.minLength} characters long.` : `${name} must not be empty.`,
    );
  }
  if (spec.enum && !spec.enum.includes(value)) {
    throw new ApiError('invalid_parameter', `${name} must be one of: ${spec.enum.join(', ')}.`);
  }
  if (spec.format === 'date') {
    const date = parseDate(value);
    if (!date || !isWithinSupportedRange(date)) {
      throw new ApiError('invalid_parameter', `${name} must be a real date YYYY-MM-DD from 1900-01-01 to 2100-12-31.`);
    }
  }
  if (spec.format === 'timeZone') {
    const zone = canonicalZoneName(value);
    if (!zone) throw new ApiError('invalid_parameter', `${name} must be an IANA time zone such as Europe/Istanbul.`);
    return zone;
  }
  return value;
}

/** Validates a whole request's parameters against a route's declarations. */
export function validateParams<P extends ParamSpecs>(specs: P, given: ReadonlyMap<string, unknown>): ParamValues<P> {
  for (const name of given.keys()) {
    if (!Object.hasOwn(specs, name)) {
      const accepted = Object.keys(specs);
      throw new ApiError(
        'unknown_parameter',
        `Unknown parameter ${shown(name)}; this endpoint takes ${accepted.length ? accepted.join(', ') : 'no parameters'}.`,
      );
    }
  }
  const out: Record<string, number | string> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const raw = given.get(name);
    if (raw === undefined) {
      if (spec.required) throw new ApiError('missing_parameter', `The parameter ${name} is required: ${spec.description}`);
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    out[name] = validateValue(name, spec, raw);
  }
  return out as ParamValues<P>;
}

/** JSON Schema of one parameter (OpenAPI 3.1 and MCP input schemas). */
export function paramSchema(spec: ParamSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: spec.type, description: spec.description };
  if (spec.type === 'string') {
    if (spec.enum) schema.enum = [...spec.enum];
    if (spec.minLength) schema.minLength = spec.minLength;
    schema.maxLength = spec.maxLength;
    if (spec.format === 'date') {
      schema.format = 'date';
      schema.pattern = '^\\d{4}-\\d{2}-\\d{2}$';
    }
  } else {
    schema.minimum = spec.minimum;
    schema.maximum = spec.maximum;
  }
  if (spec.default !== undefined) schema.default = spec.default;
  return schema;
}
