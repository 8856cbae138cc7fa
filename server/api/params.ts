// Query parameters declared once per route: validation, the OpenAPI description and the MCP input schemas are
// all derived from these declarations.
import { formatDate, isWithinSupportedRange, MAX_DATE, MIN_DATE, parseDate } from '../../pipeline/zones/calendarDate.js';
import { canonicalZoneName } from '../../pipeline/zones/zoneRules.js';
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

/** A `%` not followed by two hex digits. */
const MALFORMED_PERCENT = /%(?![0-9a-fA-F]{2})/;
/**
 * U+FFFD, the replacement character: uWebSockets.js hands the query to JavaScript as text, with each byte sequence
 * that is not UTF-8 already replaced by it. So a value holding one may have come as such bytes, raw; it is refused as
 * those bytes are when they come percent-encoded (one rule: docs/api.md, "The OpenAPI description").
 */
const REPLACEMENT = '\uFFFD';

function decode(text: string, what: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    if (MALFORMED_PERCENT.test(text)) throw new ApiError('invalid_parameter', `${what} is not valid percent-encoding.`);
    decoded = REPLACEMENT; // well-formed escapes of bytes that are not UTF-8
  }
  if (decoded.includes(REPLACEMENT)) throw new ApiError('invalid_parameter', `${what} is not valid UTF-8 (raw or percent-encoded).`);
  return decoded;
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

/**
 * The text of a value, by the one rule every parameter follows (docs/api.md, "The OpenAPI description"): a control
 * character anywhere (U+0000–U+001F, U+007F–U+009F: tab and line breaks too) is refused, at the ends as well; other
 * white space at both ends (spaces, no-break spaces: what `trim` removes once no control character is left) is
 * dropped. The schemas' patterns say the same (textPattern below).
 */
function valueText(name: string, raw: string): string {
  if (CONTROL_CHARACTERS.test(raw)) throw new ApiError('invalid_parameter', `${name} must not contain control characters (tab and line breaks included).`);
  return raw.trim();
}

/** What a JSON value is, in words, for messages. */
const jsonKind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/**
 * Where values come from: `query`, text (a query string, a page's parameters); `json`, the arguments of an MCP tool
 * call, whose types must be the input schema's (a number where it says number, a string where it says string).
 */
export type ValueSource = 'query' | 'json';

function validateNumber(name: string, spec: NumberParam, raw: unknown, source: ValueSource): number {
  let value = NaN;
  if (source === 'json') {
    if (typeof raw !== 'number') {
      const shown = typeof raw === 'string' ? `${JSON.stringify(raw.length > 20 ? raw.slice(0, 20) + '…' : raw)} is a string` : `it was ${jsonKind(raw)}`;
      throw new ApiError('invalid_parameter', `${name} must be ${bounds(spec)}, given as a JSON number: ${shown}.`);
    }
    if (spec.type === 'number' || Number.isInteger(raw)) value = raw;
  } else if (typeof raw === 'string') {
    const text = valueText(name, raw);
    if ((spec.type === 'integer' ? INTEGER : NUMBER).test(text)) value = Number(text);
  }
  if (!Number.isFinite(value) || value < spec.minimum || value > spec.maximum) {
    throw new ApiError('invalid_parameter', `${name} must be ${bounds(spec)}.`);
  }
  return value;
}

/** Checks one value against its declaration; returns it parsed, or throws the contract's 400. */
export function validateValue(name: string, spec: ParamSpec, raw: unknown, source: ValueSource = 'query'): number | string {
  if (spec.type !== 'string') return validateNumber(name, spec, raw, source);
  if (typeof raw !== 'string') throw new ApiError('invalid_parameter', `${name} must be a string${source === 'json' ? `; it was ${jsonKind(raw)}` : ''}.`);
  const value = valueText(name, raw);
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

/**
 * Validates a whole request's parameters against a route's declarations, in a fixed order (PARAMETER_CHECKS): a
 * name the route does not take, then each declared parameter in the order the route lists them (missing when
 * required, else its value). The rules between parameters come after, in the handler (checkRules).
 */
export function validateParams<P extends ParamSpecs>(specs: P, given: ReadonlyMap<string, unknown>, source: ValueSource = 'query'): ParamValues<P> {
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
    out[name] = validateValue(name, spec, raw, source);
  }
  return out as ParamValues<P>;
}

/**
 * How values are read and which check answers when several fail, in words: published in the OpenAPI description
 * (info and the 400 response, which the API reference shows), so the derived docs say what the code does.
 */
export const PARAMETER_CHECKS = {
  whiteSpace:
    'Every parameter value is read by one rule: white space at both ends is dropped (spaces, no-break spaces and the other ' +
    'Unicode spaces), and a control character anywhere in a value, at its ends too (U+0000–U+001F and U+007F–U+009F: a tab, ' +
    'a line break), is 400 invalid_parameter. So lat=%2041%20 is 41, and lat=%0941 and q=%09ist are refused alike.',
  order:
    'When several things are wrong, the first failing check answers, in this order: the query string itself, left to right ' +
    '(a name or value whose percent-encoding does not decode, or that is not UTF-8, raw or percent-encoded: invalid_parameter; a parameter given twice: unknown_parameter); ' +
    'then a parameter the operation does not take (unknown_parameter, the first in the query); then each parameter the ' +
    'operation takes, in the order it lists them: missing_parameter when it is required and absent, else invalid_parameter when ' +
    'its value is not allowed; then the rules between parameters, in the order the operation lists them (conflicting_parameters, ' +
    'missing_parameter or invalid_parameter); then the lookup of city (404 city_not_found); last, checks that need the place ' +
    '(a date its clocks skipped: invalid_parameter). The key (401, 403) and the limits (429) come before all of these.',
} as const;

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
