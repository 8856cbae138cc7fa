// Keeps a running server on the live precomputed store: checks `current` every second and, when a precompute run
// has switched it, opens the new store and swaps it in between two requests (requests are answered synchronously,
// so none sees half a switch). The old store is closed a little later.
//
// A store that should be there and cannot be read (`current` names a build that is gone or is not a store, a
// read fails, or the store this server used disappears) is a fault, not a reason to guess: answers that would come
// from it are 503 service_unavailable, with one `store_unreadable` log line, until a good build is live again (the
// next check that finds one recovers). A data directory that has never had a store is not a fault: everything is
// computed live. A store made from another catalog (its place ids may differ) or with other time-zone rules (its
// days were cut on other clocks: after a tzdata bump, Morocco's stored days would be an hour off) is set aside, and
// answers are computed live, correct but slower, until `make precompute` builds a store that matches.
import { liveBuild, STORE_FORMAT, TimetableReader, type StoreMeta } from '../../pipeline/store/timetableStore.js';
import { METHODS_FINGERPRINT } from '../../pipeline/astronomy/methods.js';
import { TZDATA_VERSION } from '../../pipeline/zones/zoneRules.js';
import { log } from '../log.js';

const CHECK_MS = 1000;
const CLOSE_OLD_AFTER_MS = 5000;

export interface StoreHolder {
  store: TimetableReader | undefined;
  /** Why the store cannot be read, while it cannot. */
  storeProblem: string | undefined;
  /** Why the live build is not used, while it is set aside (answers are computed live meanwhile). */
  storeSetAside: string | undefined;
  catalog: { builtAt: string } | undefined;
}

/** Why a readable store does not fit this server, if it does not. */
export function misfit(meta: StoreMeta, catalogBuiltAt: string | undefined): string | undefined {
  if (meta.catalogBuiltAt !== catalogBuiltAt) return `built from the catalog of ${meta.catalogBuiltAt}; this server has the catalog of ${catalogBuiltAt ?? 'none'}`;
  if (meta.tzdata !== TZDATA_VERSION) return `built with time-zone rules ${meta.tzdata ?? 'older than tzdata 2026d'}; this server has ${TZDATA_VERSION}`;
  if (meta.methodsFingerprint !== METHODS_FINGERPRINT) {
    return `built with other calculation rules (methods ${meta.methodsFingerprint ?? 'from before they were recorded'}); this server has ${METHODS_FINGERPRINT}`;
  }
  if ((meta.storeFormat ?? 1) !== STORE_FORMAT) return `written in store format ${meta.storeFormat ?? 1}; this server reads format ${STORE_FORMAT}`;
  return undefined;
}

export class StoreFollower {
  private timer: NodeJS.Timeout | undefined;
  /** The build in use, or the one found unusable (not retried until `current` changes or it reappears). */
  private checkedBuild: string | undefined;
  /** True once this server has used a store: from then on its absence is a fault. */
  private hadStore = false;

  constructor(
    private readonly dataDir: string,
    private readonly holder: StoreHolder,
    /** The serving thread, named in the log lines: each thread follows the store on its own. */
    private readonly thread = 0,
  ) {}

  check(): void {
    const live = liveBuild(this.dataDir);
    if ('absent' in live) {
      if (this.hadStore) this.fail(undefined, 'the store\'s "current" file is gone');
      return;
    }
    if ('problem' in live) {
      this.fail(undefined, live.problem);
      return;
    }
    if (live.name === this.checkedBuild) return;
    this.checkedBuild = live.name;
    let next: TimetableReader;
    try {
      next = TimetableReader.open(this.dataDir, live.name);
    } catch (error) {
      this.fail(live.name, String(error));
      return;
    }
    const setAside = misfit(next.meta, this.holder.catalog?.builtAt);
    if (setAside) {
      log('warn', 'store_set_aside', { thread: this.thread, build: live.name, reason: setAside, effect: 'answers are computed live', hint: 'run make precompute' });
      void next.close();
      this.use(undefined, undefined, setAside);
      return;
    }
    this.hadStore = true;
    const recovered = this.holder.storeProblem !== undefined;
    this.use(next, undefined);
    log('warn', recovered ? 'store_recovered' : 'store_live', { thread: this.thread, build: next.name, builtAt: next.meta.builtAt, years: next.meta.years, placeYears: next.meta.placeYears });
  }

  /** A read from the live store failed: it is given up until a good build is live again. */
  readFailed(error: unknown): void {
    this.fail(this.holder.store?.name, `a read failed: ${String(error)}`);
  }

  private fail(build: string | undefined, problem: string): void {
    this.checkedBuild = build;
    this.hadStore = true;
    if (this.holder.storeProblem === problem) return; // said once already
    log('error', 'store_unreadable', { thread: this.thread, build: build ?? null, problem, effect: 'answers from the store are 503 until a good build is live', hint: 'run make precompute' });
    this.use(undefined, problem);
  }

  private use(store: TimetableReader | undefined, problem: string | undefined, setAside?: string): void {
    const old = this.holder.store;
    this.holder.store = store;
    this.holder.storeProblem = problem;
    this.holder.storeSetAside = setAside;
    if (old && old !== store) setTimeout(() => void old.close(), CLOSE_OLD_AFTER_MS).unref();
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
