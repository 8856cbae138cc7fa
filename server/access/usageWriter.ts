// Writes the shared usage counts back to the account store: every second, and once more at a clean stop. Runs in
// the primary thread only, so there is one writer however many threads serve.
import type { AccountStore } from '../accounts/accountStore.js';
import { log } from '../log.js';
import type { SharedUsage } from './sharedUsage.js';

const FLUSH_MS = 1000;

export class UsageWriter {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: AccountStore,
    private readonly usage: SharedUsage,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes the changed records; resolves when they are committed. Flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const changed = this.usage.takeChanged();
      if (changed.length === 0) return;
      try {
        await this.store.writeUsage(changed);
      } catch (error) {
        this.usage.markChanged(changed.map(([id]) => id));
        log('error', 'usage_flush_failed', { error: String(error) });
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
