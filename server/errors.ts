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
  city_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  rate_limit_exceeded: 429,
  quota_exceeded: 429,
  service_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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

const AUTH_CODES: ReadonlySet<ErrorCode> = new Set(['missing_api_key', 'invalid_api_key', 'api_key_revoked']);

export function errorObject(code: ErrorCode, message: string, links: ErrorLinks) {
  const base = links.publicBaseUrl;
  const docs = AUTH_CODES.has(code) ? authenticationDocsUrl(base) : errorDocsUrl(base, code);
  return { code, message, docs, pricing: pricingUrl(base) };
}

export function errorBody(code: ErrorCode, message: string, links: ErrorLinks): string {
  return JSON.stringify({ error: errorObject(code, message, links) });
}
