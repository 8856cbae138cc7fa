// Usage per key, operation and outcome per UTC day (issue 32): what a developer can act on (which key, which
// operation, how many failed and why). Counted in memory by each serving thread (access/keyUsageCounter.ts) and added
// to the store every few seconds, so the request path writes nothing; kept KEY_USAGE_KEPT_DAYS days. These are
// statistics beside the exact account counts that limits and quotas use (usageHistory.ts), not a second meter: a
// crash loses the last few seconds of them.
import type { Awaitable } from './awaitable.js';

/** Days kept: the dashboard shows 30; a day older than this many days before today is pruned. */
export const KEY_USAGE_KEPT_DAYS = 35;

/**
 * What became of a request of a valid key: `2xx`, `4xx` and `5xx` are counted against the quota; `429` (a limit
 * reached) and `restricted` (403 key_restricted) are not.
 */
export const KEY_OUTCOMES = ['2xx', '4xx', '5xx', '429', 'restricted'] as const;
export type KeyOutcome = (typeof KEY_OUTCOMES)[number];

/** Requests of one key, one operation and one outcome on one UTC day. */
export interface KeyUsageEntry {
  accountId: string;
  /** The key's SHA-256 (hex), as its record. */
  keyHash: string;
  /** UTC `YYYY-MM-DD`. */
  day: string;
  /** The API operation's operationId, or `mcp`. */
  operation: string;
  outcome: KeyOutcome;
  requests: number;
}

export interface KeyUsageHistory {
  /** Adds counts (summed with what is stored); resolves once committed. */
  addKeyUsage(entries: Iterable<KeyUsageEntry>): Promise<void>;
  /** The account's counts from `fromDay` to `toDay` (both included), in no particular order; no zero entries. */
  keyUsage(accountId: string, fromDay: string, toDay: string): Awaitable<KeyUsageEntry[]>;
  /** Deletes the counts of days before `beforeDay`; in fleet mode Redis expires them by itself. */
  pruneKeyUsage(beforeDay: string): Promise<void>;
}
