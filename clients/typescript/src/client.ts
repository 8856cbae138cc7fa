// A typed client of the Prayer Times API: one method per operation of the OpenAPI document, whose parameters and
// answers are the generated types (schema.ts). Every outcome is a value: the answer, the API's error body, or the
// client's own error when no answer of the API's came (the network, an abort, a body that is not the API's); each
// with the limits the answer's headers gave. Only web-platform APIs (fetch, URL, Headers), so it runs in Node.js 18+,
// Deno, Bun and browsers alike.
import { limitsOf, type Limits } from './rateLimits.js';
import { errorErrorCodeValues, type components, type operations, type paths } from './schema.js';

/** The operations, by the OpenAPI document's operationId (the MCP tools have the same names). */
export type OperationId = keyof operations;

/**
 * Each operation's path. Typed by the generated operations, so a regenerated schema with an operation more or less
 * does not compile until this table says the same.
 */
export const OPERATION_PATHS = {
  getPrayerTimes: '/api/v1/times',
  getMonthlyTimetable: '/api/v1/month',
  getNextPrayer: '/api/v1/next',
  getQibla: '/api/v1/qibla',
  searchCities: '/api/v1/cities',
  getHijriDate: '/api/v1/hijri',
} as const satisfies Readonly<Record<OperationId, keyof paths>>;

/** The query parameters an operation takes. */
export type Query<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;
/** The body of an operation's 200 answer. */
export type Data<K extends OperationId> = operations[K]['responses'][200]['content']['application/json'];

/** The codes of the API's error bodies (400, 401, 403, 404, 405, 429, 500, 503). */
export type ApiErrorCode = components['schemas']['Error']['error']['code'];
/** The API's error body: what went wrong, in words a user can act on, and the page that explains the code. */
export type ApiError = components['schemas']['Error']['error'];

/**
 * The client's own codes, when no answer of the API's came: `network_error` (no connection, DNS, TLS, a reset),
 * `aborted` (the request's signal: a cancel or a timeout), `unexpected_response` (a body that is not the API's, such
 * as an HTML error page of a proxy in between).
 */
export type ClientErrorCode = 'network_error' | 'aborted' | 'unexpected_response';
export interface ClientError {
  code: ClientErrorCode;
  message: string;
}

export interface Success<T> {
  ok: true;
  status: number;
  data: T;
  /** The account's limits after this request; undefined only when the answer carried none (a proxy removed them). */
  limits: Limits | undefined;
  /** X-Request-Id: names the request in the server's log. */
  requestId: string | undefined;
}

export interface Failure {
  ok: false;
  /** The HTTP status; 0 when no answer came (network_error, aborted). */
  status: number;
  error: ApiError | ClientError;
  /** Present when the key was checked: on 400, 404 city_not_found, 429 and usually 500 and 503; not on 401 and 403. */
  limits: Limits | undefined;
  requestId: string | undefined;
}

export type Result<T> = Success<T> | Failure;

export interface RequestOptions {
  /** Aborts the request (a cancel, or AbortSignal.timeout(ms)); the result is then the `aborted` error. */
  signal?: AbortSignal;
}

/** A method per operation; one whose parameters are all optional (getHijriDate) may be called without a query. */
export type OperationCall<K extends OperationId> = object extends Query<K>
  ? (query?: Query<K>, options?: RequestOptions) => Promise<Result<Data<K>>>
  : (query: Query<K>, options?: RequestOptions) => Promise<Result<Data<K>>>;

export type PrayerTimesClient = { readonly [K in OperationId]: OperationCall<K> };

export interface ClientOptions {
  /** Where the API is served: an http or https URL such as https://api.example.org (a path prefix is kept). */
  baseUrl: string;
  /** The key (mk_…), sent as Authorization: Bearer. Leave it out only when something in between adds the key. */
  apiKey?: string;
  /** The fetch to use; globalThis.fetch by default. */
  fetch?: typeof fetch;
}

