// Keeps a running server on the live precomputed store: checks `current` every second and, when a precompute run
// has switched it, opens the new store and swaps it in between two requests (requests are answered synchronously,
// so none sees half a switch). The old store is closed a little later.
import { currentBuild, TimetableReader } from '../pipeline/timetableStore.js';
import { log } from './log.js';

const CHECK_MS = 1000;
const CLOSE_OLD_AFTER_MS = 5000;

export interface StoreHolder {
  store: TimetableReader | undefined;
  catalog: { builtAt: string } | undefined;
}

export class StoreFollower {
  private timer: NodeJS.Timeout | undefined;
  private openedBuild: string | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly holder: StoreHolder,
  ) {}

  /** Opens the live build if it is not the one in use; a store for another catalog is not used. */
  check(): void {
    const build = currentBuild(this.dataDir);
    if (build === this.openedBuild) return;
    this.openedBuild = build;
    let next: TimetableReader | undefined;
    try {
      next = build ? TimetableReader.openCurrent(this.dataDir) : undefined;
    } catch (error) {
      log('error', 'store_unreadable', { build, error: String(error) });
    }
    if (next && next.meta.catalogBuiltAt !== this.holder.catalog?.builtAt) {
      log('warn', 'store_for_another_catalog', { build, storeCatalog: next.meta.catalogBuiltAt, catalog: this.holder.catalog?.builtAt ?? null, hint: 'run make precompute' });
      void next.close();
      next = undefined;
    }
    const old = this.holder.store;
    this.holder.store = next;
    if (next) log('warn', 'store_live', { build: next.name, builtAt: next.meta.builtAt, years: next.meta.years, placeYears: next.meta.placeYears });
    if (old) setTimeout(() => void old.close(), CLOSE_OLD_AFTER_MS).unref();
  }

  start(): void {
    this.check();
    this.timer = setInterval(() => this.check(), CHECK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.holder.store?.close();
  }
}
