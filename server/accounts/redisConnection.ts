// The one way this project opens a Redis connection (fleet mode, contract "Fleet mode"): no offline queue and no
// retries of a command, so a command either reaches Redis now or fails at once; every command bounded by
// REDIS_COMMAND_TIMEOUT_MS, so no request waits longer on Redis; reconnection in the background, quickly at first.
import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  url: string;
  commandTimeoutMs: number;
  /** A name shown by CLIENT LIST (`prayer-times:<role>`). */
  role: string;
}

/** Reconnects after 50 ms, doubling to at most 1 s: a returning Redis is used again within about a second. */
const reconnectDelay = (attempt: number): number => Math.min(1000, 50 * 2 ** Math.min(attempt, 5));

export function openRedis({ url, commandTimeoutMs, role }: RedisConnectionOptions): Redis {
  return new Redis(url, {
    connectionName: `prayer-times:${role}`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(1000, commandTimeoutMs),
    retryStrategy: reconnectDelay,
    // Scripts are loaded by EVALSHA with a fallback (defineCommand); nothing is queued while disconnected.
    enableReadyCheck: true,
    lazyConnect: false,
  });
}

/** Resolves when the connection is ready, or rejects after `timeoutMs` (start-up, the CLI). */
export function redisReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/**
 * Whether an error means Redis could not be reached in time (no connection, a closed one, or a command past
 * REDIS_COMMAND_TIMEOUT_MS): the caller answers 503 service_unavailable, never a 500. Errors Redis itself returned
 * (a script's error, a wrong type) are faults of ours and are not matched.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return /^(Command timed out|Connection is closed\.?|Stream isn't writeable and enableOfflineQueue options is false|Socket timeout)/.test(error.message) || /\bECONNREFUSED\b|\bETIMEDOUT\b|\bECONNRESET\b/.test(error.message);
}
