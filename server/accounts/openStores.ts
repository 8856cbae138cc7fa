// The accounts layer's stores for a configuration: embedded LMDB in DATA_DIR/accounts, or, with REDIS_URL (fleet
// mode), Redis, shared by every server. The serving threads, the primary thread and the CLI open them here and
// nowhere else, so each runs against the same stores with the same settings. The interfaces (accountStore.ts,
// identityStore.ts, passkeyStore.ts, billingStore.ts) import no implementation: building one is this module's job.
import type { Redis } from 'ioredis';
import type { AccountStore } from './accountStore.js';
import type { BillingStore } from './billingStore.js';
import type { IdentityStore } from './identityStore.js';
import { LmdbAccountStore } from './lmdbAccountStore.js';
import { LmdbBillingStore } from './lmdbBillingStore.js';
import { LmdbIdentityStore } from './lmdbIdentityStore.js';
import { LmdbPasskeyStore } from './lmdbPasskeyStore.js';
import type { PasskeyStore } from './passkeyStore.js';
import { RedisAccountStore } from './redisAccountStore.js';
import { RedisBillingStore } from './redisBillingStore.js';
import { openRedis, redisReady } from './redisConnection.js';
import { RedisIdentityStore } from './redisIdentityStore.js';
import { RedisPasskeyStore } from './redisPasskeyStore.js';

export interface StoreSettings {
  dataDir: string;
  /** Config.fleet's (REDIS_URL and its command timeout); without a URL, the embedded stores. */
  fleet?: { redisUrl: string | undefined; redisCommandTimeoutMs: number };
}

export interface AccountsStores {
  accounts: AccountStore;
  identity: IdentityStore;
  passkeys: PasskeyStore;
  billing: BillingStore;
  /** `lmdb` or `redis`: where these stores keep their data. */
  kind: 'lmdb' | 'redis';
  /** Closes every store and what was opened for them. */
  close(): Promise<void>;
}

/** How long opening waits for Redis before it gives up (start-up and the CLI fail with a message then). */
export const REDIS_OPEN_TIMEOUT_MS = 5000;

export class StoresUnavailableError extends Error {}

/** Opens the stores of a configuration; `role` names the Redis connections (`prayer-times:<role>:…` in CLIENT LIST). */
export async function openStores(settings: StoreSettings, role: string): Promise<AccountsStores> {
  const url = settings.fleet?.redisUrl;
  if (!url) return openEmbedded(settings.dataDir);
  const commandTimeoutMs = settings.fleet!.redisCommandTimeoutMs;
  const connection = (name: string, timeoutMs = commandTimeoutMs): Redis => {
    const redis = openRedis({ url, commandTimeoutMs: timeoutMs, role: `${role}:${name}` });
    // Connection errors reach the callers as failed commands (and the follower's log line); ioredis would print each
    // reconnection attempt's error to the console without a listener.
    redis.on('error', () => undefined);
    return redis;
  };
  const opened: Redis[] = [];
  try {
    const commands = connection('accounts');
    opened.push(commands);
    // The follower's XREAD BLOCK waits up to 2 s by design; its commands get that long and more.
    const follower = connection('accounts-follower', commandTimeoutMs + 5000);
    opened.push(follower);
    const transactions = connection('billing');
    opened.push(transactions);
    await Promise.all(opened.map((redis) => redisReady(redis, REDIS_OPEN_TIMEOUT_MS)));
    const accounts = await RedisAccountStore.open(commands, follower);
    const billing = new RedisBillingStore(commands, transactions);
    return {
      accounts,
      identity: new RedisIdentityStore(commands),
      passkeys: new RedisPasskeyStore(commands),
      billing,
      kind: 'redis',
      async close() {
        await accounts.close();
        await billing.close();
        await commands.quit().catch(() => commands.disconnect());
      },
    };
  } catch (error) {
    for (const redis of opened) redis.disconnect();
    throw new StoresUnavailableError(`cannot use Redis at ${redactedUrl(url)}: ${(error as Error).message}`);
  }
}

/** The account store of a data directory (the embedded default; its methods answer at once). */
export function openAccountStore(dataDir: string): LmdbAccountStore {
  return LmdbAccountStore.open(dataDir);
}

/** The identity store of a data directory (the embedded default), on the accounts environment. */
export function openIdentityStore(dataDir: string): LmdbIdentityStore {
  return LmdbIdentityStore.open(dataDir);
}

/** The passkey store of a data directory (the embedded default), on the accounts environment. */
export function openPasskeyStore(dataDir: string): LmdbPasskeyStore {
  return LmdbPasskeyStore.open(dataDir);
}

function openEmbedded(dataDir: string): AccountsStores {
  // Each opens its own reference to the one LMDB environment of the data directory (accountsEnvironment.ts).
  const accounts = openAccountStore(dataDir);
  const identity = openIdentityStore(dataDir);
  const passkeys = openPasskeyStore(dataDir);
  const billing = LmdbBillingStore.open(dataDir);
  return {
    accounts,
    identity,
    passkeys,
    billing,
    kind: 'lmdb',
    async close() {
      await billing.close();
      await passkeys.close();
      await identity.close();
      await accounts.close();
    },
  };
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
