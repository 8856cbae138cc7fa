// The accounts layer's stores for a test suite that runs over both implementations (`describe.each(STORE_KINDS)`):
// embedded LMDB in a fresh data directory, or Redis on a real redis-server of the suite's own (testing/redisServer.ts),
// emptied before each test. Opens through openStores, as the server and the CLI do; closes what a test opened.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { accountsPath } from '../server/accounts/accountsEnvironment.js';
import { openStores, type AccountsStores } from '../server/accounts/openStores.js';
import { redisKeyPatterns } from '../server/accounts/redisKeys.js';
import { startRedis, type RunningRedis } from './redisServer.js';

export const STORE_KINDS = ['lmdb', 'redis'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export interface StoreFixture {
  kind: StoreKind;
  /** This test's data directory (LMDB's; unused by Redis). */
  readonly dataDir: string;
  /** The suite's redis-server (Redis only). */
  readonly server: RunningRedis | undefined;
  /** A plain client of the suite's Redis, for checks and for making faults (Redis only). */
  readonly client: Redis;
  /** Opens the stores (again, for a second server or a reopen); closed after the test. Redis connections are named
   * `prayer-times:test-<n>:<store>` (n counts the instances this test opened, from 1). */
  open(): Promise<AccountsStores>;
  /** Every byte the stores hold, as text: the LMDB files, or every key and value in Redis. */
  storedText(): Promise<string>;
}

/** Registers the suite's hooks and returns its fixture (call it in a describe block). */
export function storeFixture(kind: StoreKind): StoreFixture {
  let server: RunningRedis | undefined;
  let client: Redis | undefined;
  let dataDir = '';
  let instances = 0;
  const opened: AccountsStores[] = [];

  beforeAll(async () => {
    if (kind !== 'redis') return;
    server = await startRedis();
    client = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    client.on('error', () => undefined);
  });
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), `stores-${kind}-`));
    instances = 0;
    await client?.flushall();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((stores) => stores.close()));
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });

  return {
    kind,
    get dataDir() {
      return dataDir;
    },
    get server() {
      return server;
    },
    get client() {
      if (!client) throw new Error('the LMDB fixture has no Redis client');
      return client;
    },
    async open() {
      // Each instance its own connection names (CLIENT LIST), so a test can kill one instance's connection.
      const stores = await openStores({ dataDir, fleet: server ? { redisUrl: server.url, redisCommandTimeoutMs: 1000 } : undefined }, `test-${++instances}`);
      opened.push(stores);
      return stores;
    },
    async storedText() {
      if (!client) {
        const dir = accountsPath(dataDir);
        return readdirSync(dir).map((f) => readFileSync(path.join(dir, f)).toString('latin1')).join('');
      }
      const parts: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', redisKeyPatterns.all, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          const type = await client.type(key);
          const value =
            type === 'string' ? await client.get(key)
            : type === 'hash' ? JSON.stringify(await client.hgetall(key))
            : type === 'set' ? JSON.stringify(await client.smembers(key))
            : type === 'stream' ? JSON.stringify(await client.xrange(key, '-', '+'))
            : `(${type})`;
          parts.push(`${key}=${value}`);
        }
      } while (cursor !== '0');
      return parts.join('\n');
    },
  };
}
