// Query parameters declared once per route: validation, the OpenAPI description and the MCP input schemas are
// all derived from these declarations.
import { formatDate, isWithinSupportedRange, MAX_DATE, MIN_DATE, parseDate } from '../../pipeline/calendarDate.js';
import { canonicalZoneName } from '../../pipeline/zoneRules.js';
import { ApiError, type ErrorCode } from '../errors.js';

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
  /** Characters (Unicode code points, as JSON Schema counts them), counted after trimming white space at both ends; default 1. */
  minLength?: number;
  /** Characters (code points), counted after trimming. */
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

/**
 * Length in characters as JSON Schema counts them (Unicode code points): a surrogate pair, such as an emoji, is
 * one character, not two UTF-16 units. A lone surrogate counts as one.
 */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

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
  const length = codePointLength(value);
  if (length > spec.maxLength) {
    throw new ApiError('invalid_parameter', `${name} must be at most ${spec.maxLength} characters long.`);
  }
  if (length < (spec.minLength ?? 1)) {
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

// Patterns of the parameter schemas: each accepts exactly what validateValue accepts (tested both ways), but for
// the white space validateValue trims at both ends of a date, a zone or an enum value.

/** Characters refused anywhere in a value (validateValue's CONTROL_CHARACTERS). */
const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f';

/** A free text of at least `minLength` characters once trimmed, without control characters. */
function textPattern(minLength: number): string {
  const any = `[^${CONTROL_CLASS}]`;
  const solid = `[^\\s${CONTROL_CLASS}]`; // neither white space nor control
  const blank = `[^\\S${CONTROL_CLASS}]`; // white space that is not a control character
  if (minLength <= 1) return `^${any}*${solid}${any}*$`;
  return `^${blank}*${solid}${any}{${minLength - 2},}${solid}${blank}*$`;
}

/**
 * A real calendar date from 1900-01-01 to 2100-12-31 (MIN_DATE, MAX_DATE): days 29 to 31 only in months that have
 * them, 29 February only in leap years (1900 and 2100 are not, 2000 is).
 */
export const DATE_PATTERN =
  '^(?:(?:19|20)\\d\\d|2100)-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)$' +
  '|^(?:19(?:0[48]|[2468][048]|[13579][26])|20(?:[02468][048]|[13579][26]))-02-29$';
export const DATE_RANGE_TEXT = `from ${formatDate(MIN_DATE)} to ${formatDate(MAX_DATE)}`;

/** The spelling of an IANA zone name, in any case (canonicalZoneName; whether the zone exists is its business). */
export const TIME_ZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+\\-/]*$';

/** JSON Schema of one parameter (OpenAPI 3.1 and MCP input schemas). */
export function paramSchema(spec: ParamSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: spec.type, description: spec.description };
  if (spec.type === 'string') {
    if (spec.enum) schema.enum = [...spec.enum];
    schema.minLength = spec.minLength ?? 1;
    schema.maxLength = spec.maxLength;
    if (spec.format === 'date') {
      schema.format = 'date';
      schema.pattern = DATE_PATTERN;
    } else if (spec.format === 'timeZone') {
      schema.pattern = TIME_ZONE_PATTERN;
    } else if (!spec.enum) {
      schema.pattern = textPattern(spec.minLength ?? 1);
    }
  } else {
    schema.minimum = spec.minimum;
    schema.maximum = spec.maximum;
  }
  if (spec.default !== undefined) schema.default = spec.default;
  return schema;
}

/**
 * A rule between parameters, checked after each value has passed its own declaration. A route's rules are checked
 * in order and the first one broken answers with its error. Published as the operation's `x-parameter-rules`
 * (without `message`, with a `description`).
 * - `excludes`: when `parameter` is given, none of `parameters` may be;
 * - `requires`: when `parameter` is given, all of `parameters` must be;
 * - `oneOf`: exactly one of `groups` must be given, whole.
 */
export type ParameterRule = (
  | { type: 'excludes' | 'requires'; parameter: string; parameters: readonly string[] }
  | { type: 'oneOf'; groups: ReadonlyArray<readonly string[]> }
) & { error: ErrorCode; message: string };

const namesOf = (rule: ParameterRule): string[] =>
  rule.type === 'oneOf' ? rule.groups.flat() : [rule.parameter, ...rule.parameters];

const listed = (names: readonly string[], word: 'and' | 'or'): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${word} ${names.at(-1)}`;

/** The rule in words. */
export function describeRule(rule: ParameterRule): string {
  switch (rule.type) {
    case 'excludes':
      return `${rule.parameter} cannot be given with ${listed(rule.parameters, 'or')}`;
    case 'requires':
      return `${rule.parameter} needs ${listed(rule.parameters, 'and')}`;
    case 'oneOf':
      return `give exactly one of: ${rule.groups.map((g) => listed(g, 'and')).join('; ')}`;
  }
}

/** Whether the given parameters break the rule. */
export function breaks(rule: ParameterRule, given: (name: string) => boolean): boolean {
  switch (rule.type) {
    case 'excludes':
      return given(rule.parameter) && rule.parameters.some(given);
    case 'requires':
      return given(rule.parameter) && !rule.parameters.every(given);
    case 'oneOf':
      return rule.groups.filter((group) => group.every(given)).length !== 1;
  }
}

/** Throws the first broken rule's 400. */
export function checkRules(rules: readonly ParameterRule[], values: Readonly<Record<string, unknown>>): void {
  const given = (name: string) => values[name] !== undefined;
  for (const rule of rules) if (breaks(rule, given)) throw new ApiError(rule.error, rule.message);
}

/** The rules that apply to an operation: those whose parameters it all takes. */
export function rulesFor(rules: readonly ParameterRule[], specs: ParamSpecs): ParameterRule[] {
  return rules.filter((rule) => namesOf(rule).every((name) => Object.hasOwn(specs, name)));
}

/** Parameters that some rule names but the operation does not take (tz on /qibla). */
export function parametersNotTaken(rules: readonly ParameterRule[], specs: ParamSpecs): string[] {
  return [...new Set(rules.flatMap(namesOf))].filter((name) => !Object.hasOwn(specs, name));
}
