// Which usage ledger this server counts with, chosen in one place: without REDIS_URL the shared-memory table
// (sharedUsage.ts), loaded from and written back to the account store by the primary; with it Redis
// (redisUsageLedger.ts), one connection per serving thread, and the table only counts while Redis is away
// (LIMITS_ON_REDIS_FAILURE=local), its units merged into Redis and never written to the account store.
import type { AccountStore } from '../accounts/accountStore.js';
import { openRedis } from '../accounts/redisConnection.js';
import { DailyUsagePruner } from './dailyUsagePruner.js';
import { log } from '../log.js';
import { RedisUsageLedger, type OnRedisFailure } from './redisUsageLedger.js';
import { SharedUsage } from './sharedUsage.js';
import type { UsageLedger } from './usageLedger.js';
import { UsageWriter } from './usageWriter.js';

/** Fleet settings as process/config.ts reads them (REDIS_URL, LIMITS_ON_REDIS_FAILURE, REDIS_COMMAND_TIMEOUT_MS). */
export interface UsageLedgerSettings {
  redisUrl: string | undefined;
  limitsOnRedisFailure: OnRedisFailure;
  redisCommandTimeoutMs: number;
}

/** How long a serving thread waits at start for Redis before it serves, counting as LIMITS_ON_REDIS_FAILURE says. */
const START_WAIT_MS = 2000;

/** The primary's part: the table every serving thread attaches, and (embedded only) the writer that persists it. */
export function shareUsageTable(
  settings: UsageLedgerSettings,
  store: AccountStore,
  headroom: number,
): { table: SharedUsage; writer: UsageWriter | undefined; pruner: DailyUsagePruner | undefined } {
  const table = SharedUsage.create(store.allAccounts().size + headroom);
  if (settings.redisUrl !== undefined) {
    // No writer in fleet mode (Redis counts), but the daily counts in Redis are kept to the same number of days.
    const pruner = new DailyUsagePruner(store);
    pruner.start();
    return { table, writer: undefined, pruner };
  }
  const stored = store.allUsage();
  table.load(stored);
  const writer = new UsageWriter(store, table, stored);
  writer.start();
  return { table, writer, pruner: undefined };
}

export interface OpenedUsageLedger {
  ledger: UsageLedger;
  /** Closes what the ledger opened (in fleet mode: merges what it can, closes the connection). */
  close(): Promise<void>;
}

/** A serving thread's part: its ledger over the shared table. `name` names it in logs and in Redis's CLIENT LIST. */
export async function openUsageLedger(settings: UsageLedgerSettings, table: SharedUsage, name: string): Promise<OpenedUsageLedger> {
  if (settings.redisUrl === undefined) return { ledger: table, close: () => Promise.resolve() };
  const redis = openRedis({ url: settings.redisUrl, commandTimeoutMs: settings.redisCommandTimeoutMs, role: `limits:${name}` });
  const ledger = new RedisUsageLedger({ redis, local: table, onFailure: settings.limitsOnRedisFailure, name });
  if (!(await ledger.ready(START_WAIT_MS))) {
    log('warn', 'limits_redis_unavailable', { ledger: name, onFailure: settings.limitsOnRedisFailure, error: `no answer from Redis in ${START_WAIT_MS} ms at start` });
  }
  return { ledger, close: () => ledger.close() };
}
