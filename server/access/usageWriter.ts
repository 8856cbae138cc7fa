// Writes the shared usage counts back to the account store: every second, and once more at a clean stop. Runs in
// the primary thread only, so there is one writer however many threads serve.
//
// Daily usage comes from the same writes: each account's monthly count grew by some requests since the last write
// of it, and that growth is added to the UTC day of this write (to the month's last day when the record is of a
// month that has ended), in the same transaction as the counts themselves. So after any restart the stored
// monthly counts, which are the baseline of the next growth, and the daily counts agree: a clean stop loses
// nothing, a crash loses the last second of both. See docs/keys-and-usage.md.
import type { AccountStore } from '../accounts/accountStore.js';
import { DailyUsagePruner } from './dailyUsagePruner.js';
import { log } from '../log.js';
import type { SharedUsage } from './sharedUsage.js';
import type { Usage } from './quota.js';

const FLUSH_MS = 1000;

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The last day of a `YYYY-MM` month. */
const lastDayOf = (month: string): string => utcDay(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0));

/**
 * How many requests a record counts beyond the one last written: its growth within a month, or, when the month
 * moved on, the new month's whole count (the months before were written already, up to the last second).
 */
export function growth(before: Pick<Usage, 'month' | 'monthCount'> | undefined, after: Usage): number {
  if (after.month === '') return 0;
  if (!before || before.month !== after.month) return before && before.month > after.month ? 0 : after.monthCount;
  return Math.max(0, after.monthCount - before.monthCount);
}

export class UsageWriter {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Each account's month and count as last written (the stored ones at start). */
  private readonly written = new Map<string, { month: string; monthCount: number }>();
  /** The day the daily counts were last pruned on. */
  private readonly pruner: DailyUsagePruner;
  /** When the counts were last known written (a write committed, or nothing to write): the metrics' lag. */
  lastWrittenAt: number;
  /** Writes that failed (each retried by the next). */
  failures = 0;

  constructor(
    private readonly store: AccountStore,
    private readonly usage: SharedUsage,
    /** The stored counts the table was loaded with (read from the store when not given). */
    stored: ReadonlyMap<string, Usage> = store.allUsage(),
    private readonly now: () => number = Date.now,
  ) {
    for (const [id, { month, monthCount }] of stored) this.written.set(id, { month, monthCount });
    this.pruner = new DailyUsagePruner(store);
    this.lastWrittenAt = now();
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes the changed records and the days' growth; resolves when they are committed. Flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const now = this.now();
      const today = utcDay(now);
      await this.prune(today);
      const changed = this.usage.takeChanged();
      if (changed.length === 0) {
        this.lastWrittenAt = now;
        return;
      }
      const daily: Array<[string, string, number]> = [];
      for (const [id, after] of changed) {
        const requests = growth(this.written.get(id), after);
        if (requests > 0) daily.push([id, after.month === today.slice(0, 7) ? today : lastDayOf(after.month), requests]);
      }
      try {
        await this.store.writeUsage(changed, daily);
        for (const [id, { month, monthCount }] of changed) this.written.set(id, { month, monthCount });
        this.lastWrittenAt = now;
      } catch (error) {
        // Nothing of the write happened: the next flush writes these records again, with the growth since the
        // last write that did happen.
        this.usage.markChanged(changed.map(([id]) => id));
        this.failures++;
        log('error', 'usage_flush_failed', { error: String(error) });
      }
    });
    return this.flushing;
  }

  /** Once a day: deletes the daily counts older than DAILY_USAGE_KEPT_DAYS days. */
  private prune(today: string): Promise<void> {
    return this.pruner.prune(today);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
