// How the API's replies look on the wire: the constant headers of JSON answers, CORS, the rate-limit headers, and
// the contract's error body. The API and MCP surfaces both answer with these.
import type { HeaderBlock, Reply } from '../edge/edge.js';
import { clipped, headerBlock } from '../edge/edge.js';
import { ApiError, errorBody, internalErrorMessage, type ErrorCode, type ErrorLinks } from '../errors.js';
import { log } from '../log.js';
import type { QuotaDecision } from '../access/quota.js';
import { asApiError } from './apiError.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'Retry-After',
  'X-Request-Id',
].join(', ');

/** Headers on every JSON answer: constant, so built once and written in one call. */
export const JSON_HEADERS: HeaderBlock = headerBlock([
  ['Content-Type', JSON_TYPE],
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
]);
/** The same without a content type, for answers that name their own (or have no body). */
export const CORS_HEADERS: HeaderBlock = headerBlock([
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
]);

/** The rate-limit and quota headers, one block from numbers and texts of ours. */
export function quotaBlock(q: QuotaDecision): HeaderBlock {
  return [
    'RateLimit-Limit',
    `${q.plan.perMinuteText}\r\nRateLimit-Remaining: ${q.minuteRemaining}\r\nRateLimit-Reset: ${q.minuteReset}` +
      `${q.plan.monthLinesText}${q.monthRemaining}${q.monthResetLine}`,
  ];
}

export function jsonReply(status: number, body: string | Buffer, quota?: QuotaDecision): Reply {
  return { status, body, headerBlock: JSON_HEADERS, ...(quota ? { extraBlock: quotaBlock(quota) } : {}) };
}

export function errorReply(links: ErrorLinks, code: ErrorCode, message: string, headers?: Record<string, string>): Reply {
  const status = new ApiError(code, message).status;
  return { status, body: errorBody(code, message, links), headerBlock: JSON_HEADERS, headers, code };
}

/** Renders any error as the contract's body; an unexpected one is logged with the request id. */
export function failureReply(links: ErrorLinks, error: unknown, requestId: string, method: string, url: string): Reply {
  const known = asApiError(error);
  if (known) return errorReply(links, known.code, known.message, { ...known.headers });
  log('error', 'internal_error', { requestId, method, path: clipped(url), error: String((error as Error)?.stack ?? error) });
  return errorReply(links, 'internal_error', internalErrorMessage(requestId));
}