/** A base URL the API's paths can be appended to, or a TypeError that says what is wrong with it. */
function baseUrlOf(baseUrl: unknown): string {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError(`baseUrl must be an http or https URL such as https://api.example.org, not ${JSON.stringify(baseUrl)}.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new TypeError(`baseUrl must be an http or https URL without a query, fragment or credentials, such as https://api.example.org, not ${JSON.stringify(baseUrl)}.`);
  }
  return url.href.replace(/\/+$/, '');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const API_ERROR_CODES: ReadonlySet<string> = new Set(errorErrorCodeValues);

/**
 * The API's error body, when the text is one with a code of the document's. Another code in the same shape (a reverse
 * proxy in front answers some errors of its own that way, such as 414 uri_too_long) is not one the types promise: it
 * becomes an unexpected_response that keeps its code and message in its own message.
 */
function apiErrorOf(body: unknown): ApiError | ClientError | undefined {
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const { code, message } = body.error;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return API_ERROR_CODES.has(code) ? (body.error as unknown as ApiError) : { code: 'unexpected_response', message: `${code}: ${message}` };
}

function failureOf(error: unknown, signal: AbortSignal | undefined): Failure {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  const aborted = signal?.aborted || name === 'AbortError' || name === 'TimeoutError';
  const reason = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    status: 0,
    error: aborted ? { code: 'aborted', message: `The request was aborted: ${reason}` } : { code: 'network_error', message: `No answer from the API: ${reason}` },
    limits: undefined,
    requestId: undefined,
  };
}

/** Creates a client. Throws a TypeError only for options that cannot work (a baseUrl that is not an http URL). */
export function createClient(options: ClientOptions): PrayerTimesClient {
  const base = baseUrlOf(options?.baseUrl);
  const { apiKey } = options;
  // A key that cannot go in a header would fail inside fetch, where it would read as a network error.
  if (apiKey !== undefined && (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey))) {
    throw new TypeError('apiKey must be a string of visible ASCII characters, as keys are (mk_ and 32 letters and digits).');
  }
  if (options.fetch === undefined && typeof globalThis.fetch !== 'function') throw new TypeError('No fetch here: pass one as the fetch option.');
  // Called through globalThis: a browser's fetch called detached from window throws "Illegal invocation".
  const fetchFn: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (apiKey !== undefined) headers.Authorization = `Bearer ${apiKey}`;

  async function call(path: string, query: Record<string, unknown> | undefined, requestOptions?: RequestOptions): Promise<Result<unknown>> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) search.append(name, String(value));
    const queryText = search.toString();
    const url = `${base}${path}${queryText ? `?${queryText}` : ''}`;
    const signal = requestOptions?.signal;
    let response: Response;
    let text: string;
    try {
      response = await fetchFn(url, { method: 'GET', headers, signal });
      text = await response.text();
    } catch (error) {
      return failureOf(error, signal);
    }
    const limits = limitsOf(response.headers);
    const requestId = response.headers.get('X-Request-Id') ?? undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.status === 200 && isObject(body)) return { ok: true, status: 200, data: body, limits, requestId };
    const error = response.status !== 200 ? apiErrorOf(body) : undefined;
    if (error) return { ok: false, status: response.status, error, limits, requestId };
    const type = response.headers.get('Content-Type') ?? 'no content type';
    return {
      ok: false,
      status: response.status,
      error: { code: 'unexpected_response', message: `HTTP ${response.status} (${type}) from ${url.split('?')[0]}: not an answer of the API's.` },
      limits,
      requestId,
    };
  }

  const client: Record<string, unknown> = {};
  for (const [operationId, path] of Object.entries(OPERATION_PATHS)) {
    client[operationId] = (query?: Record<string, unknown>, requestOptions?: RequestOptions) => call(path, query, requestOptions);
  }
  return Object.freeze(client) as PrayerTimesClient;
}
