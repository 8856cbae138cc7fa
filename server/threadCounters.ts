// What each serving thread counts for the metrics (docs/operations.md, "Metrics"), in its own cells of one shared
// buffer that the primary thread allocates and reads at a scrape: answered requests by operation and status class,
// their latency in histogram buckets, refusals by reason, and in fleet mode the limits' Redis calls and the change
// follower. No locks and nothing allocated on the request path: a thread only ever adds to its own cells, the
// primary only reads. A thread started again after a crash takes the same cells and counts on, so the totals never
// go backwards (Prometheus would take a drop for a counter reset).
//
// The table of operations (which number is which surface and operation) is the process's (process/requestKinds.ts):
// this module only holds room for MAX_OPERATIONS of them.

/** Room for operations (process/requestKinds.ts declares them). */
export const MAX_OPERATIONS = 32;
/** Status classes 1xx to 5xx. */
export const STATUS_CLASSES = 5;
/** A request's latency buckets, upper bounds in seconds (an answer from memory takes well under a millisecond). */
export const LATENCY_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** One counting call on Redis (fleet mode), upper bounds in seconds (REDIS_COMMAND_TIMEOUT_MS is 250 by default). */
export const REDIS_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** The refusals counted, by the contract's error code: 401, 401, 403, 429 (the minute), 429 (the month), 403 (a restricted key). */
export const REFUSAL_CODES = ['missing_api_key', 'invalid_api_key', 'api_key_revoked', 'rate_limit_exceeded', 'quota_exceeded', 'key_restricted'] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** A histogram's cells: one per bucket, one for answers above the last bucket, and the sum of the values. */
const histogramCells = (buckets: readonly number[]): number => buckets.length + 2;

export const OFFSETS = (() => {
  const requests = 0;
  const latency = requests + MAX_OPERATIONS * STATUS_CLASSES;
  const refusals = latency + MAX_OPERATIONS * histogramCells(LATENCY_BUCKETS);
  const redisLatency = refusals + REFUSAL_CODES.length;
  const redisFailures = redisLatency + histogramCells(REDIS_BUCKETS);
  /** 1 while this thread's limits count on Redis, 0 while they do not (fleet mode). */
  const onRedis = redisFailures + 1;
  /** When this thread's change follower last knew its mirror of accounts and keys current (ms since the epoch). */
  const followerCurrentAt = onRedis + 1;
  return { requests, latency, refusals, redisLatency, redisFailures, onRedis, followerCurrentAt, slot: followerCurrentAt + 1 };
})();

/** The cells of one thread (a thread's view of its slot, or the primary's view of one slot). */
export type ThreadCells = Float64Array<ArrayBufferLike>;

/** Cells a process that never attached a buffer counts in (the CLI, the primary's own stores): read by no one. */
let mine: ThreadCells = new Float64Array(OFFSETS.slot);

export const threadCountersBuffer = (threads: number): SharedArrayBuffer => new SharedArrayBuffer(threads * OFFSETS.slot * 8);

/** This thread's slot of a buffer (serve.ts, at the thread's start). */
export function attachThreadCounters(buffer: SharedArrayBuffer, thread: number): void {
  mine = new Float64Array(buffer, thread * OFFSETS.slot * 8, OFFSETS.slot);
}

/** Every thread's slot of a buffer, for the primary to read. */
export function threadSlots(buffer: SharedArrayBuffer): ThreadCells[] {
  const threads = buffer.byteLength / (OFFSETS.slot * 8);
  return Array.from({ length: threads }, (_, thread) => new Float64Array(buffer, thread * OFFSETS.slot * 8, OFFSETS.slot));
}

/** Adds a value to a histogram whose cells start at `at`. */
function observe(at: number, buckets: readonly number[], value: number): void {
  let i = 0;
  while (i < buckets.length && value > buckets[i]) i++;
  mine[at + i]++;
  mine[at + buckets.length + 1] += value;
}

/** An answered request: its operation (process/requestKinds.ts), status and how long it took in seconds. */
export function countRequest(operation: number, status: number, seconds: number): void {
  const statusClass = Math.min(Math.max((status / 100) | 0, 1), STATUS_CLASSES) - 1;
  mine[OFFSETS.requests + operation * STATUS_CLASSES + statusClass]++;
  observe(OFFSETS.latency + operation * histogramCells(LATENCY_BUCKETS), LATENCY_BUCKETS, seconds);
}

/** A key refused (REFUSAL_CODES' index). */
export function countRefusal(reason: number): void {
  mine[OFFSETS.refusals + reason]++;
}

/** A counting call that Redis answered, and how long it took in seconds. */
export function countRedisCall(seconds: number): void {
  observe(OFFSETS.redisLatency, REDIS_BUCKETS, seconds);
}

/** A counting call that failed or timed out. */
export function countRedisFailure(): void {
  mine[OFFSETS.redisFailures]++;
}

export function setCountingOnRedis(onRedis: boolean): void {
  mine[OFFSETS.onRedis] = onRedis ? 1 : 0;
}

/** The change follower's mirror is known current at `at` (ms since the epoch). */
export function followerCurrent(at: number): void {
  mine[OFFSETS.followerCurrentAt] = at;
}

/** A histogram read from a slot: cumulative counts by bucket (the last for +Inf), and the sum. */
export function readHistogram(cells: ThreadCells, at: number, buckets: readonly number[]): { cumulative: number[]; sum: number } {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i <= buckets.length; i++) cumulative.push((total += cells[at + i]));
  return { cumulative, sum: cells[at + buckets.length + 1] };
}

/** Where an operation's latency histogram starts in a slot. */
export const latencyAt = (operation: number): number => OFFSETS.latency + operation * histogramCells(LATENCY_BUCKETS);
