// One serving thread's counts of usage per key, operation and outcome (accounts/keyUsage.ts), kept in memory for
// the current UTC day and added to the store off the request path (with the days of last use, every few seconds, and
// at a clean stop). On the request path: one Map lookup by the key's hash and one increment in a typed array; an
// array per key is made the first time the key is seen on a day.
import type { KeyRecord } from '../accounts/accountStore.js';
import { KEY_OUTCOMES, type KeyOutcome, type KeyUsageEntry, type KeyUsageHistory } from '../accounts/keyUsage.js';

const OUTCOMES = KEY_OUTCOMES.length;
export const OUTCOME = Object.fromEntries(KEY_OUTCOMES.map((name, i) => [name, i])) as Readonly<Record<KeyOutcome, number>>;

/** The outcome of an answer by its status (a key_restricted refusal is noted as such where it is raised). */
export const outcomeOfStatus = (status: number): number =>
  status < 300 ? OUTCOME['2xx'] : status === 429 ? OUTCOME['429'] : status >= 500 ? OUTCOME['5xx'] : OUTCOME['4xx'];

interface KeyCounts {
  accountId: string;
  /** operation × outcome. */
  cells: Float64Array;
}

export class KeyUsageCounter {
  private day = '';
  private counts = new Map<string, KeyCounts>();
  /** Entries of days (or flushes) that ended and are not written yet. */
  private pending: KeyUsageEntry[] = [];

  /** `operations`: the names of the operations by the index the surfaces pass (the API's operationIds, `mcp`). */
  constructor(private readonly operations: readonly string[]) {}

  /** Notes `requests` requests of `record` on `day` (UTC `YYYY-MM-DD`) for operation number `operation`. */
  note(record: KeyRecord, day: string, operation: number, outcome: number, requests = 1): void {
    if (operation < 0 || operation >= this.operations.length) return;
    if (day !== this.day) this.startDay(day);
    let counts = this.counts.get(record.hash);
    if (counts === undefined) {
      counts = { accountId: record.accountId, cells: new Float64Array(this.operations.length * OUTCOMES) };
      this.counts.set(record.hash, counts);
    }
    counts.cells[operation * OUTCOMES + outcome] += requests;
  }

  private startDay(day: string): void {
    this.pending.push(...this.entries());
    this.counts = new Map();
    this.day = day;
  }

  private entries(): KeyUsageEntry[] {
    const out: KeyUsageEntry[] = [];
    for (const [keyHash, { accountId, cells }] of this.counts) {
      for (let i = 0; i < cells.length; i++) {
        if (cells[i] > 0) out.push({ accountId, keyHash, day: this.day, operation: this.operations[Math.floor(i / OUTCOMES)], outcome: KEY_OUTCOMES[i % OUTCOMES], requests: cells[i] });
      }
    }
    return out;
  }

  /** Everything noted since the last take, as entries; the counts start again from zero. */
  take(): KeyUsageEntry[] {
    const taken = [...this.pending, ...this.entries()];
    this.pending = [];
    this.counts = new Map();
    return taken;
  }

  /** Entries whose write failed: written with the next batch. */
  putBack(entries: readonly KeyUsageEntry[]): void {
    this.pending.push(...entries);
  }

  /** Writes what was noted (one call to the store); on failure keeps it for the next write and rethrows. */
  async writeTo(store: Pick<KeyUsageHistory, 'addKeyUsage'>): Promise<void> {
    const batch = this.take();
    if (batch.length === 0) return;
    try {
      await store.addKeyUsage(batch);
    } catch (error) {
      this.putBack(batch);
      throw error;
    }
  }
}
