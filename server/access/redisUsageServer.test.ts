// Fleet mode's limits on a running server (REDIS_URL): the API and MCP count in Redis, the account store's usage is
// not written, and a kill -9 of Redis neither stops nor slows the answers. (Several servers: the fleet tests.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountStore } from '../accounts/openStores.js';
import { openRedis, redisReady } from '../accounts/redisConnection.js';
import { redisKeys } from '../accounts/redisKeys.js';
import { startRedis, type RunningRedis } from '../../testing/redisServer.js';
import { provisionKey, startServer, type RunningServer } from '../../testing/serverProcess.js';

const PATH = '/api/v1/qibla?lat=41&lon=29';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const today = () => new Date().toISOString().slice(0, 10);

describe('a server in fleet mode counts in Redis', () => {
  let redis: RunningRedis;
  let server: RunningServer;
  let inspect: Redis;
  let key: string;
  let accountId: string;

  const get = async (withKey = key) => {
    const started = performance.now();
    const res = await fetch(server.baseUrl + PATH, { headers: { 'X-API-Key': withKey } });
    await res.arrayBuffer();
    return { status: res.status, headers: res.headers, ms: performance.now() - started };
  };
  const monthCount = async () => Number(await inspect.hget(redisKeys.usage(accountId), 'monthCount'));

  beforeAll(async () => {
    redis = await startRedis();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-limits-'));
    // In fleet mode accounts and keys live in Redis too: the key is made there, as the CLI with REDIS_URL makes it.
    key = await provisionKey(dataDir, 'fleet@example.com', 'trial', redis.url);
    inspect = openRedis({ url: redis.url, commandTimeoutMs: 2000, role: 'test' });
    inspect.on('error', () => undefined);
    await redisReady(inspect, 5000);
    accountId = (await inspect.get(redisKeys.email('fleet@example.com')))!;
    expect(accountId).toMatch(/^acc_/);
    server = await startServer({ DATA_DIR: dataDir, REDIS_URL: redis.url });
  });
  afterAll(async () => {
    inspect?.disconnect();
    await server?.stop();
    await redis?.stop();
  });

  it('API requests and MCP tool calls share the trial minute in Redis; refusals are not counted', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get()));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(8);
    expect(answers.map((a) => Number(a.headers.get('ratelimit-remaining'))).sort()).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    // One MCP message with two tool calls: counted together (a batch, which protocol 2025-03-26 still has).
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getQibla', arguments: { lat: 41, lon: 29 } } });
    const mcp = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': key, 'Mcp-Protocol-Version': '2025-03-26' },
      body: JSON.stringify([call(1), call(2)]),
    });
    await mcp.arrayBuffer();
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('ratelimit-remaining')).toBe('0');
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-quota-remaining')).toBe('990');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await inspect.hgetall(redisKeys.usage(accountId))).toMatchObject({ monthCount: '10', windowCount: '10' });
    expect(await inspect.hgetall(redisKeys.daily(accountId))).toEqual({ [today()]: '10' });
  });

  it('kill -9 of Redis: answers go on at once (counted here), and the counts reach Redis when it is back', async () => {
    // The trial minute opened again (seeded, not waited for).
    await inspect.hset(redisKeys.usage(accountId), { windowStart: 0, windowCount: 0 });
    expect((await get()).status).toBe(200);
    await redis.kill();
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await get());
    expect(during.map((a) => a.status)).toEqual([200, 200, 200]);
    // REDIS_COMMAND_TIMEOUT_MS (250) at most on Redis, and a margin for a busy machine.
    expect(Math.max(...during.map((a) => a.ms))).toBeLessThan(250 + 250);
    await redis.restart();
    await redisReady(inspect, 5000);
    // The server's ledger merges within about a second of Redis's return (reconnection at most 1 s, then the probe);
    // the bound is generous for a busy machine.
    const deadline = Date.now() + 10_000;
    while ((await monthCount().catch(() => 0)) < 14 && Date.now() < deadline) await sleep(100);
    expect(await monthCount()).toBe(14);
    expect(await inspect.hgetall(redisKeys.daily(accountId))).toEqual({ [today()]: '14' });
    // Logged once each way, not per request or per reconnection attempt (the lines come through the child's stdout).
    const events = () => server.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line).event as string);
    while (!events().includes('limits_redis_back') && Date.now() < deadline) await sleep(50);
    expect(events().filter((e) => e === 'limits_redis_unavailable')).toHaveLength(1);
    expect(events().filter((e) => e === 'limits_redis_back')).toHaveLength(1);
  });

  it('writes no usage to the account store in fleet mode', async () => {
    await sleep(1200); // past the embedded writer's one-second flush, were it running
    const store = openAccountStore(server.dataDir);
    try {
      expect(store.allUsage().size).toBe(0);
    } finally {
      await store.close();
    }
  });
});
