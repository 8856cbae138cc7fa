// Keeps DAILY_USAGE_KEPT_DAYS days of daily counts, and KEY_USAGE_KEPT_DAYS of the counts per key (issue 32): once a
// UTC day, the older ones are deleted. The embedded usage
// writer calls it after its flushes; in fleet mode (no writer: Redis counts) the primary runs it on a timer. Several
// servers pruning the same Redis delete the same old days: harmless.
import { addDays, DAILY_USAGE_KEPT_DAYS, type UsageHistory } from '../accounts/usageHistory.js';
import { KEY_USAGE_KEPT_DAYS, type KeyUsageHistory } from '../accounts/keyUsage.js';
import { log } from '../log.js';

const CHECK_MS = 3_600_000;

export class DailyUsagePruner {
  private prunedOn = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly history: Pick<UsageHistory, 'pruneDailyUsage'> & Partial<Pick<KeyUsageHistory, 'pruneKeyUsage'>>) {}

  /** Deletes the days older than the kept ones, at most once per UTC day (`today`, `YYYY-MM-DD`). */
  async prune(today: string): Promise<void> {
    if (this.prunedOn === today) return;
    try {
      await this.history.pruneDailyUsage(addDays(today, -DAILY_USAGE_KEPT_DAYS));
      await this.history.pruneKeyUsage?.(addDays(today, -KEY_USAGE_KEPT_DAYS));
      this.prunedOn = today;
    } catch (error) {
      log('error', 'daily_usage_prune_failed', { error: String(error) });
    }
  }

  /** Prunes now and then every hour (it does the work once a day), off the request path. */
  start(): void {
    const run = (): void => void this.prune(new Date().toISOString().slice(0, 10));
    run();
    this.timer = setInterval(run, CHECK_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
