// The OpenAPI document (ctx.data.openApi) read into what the docs pages show: operations with their parameters,
// rules, responses and examples, and the response headers. Only reads; nothing here restates the route table.

type Json = Record<string, unknown>;

export interface ParameterView {
  name: string;
  required: boolean;
  description: string;
  type: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  enum?: readonly string[];
  default?: unknown;
  format?: string;
  example?: unknown;
}

export interface RuleView {
  type: string;
  description: string;
  error: string;
}

export interface ResponseView {
  status: string;
  description: string;
  /** The error codes the response carries (none for 200). */
  codes: readonly string[];
  /** Header names the response lists, with whether each is always there. */
  headers: ReadonlyArray<{ name: string; required: boolean }>;
}

export interface ExampleView {
  name: string;
  summary: string;
  /** `/api/v1/times?city=…`, the request that gave the example. */
  request: string;
  value: unknown;
}

export interface OperationView {
  operationId: string;
  path: string;
  summary: string;
  /** Paragraphs. */
  description: readonly string[];
  parameters: readonly ParameterView[];
  rules: readonly RuleView[];
  responses: readonly ResponseView[];
  examples: readonly ExampleView[];
}

export interface HeaderView {
  name: string;
  description: string;
}

const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Follows a local `$ref` (`#/components/responses/BadRequest`) in the document. */
export function resolveRef(doc: Json, value: unknown): Json {
  const ref = str(obj(value).$ref);
  if (!ref.startsWith('#/')) return obj(value);
  return ref
    .slice(2)
    .split('/')
    .reduce<Json>((node, key) => obj(node[key.replace(/~1/g, '/').replace(/~0/g, '~')]), doc);
}

function parameterView(raw: unknown): ParameterView {
  const p = obj(raw);
  const schema = obj(p.schema);
  return {
    name: str(p.name),
    required: p.required === true,
    description: str(p.description) || str(schema.description),
    type: str(schema.type),
    minimum: num(schema.minimum),
    maximum: num(schema.maximum),
    minLength: num(schema.minLength),
    maxLength: num(schema.maxLength),
    enum: Array.isArray(schema.enum) ? schema.enum.map(String) : undefined,
    default: schema.default,
    format: str(schema.format) || undefined,
    example: p.example,
  };
}

/** The codes an error response's schema allows (`allOf: [Error, {…code: {enum}}]`). */
function responseCodes(response: Json): string[] {
  const schema = obj(obj(obj(response.content)['application/json']).schema);
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const codes = obj(obj(obj(obj(obj(part).properties).error).properties).code).enum;
    if (Array.isArray(codes)) return codes.map(String);
  }
  return [];
}

function responseView(doc: Json, status: string, raw: unknown): ResponseView {
  const response = resolveRef(doc, raw);
  return {
    status,
    description: str(response.description),
    codes: responseCodes(response),
    headers: Object.entries(obj(response.headers)).map(([name, h]) => ({ name, required: obj(h).required === true })),
  };
}

function exampleViews(response: Json): ExampleView[] {
  const examples = obj(obj(obj(response.content)['application/json']).examples);
  return Object.entries(examples).map(([name, raw]) => {
    const e = obj(raw);
    return { name, summary: str(e.summary), request: str(e.description).replace(/^GET\s+/, ''), value: e.value };
  });
}

/** Every GET operation of the document, in its order. */
export function operationsOf(doc: Json): OperationView[] {
  return Object.entries(obj(doc.paths)).flatMap(([path, item]) => {
    const op = obj(obj(item).get);
    if (!op.operationId) return [];
    const responses = obj(op.responses);
    return [
      {
        operationId: str(op.operationId),
        path,
        summary: str(op.summary),
        description: str(op.description).split(/\n\n+/).filter(Boolean),
        parameters: (Array.isArray(op.parameters) ? op.parameters : []).map(parameterView),
        rules: (Array.isArray(op['x-parameter-rules']) ? op['x-parameter-rules'] : []).map((r) => ({
          type: str(obj(r).type),
          description: str(obj(r).description),
          error: str(obj(r).error),
        })),
        responses: Object.entries(responses).map(([status, raw]) => responseView(doc, status, raw)),
        examples: exampleViews(resolveRef(doc, responses['200'])),
      },
    ];
  });
}

/**
 * The response headers the document describes (`X-Request-Id`, the rate-limit and quota headers, `Retry-After`),
 * each once, in the order they first appear over the operations' responses.
 */
export function headersOf(doc: Json): HeaderView[] {
  const seen = new Map<string, string>();
  for (const item of Object.values(obj(doc.paths))) {
    for (const raw of Object.values(obj(obj(obj(item).get).responses))) {
      for (const [name, h] of Object.entries(obj(resolveRef(doc, raw).headers))) {
        if (!seen.has(name)) seen.set(name, str(obj(h).description));
      }
    }
  }
  return [...seen].map(([name, description]) => ({ name, description }));
}

export interface ErrorExampleView {
  value: unknown;
  /** The headers its response lists (X-Request-Id aside). */
  headers: readonly string[];
}

/** The example error bodies of the document's error responses, by code (the first one found for each). */
export function errorExamplesOf(doc: Json): Map<string, ErrorExampleView> {
  const out = new Map<string, ErrorExampleView>();
  for (const response of Object.values(obj(obj(doc.components).responses))) {
    const headers = Object.keys(obj(obj(response).headers)).filter((name) => name !== 'X-Request-Id');
    for (const [code, raw] of Object.entries(obj(obj(obj(obj(response).content)['application/json']).examples))) {
      if (!out.has(code)) out.set(code, { value: obj(raw).value, headers });
    }
  }
  return out;
}

/** The document's title, version and description (`info`), the description as its paragraphs. */
export const infoOf = (doc: Json): { title: string; version: string; description: readonly string[] } => ({
  title: str(obj(doc.info).title),
  version: str(obj(doc.info).version),
  description: str(obj(doc.info).description).split(/\n\n+/).filter(Boolean),
});

/** The bounds of a parameter in words: "-90 to 90", "2 to 100 characters". */
export function boundsText(p: ParameterView): string {
  const parts: string[] = [];
  if (p.minimum !== undefined || p.maximum !== undefined) parts.push(range(p.minimum, p.maximum, ''));
  // An enumeration's lengths say nothing the values do not; so does the minimum length 1 every text has.
  if (!p.enum && (p.maxLength !== undefined || (p.minLength ?? 1) > 1)) parts.push(range(p.minLength, p.maxLength, ' characters'));
  return parts.join('; ');
}

function range(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && max !== undefined) return `${min} to ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  return `at most ${max}${unit}`;
}
