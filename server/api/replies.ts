// How the API's replies look on the wire: the constant headers of JSON answers, CORS, the rate-limit headers, and
// the contract's error body. The API and MCP surfaces both answer with these. A JSON body goes out compressed when
// Accept-Encoding asks (web/compression.ts): a kept answer's forms are made once and kept with it, another's are
// made for its request when it is large enough; the error bodies (a few hundred bytes) stay plain.
import type { HeaderBlock, Reply } from '../edge/edge.js';
import { clipped, headerBlock } from '../edge/edge.js';
import { ApiError, errorBody, internalErrorMessage, type ErrorCode, type ErrorLinks } from '../errors.js';
import { log } from '../log.js';
import type { QuotaDecision } from '../access/quota.js';
import { asApiError } from './apiError.js';
import { chosenCoding, compress, MIN_COMPRESSED_ONCE_BYTES, VARY_ACCEPT_ENCODING, type CompressedForms, type ContentCoding } from '../web/compression.js';

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

const JSON_LINES: ReadonlyArray<readonly [string, string]> = [
  ['Content-Type', JSON_TYPE],
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
];
/** Headers on every JSON answer: constant, so built once and written in one call. */
export const JSON_HEADERS: HeaderBlock = headerBlock(JSON_LINES);
/** The same for a body that goes out compressed to those who ask: plain here, and in each coding. */
const JSON_VARYING: HeaderBlock = headerBlock([...JSON_LINES, ['Vary', VARY_ACCEPT_ENCODING]]);
const JSON_ENCODED: Readonly<Record<ContentCoding, HeaderBlock>> = {
  br: headerBlock([...JSON_LINES, ['Vary', VARY_ACCEPT_ENCODING], ['Content-Encoding', 'br']]),
  gzip: headerBlock([...JSON_LINES, ['Vary', VARY_ACCEPT_ENCODING], ['Content-Encoding', 'gzip']]),
};
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

/** A body rendered already with its compressed forms (a kept answer: RenderedBody). */
export interface KeptJson {
  bytes: Buffer;
  forms: CompressedForms | undefined;
}

/**
 * A JSON answer, in the form the request's Accept-Encoding takes: a kept body's forms (1 KB or more) are made once
 * (KeptJson); a body made for this request alone is compressed for it from 4 KB (MIN_COMPRESSED_ONCE_BYTES). Smaller
 * ones stay plain, and say nothing of it.
 */
export function jsonReply(status: number, body: string | Buffer | KeptJson, quota?: QuotaDecision, acceptEncoding = ''): Reply {
  const extra = quota ? { extraBlock: quotaBlock(quota) } : {};
  let plain: string | Buffer;
  if (typeof body === 'object' && !Buffer.isBuffer(body)) {
    const forms = body.forms;
    if (forms) {
      const coding = chosenCoding(acceptEncoding);
      const form = coding && forms.form(coding);
      if (form) return { status, body: form, headerBlock: JSON_ENCODED[coding], ...extra };
      return { status, body: body.bytes, headerBlock: JSON_VARYING, ...extra };
    }
    plain = body.bytes;
  } else plain = body;
  if ((typeof plain === 'string' ? Buffer.byteLength(plain) : plain.length) < MIN_COMPRESSED_ONCE_BYTES) return { status, body: plain, headerBlock: JSON_HEADERS, ...extra };
  // Made for this request alone, and large enough: compressed for it.
  const coding = chosenCoding(acceptEncoding);
  if (coding) {
    const bytes = typeof plain === 'string' ? Buffer.from(plain) : plain;
    const form = compress(bytes, coding, 'answer');
    if (form.length < bytes.length) return { status, body: form, headerBlock: JSON_ENCODED[coding], ...extra };
  }
  return { status, body: plain, headerBlock: JSON_VARYING, ...extra };
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
