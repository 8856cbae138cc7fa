// The rate-limit and quota headers of an answer, read into numbers. The API sends all six on every answer to a valid
// key (a 429 adds Retry-After) and none before the key is checked (401, 403, an unknown path), so they are read
// together: all six or nothing.

/** The account's limits as one answer left them; the minute and the month are shared by all its keys. */
export interface Limits {
  /** The per-minute window: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset. */
  minute: {
    /** Requests per minute of the plan. */
    limit: number;
    /** Requests left in this window. */
    remaining: number;
    /** Whole seconds until the window resets. */
    resetSeconds: number;
  };
  /** The month's quota: X-Quota-Limit, X-Quota-Remaining, X-Quota-Reset. */
  month: {
    /** Requests per UTC month of the plan. */
    limit: number;
    /** Requests left this month. */
    remaining: number;
    /** When the quota resets, the first instant of the next UTC month, as the API sends it (2026-12-01T00:00:00Z). */
    resetAt: string;
  };
  /** On a 429, the whole seconds to wait before the next request (Retry-After); otherwise undefined. */
  retryAfterSeconds: number | undefined;
}

/** A header of whole decimal digits, as a number; undefined when absent or anything else. */
function count(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  return value !== null && /^\d{1,16}$/.test(value) ? Number(value) : undefined;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The limits an answer carries, or undefined when it carries no complete, well-formed set. */
export function limitsOf(headers: Headers): Limits | undefined {
  const minuteLimit = count(headers, 'RateLimit-Limit');
  const minuteRemaining = count(headers, 'RateLimit-Remaining');
  const minuteReset = count(headers, 'RateLimit-Reset');
  const monthLimit = count(headers, 'X-Quota-Limit');
  const monthRemaining = count(headers, 'X-Quota-Remaining');
  const monthReset = headers.get('X-Quota-Reset');
  if (
    minuteLimit === undefined ||
    minuteRemaining === undefined ||
    minuteReset === undefined ||
    monthLimit === undefined ||
    monthRemaining === undefined ||
    monthReset === null ||
    !INSTANT.test(monthReset)
  ) {
    return undefined;
  }
  return {
    minute: { limit: minuteLimit, remaining: minuteRemaining, resetSeconds: minuteReset },
    month: { limit: monthLimit, remaining: monthRemaining, resetAt: monthReset },
    retryAfterSeconds: count(headers, 'Retry-After'),
  };
}
