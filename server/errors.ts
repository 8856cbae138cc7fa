// The contract's errors: raised where the problem is found as ApiError, rendered in one place (errorBody).

import { authenticationDocsUrl, errorDocsUrl, pricingUrl } from './links.js';

export const ERROR_STATUS = {
  missing_parameter: 400,
  invalid_parameter: 400,
  unknown_parameter: 400,
  conflicting_parameters: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  api_key_revoked: 403,
  key_restricted: 403,
  city_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  rate_limit_exceeded: 429,
  quota_exceeded: 429,
  service_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** What each code means for the one who gets it: when it happens (the contract's table) and what to do. /docs/errors renders it. */
export interface ErrorExplanation {
  when: string;
  fix: string;
  /** A message for the example body, for a code the OpenAPI document has no example of. */
  exampleMessage?: string;
}

export const ERROR_DOCS: Readonly<Record<ErrorCode, ErrorExplanation>> = {
  missing_parameter: {
    when: 'A required parameter is absent: no place (neither city nor lat and lon), lat without lon or lon without lat, or no q for /cities.',
    fix: 'Add the parameter the message names. Each operation of the API reference lists its parameters and how they go together.',
  },
  invalid_parameter: {
    when: 'A value is out of range, of the wrong type or format, or not allowed: lat 91, month 13, a date that is not a real day from 1900-01-01 to 2100-12-31, a method that does not exist, an empty value (lat=), tz without lat and lon.',
    fix: 'Send a value the message allows; the API reference gives each parameter’s type, bounds and allowed values.',
  },
  unknown_parameter: {
    when: 'The query has a parameter the endpoint does not take (tz on /qibla, a misspelt name), or the same parameter twice.',
    fix: 'Remove it, or correct its spelling; give each parameter once.',
  },
  conflicting_parameters: {
    when: 'city is given together with lat or lon.',
    fix: 'Give either city, or lat and lon (with tz if you like), not both.',
  },
  missing_api_key: {
    when: 'The request carries no key: neither Authorization: Bearer <key> nor X-API-Key: <key>.',
    fix: 'Send your key in one of those headers (see the authentication page). An Authorization header with another scheme (Basic) is not a key.',
  },
  invalid_api_key: {
    when: 'The key sent does not exist (a typo, a key of another server, a truncated copy).',
    fix: 'Copy the key again, whole (mk_ and 32 characters), or create a new one.',
  },
  api_key_revoked: {
    when: 'The key was revoked. A revoked key is never reactivated.',
    fix: 'Use another key of the account, or create a new one.',
  },
  key_restricted: {
    when: 'The key is restricted in the dashboard, and this request is outside what it allows: it comes from a web page whose origin (the Origin header) is not in the key’s list of origins, or from a client address outside the key’s address ranges. The message says which. Not counted against the quota.',
    fix: 'Add the origin or the range to the key’s settings in the dashboard (changes apply within a second), or use a key meant for this client: a key used from web pages is public, so give it origins; a server’s key, address ranges.',
    exampleMessage: 'This API key may be used only from the web origins listed for it; Origin https://elsewhere.example is not one of them.',
  },
  city_not_found: {
    when: 'No place of the catalog matches city.',
    fix: 'Search with /api/v1/cities?q= and use the path it returns (turkey/istanbul/kadikoy), add the country (“Paris, FR”), or give lat and lon.',
  },
  not_found: {
    when: 'There is no such path: the API lives under /api/v1, and only the paths of its operations (the API reference lists them) answer there.',
    fix: 'Check the path against the API reference (or /api/v1/openapi.json).',
  },
  method_not_allowed: {
    when: 'A method other than GET or OPTIONS on an API path (HEAD included), or other than POST or OPTIONS on /mcp. The Allow header lists the methods the path takes.',
    fix: 'Use GET for the API, POST for MCP messages.',
    exampleMessage: 'POST is not allowed here; use GET.',
  },
  rate_limit_exceeded: {
    when: 'The account’s per-minute limit is used up. The minute is a fixed 60-second window per account, shared by all its keys and by MCP tool calls; a refused request is not counted.',
    fix: 'Wait the seconds Retry-After gives (RateLimit-Reset says the same), or move to a plan with a higher limit.',
  },
  quota_exceeded: {
    when: 'The account’s monthly quota is used up (the calendar month in UTC). When both limits are reached, this one is answered.',
    fix: 'Wait until X-Quota-Reset (the first instant of the next UTC month), or move to a larger plan.',
  },
  service_unavailable: {
    when: 'The service is starting or shutting down, the place catalog is not built yet (city= and /cities), or the precomputed timetables cannot be read.',
    fix: 'Try again in a few seconds; answers by lat and lon, /qibla and /hijri usually go on. If it lasts, tell the operator.',
  },
  internal_error: {
    when: 'Never expected: something failed on our side. The body is still JSON, and the message names the request id under which the error is logged.',
    fix: 'Try again; if it happens again, report the request id (also in the X-Request-Id header).',
  },
};

/**
 * The errors nginx in front answers itself (deploy/nginx.conf), in the API's error shape, with docs links to
 * /docs/errors#{code}: their status and message here are those of the conf (a test compares them). The service's
 * edge answers two of them itself, with messages of its own (server/edge/edge.ts).
 */
export const EDGE_ERRORS = {
  bad_request: {
    status: 400,
    message:
      'This is not a request we can read: a missing or repeated Host header, conflicting Content-Length or Transfer-Encoding headers, a malformed request line or header, a control character in a header, or headers over 8 KiB.',
    when: 'The request cannot be read as HTTP: no Host header or two, conflicting Content-Length or Transfer-Encoding headers, a malformed request line or header (a folded line, a space before the colon), a control character in a header value, or headers over 8 KiB in all. Answered by the reverse proxy, before the service sees the request; two Host headers the service also refuses itself.',
    fix: 'Send a well-formed HTTP/1.1 request with one Host header and short headers; an HTTP client library does this for you.',
    alsoByService: true,
  },
  not_implemented: {
    status: 501,
    message: 'The request has a Transfer-Encoding other than chunked: send the body with Content-Length, or with Transfer-Encoding: chunked alone.',
    when: 'The request has a Transfer-Encoding other than chunked alone (xchunked, gzip, identity, “gzip, chunked”): a transfer coding the service does not understand (RFC 9112). Answered by the reverse proxy, or by the service itself, which then closes the connection, since the body cannot be told from what follows.',
    fix: 'Send the body with a Content-Length header, or chunked alone; an HTTP client library does this for you.',
    alsoByService: true,
  },
  http_version_not_supported: {
    status: 505,
    message: 'The service speaks HTTP/1.1 and HTTP/1.0 on this connection.',
    when: 'The request line names HTTP/2 or a later version in plain text (`GET / HTTP/2.0`). Answered by the reverse proxy.',
    fix: 'Send HTTP/1.1; a client that speaks HTTP/2 negotiates it over TLS (ALPN) instead.',
  },
  uri_too_long: {
    status: 414,
    message: 'The request line may be at most 8 KiB.',
    when: 'The request line (method, path and query) is longer than 8 KiB. Answered by the reverse proxy.',
    fix: 'Shorten the query: no parameter of the API needs more than a few hundred characters.',
  },
  payload_too_large: {
    status: 413,
    message: 'A request body may be at most 1048576 bytes.',
    when: 'A request body is larger than 1 MiB (1,048,576 bytes); only MCP messages have bodies. Answered by the reverse proxy; the service itself answers a larger MCP message 413 with a JSON-RPC error (−32600) instead of this body.',
    fix: 'Send smaller messages: one tool call needs a few hundred bytes. Split a large batch.',
  },
} as const satisfies Record<string, ErrorExplanation & { status: number; message: string; alsoByService?: true }>;

export type EdgeErrorCode = keyof typeof EDGE_ERRORS;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers (Allow, Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** The message of a 404 for a path that is not the API's. */
export const notFoundMessage = (path: string, openApiPath: string): string =>
  `There is no ${path}; the API lives under /api/v1 (see ${openApiPath}).`;

/** The message of a 500: the request id finds the logged stack. */
export const internalErrorMessage = (requestId: string): string =>
  `Something went wrong on our side (request ${requestId}); it has been logged.`;

export interface ErrorLinks {
  publicBaseUrl: string;
}

const AUTH_CODES: ReadonlySet<ErrorCode> = new Set(['missing_api_key', 'invalid_api_key', 'api_key_revoked', 'key_restricted']);

export function errorObject(code: ErrorCode, message: string, links: ErrorLinks) {
  const base = links.publicBaseUrl;
  const docs = AUTH_CODES.has(code) ? authenticationDocsUrl(base) : errorDocsUrl(base, code);
  return { code, message, docs, pricing: pricingUrl(base) };
}

export function errorBody(code: ErrorCode, message: string, links: ErrorLinks): string {
  return JSON.stringify({ error: errorObject(code, message, links) });
}

/** The body of an error answered in front of the surfaces (by the edge; nginx's are the same shape). */
export function edgeErrorBody(code: EdgeErrorCode, message: string, links: ErrorLinks): string {
  const base = links.publicBaseUrl;
  return JSON.stringify({ error: { code, message, docs: errorDocsUrl(base, code), pricing: pricingUrl(base) } });
}
