// Fleet mode's limits against a real redis-server (started by the test): several ledgers on connections of their own
// stand for several servers; a SharedUsage table stands for one server's threads. Faults are real too: kill -9 of
// Redis, SIGSTOP for a Redis that does not answer, and a port no one listens on.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { openRedis, redisReady } from '../accounts/redisConnection.js';
import { redisKeys } from '../accounts/redisKeys.js';
import { ApiError } from '../errors.js';
import { freePort, startRedis, type RunningRedis } from '../../testing/redisServer.js';
import { planQuota, quotaHeaders, type QuotaDecision, type Usage } from './quota.js';
import { RedisUsageLedger, type OnRedisFailure } from './redisUsageLedger.js';
import { SharedUsage } from './sharedUsage.js';
import { mergeIntoRedis, withUsageScripts } from './usageScripts.js';

const TIMEOUT_MS = 250;
/** What a call may take beyond REDIS_COMMAND_TIMEOUT_MS on a busy machine. */
const MARGIN_MS = 100;
const trial = planQuota({ perMinute: 10, perMonth: 1000 });
const big = planQuota({ perMinute: 1e9, perMonth: 1e12 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let accounts = 0;
const newAccount = (): string => `acc_${(++accounts).toString(16).padStart(16, '0')}`;
const utcDay = (ms = Date.now()): string => new Date(ms).toISOString().slice(0, 10);
const utcMonth = (ms = Date.now()): string => utcDay(ms).slice(0, 7);

let redis: RunningRedis;
/** A connection of the test's own, to look at and seed what the ledgers keep. */
let inspect: Redis;
const opened: RedisUsageLedger[] = [];

/** A "server": its own connection, its own table unless given one (then: another thread of the same server). */
async function ledger(onFailure: OnRedisFailure = 'local', options: { url?: string; table?: SharedUsage; timeoutMs?: number } = {}): Promise<RedisUsageLedger> {
  const connection = openRedis({ url: options.url ?? redis.url, commandTimeoutMs: options.timeoutMs ?? TIMEOUT_MS, role: 'test' });
  const created = new RedisUsageLedger({ redis: connection, local: options.table ?? SharedUsage.create(10), onFailure, name: `test-${opened.length}` });
  opened.push(created);
  await created.ready(options.url ? 200 : 5000);
  return created;
}

/** A connection of the test's own, ready. */
async function connect(url: string): Promise<Redis> {
  const connection = openRedis({ url, commandTimeoutMs: 2000, role: 'test-check' });
  connection.on('error', () => undefined);
  await redisReady(connection, 5000);
  return connection;
}

/** Puts an account's usage record in Redis as it would be after earlier requests (no waiting for clocks). */
const seedUsage = (id: string, usage: Usage) => inspect.hset(redisKeys.usage(id), { ...usage });

async function stored(id: string): Promise<{ usage: Record<string, string>; daily: Record<string, string> }> {
  return { usage: await inspect.hgetall(redisKeys.usage(id)), daily: await inspect.hgetall(redisKeys.daily(id)) };
}

/** Waits (polling) until `check` holds; fails after `ms`. */
async function until(ms: number, check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

beforeAll(async () => {
  redis = await startRedis();
  inspect = await connect(redis.url);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});
afterAll(async () => {
  inspect?.disconnect();
  await redis?.stop();
});

describe('the Redis usage ledger', () => {
  it('200 concurrent requests over three servers on a trial key admit exactly 10, remaining 9…0, with the same headers', async () => {
    const servers = [await ledger(), await ledger(), await ledger()];
    const id = newAccount();
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => servers[i % 3].count(id, trial, Date.now(), 1)));
    const admitted = decisions.filter((d) => d.refused === undefined);
    expect(admitted).toHaveLength(10);
    expect(admitted.map((d) => d.minuteRemaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const refused = decisions.filter((d) => d.refused !== undefined);
    expect(new Set(refused.map((d) => d.refused))).toEqual(new Set(['rate_limit_exceeded']));
    // Every server renders the same reset headers, from Redis's window and clock.
    expect(new Set(decisions.map((d) => quotaHeaders(d)['RateLimit-Reset'])).size).toBe(1);
    expect(new Set(decisions.map((d) => d.monthReset)).size).toBe(1);
    expect(new Set(refused.map((d) => quotaHeaders(d)['Retry-After']))).toEqual(new Set([quotaHeaders(refused[0])['RateLimit-Reset']]));
    expect(refused.every((d) => d.minuteRemaining === 0 && d.monthRemaining === 990)).toBe(true);
    // The 190 refusals were not counted, anywhere.
    const { usage, daily } = await stored(id);
    expect(usage).toMatchObject({ month: utcMonth(), monthCount: '10', windowCount: '10' });
    expect(daily).toEqual({ [utcDay()]: '10' });
  });

  it('refuses the month before the minute, at 1,000 a month, and counts nothing it refuses', async () => {
    const server = await ledger();
    const id = newAccount();
    await seedUsage(id, { month: utcMonth(), monthCount: 999, windowStart: 0, windowCount: 0 });
    const last = await server.count(id, trial, Date.now(), 1);
    expect(last).toMatchObject({ refused: undefined, monthRemaining: 0, minuteRemaining: 9 });
    const over = await server.count(id, trial, Date.now(), 1);
    expect(over.refused).toBe('quota_exceeded');
    const nextMonth = Date.parse(over.monthReset);
    expect(over.retryAfter).toBe(Math.ceil((nextMonth - Date.now()) / 1000));
    // Both limits used up: the month is what the refusal says.
    const both = newAccount();
    await seedUsage(both, { month: utcMonth(), monthCount: 1000, windowStart: Date.now(), windowCount: 10 });
    expect((await server.count(both, trial, Date.now(), 1)).refused).toBe('quota_exceeded');
    expect((await stored(id)).usage.monthCount).toBe('1000');
    expect((await stored(both)).usage).toMatchObject({ monthCount: '1000', windowCount: '10' });
  });

  it('counts n units all or none (the tool calls of one MCP message), and a message with none counts nothing', async () => {
    const server = await ledger();
    const id = newAccount();
    expect(await server.count(id, trial, Date.now(), 7)).toMatchObject({ refused: undefined, minuteRemaining: 3 });
    expect(await server.count(id, trial, Date.now(), 4)).toMatchObject({ refused: 'rate_limit_exceeded', minuteRemaining: 3 });
    expect(await server.count(id, trial, Date.now(), 0)).toMatchObject({ refused: undefined, minuteRemaining: 3, monthRemaining: 993 });
    expect(await server.count(id, trial, Date.now(), 3)).toMatchObject({ refused: undefined, minuteRemaining: 0 });
    const { usage, daily } = await stored(id);
    expect(usage).toMatchObject({ monthCount: '10', windowCount: '10' });
    expect(daily).toEqual({ [utcDay()]: '10' });
  });

  it('starts a new month and a new window from zero (state seeded, not waited for)', async () => {
    const server = await ledger();
    const id = newAccount();
    // Last month used up, and a window that ended a second ago with its ten.
    await seedUsage(id, { month: '2020-01', monthCount: 1000, windowStart: Date.now() - 61_000, windowCount: 10 });
    await inspect.hset(redisKeys.usage(id), 'by:gone', 1000); // a ledger's tally of that month
    const first = await server.count(id, trial, Date.now(), 1);
    expect(first).toMatchObject({ refused: undefined, monthRemaining: 999, minuteRemaining: 9, minuteReset: 60 });
    const { usage } = await stored(id);
    expect(usage).toMatchObject({ month: utcMonth(), monthCount: '1', windowCount: '1' });
    // The month's record starts afresh: the old tallies go, this ledger's holds its one unit.
    expect(Object.entries(usage).filter(([field]) => field.startsWith('by:'))).toEqual([[expect.stringMatching(/^by:[0-9a-f]{12}$/), '1']]);
    expect(Math.abs(Number(usage.windowStart) - Date.now())).toBeLessThan(5000);
    // A window still open keeps its count and its start.
    const open = newAccount();
    const start = Date.now() - 30_000;
    await seedUsage(open, { month: utcMonth(), monthCount: 5, windowStart: start, windowCount: 9 });
    const inWindow = await server.count(open, trial, Date.now(), 1);
    expect(inWindow).toMatchObject({ refused: undefined, minuteRemaining: 0, monthRemaining: 994 });
    expect(inWindow.minuteReset).toBeGreaterThanOrEqual(29);
    expect(inWindow.minuteReset).toBeLessThanOrEqual(31);
    expect((await stored(open)).usage.windowStart).toBe(String(start));
  });

  it('reads an account’s usage as Redis holds it', async () => {
    const server = await ledger();
    const id = newAccount();
    expect(await server.read(id)).toBeUndefined();
    await server.count(id, trial, Date.now(), 2);
    expect(await server.read(id)).toMatchObject({ month: utcMonth(), monthCount: 2, windowCount: 2 });
  });

  it('applies a merge once, however often it is sent (an answer lost on the way)', async () => {
    const scripts = withUsageScripts(await connect(redis.url));
    try {
      const id = newAccount();
      const day = utcDay();
      expect(await mergeIntoRedis(scripts, id, day, 5, 'm1')).toBe(1);
      expect(await mergeIntoRedis(scripts, id, day, 5, 'm1')).toBe(0);
      expect(await mergeIntoRedis(scripts, id, day, 2, 'm2')).toBe(1);
      // A past month's units go to their day only; the record keeps the later month.
      expect(await mergeIntoRedis(scripts, id, '2020-01-31', 4, 'm3')).toBe(1);
      expect(await stored(id)).toEqual({ usage: { month: day.slice(0, 7), monthCount: '7' }, daily: { [day]: '7', '2020-01-31': '4' } });
    } finally {
      scripts.disconnect();
    }
  });
});

describe('without Redis', () => {
  it('local: counts exactly across one server’s threads, at once and without trying Redis', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`; // no one listens there
    const table = SharedUsage.create(10);
    const threads = [await ledger('local', { url, table }), await ledger('local', { url, table })];
    const id = newAccount();
    const results = Array.from({ length: 20 }, (_, i) => threads[i % 2].count(id, trial, Date.now(), 1));
    expect(results.some((r) => r instanceof Promise)).toBe(false);
    const decisions = results as QuotaDecision[];
    expect(decisions.filter((d) => d.refused === undefined)).toHaveLength(10);
    expect(table.read(id)).toMatchObject({ monthCount: 10, windowCount: 10 });
  });

  it('open: lets every request through, counts none, and says what was last known', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const server = await ledger('open', { url });
    const id = newAccount();
    const decisions = Array.from({ length: 20 }, () => server.count(id, trial, Date.now(), 1)) as QuotaDecision[];
    expect(decisions.every((d) => d.refused === undefined && d.minuteRemaining === 10 && d.monthRemaining === 1000)).toBe(true);
  });

  it('closed: refuses with 503 service_unavailable and Retry-After', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const server = await ledger('closed', { url });
    let error: unknown;
    try {
      server.count(newAccount(), trial, Date.now(), 1);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'service_unavailable', status: 503, headers: { 'Retry-After': '1' } });
  });
});

describe('Redis failing under load', () => {
  /** Calls `count` in rounds of `parallel` per ledger until `stop()` says so; records every call's duration. */
  function load(ledgers: RedisUsageLedger[], id: string, plan = big, parallel = 10) {
    const durations: number[] = [];
    const decisions: QuotaDecision[] = [];
    const errors: unknown[] = [];
    let running = true;
    const done = (async () => {
      while (running) {
        await Promise.all(
          ledgers.flatMap((l) =>
            Array.from({ length: parallel }, async () => {
              const started = performance.now();
              try {
                decisions.push(await l.count(id, plan, Date.now(), 1));
              } catch (error) {
                errors.push(error);
              }
              durations.push(performance.now() - started);
            }),
          ),
        );
        await sleep(2);
      }
    })();
    return {
      durations,
      decisions,
      errors,
      admitted: () => decisions.filter((d) => d.refused === undefined).length,
      async stop() {
        running = false;
        await done;
      },
    };
  }

  it('local: kill -9 of Redis: no call waits past the timeout, both servers count on their own, and the merge loses nothing', async () => {
    const own = await startRedis();
    try {
      const servers = [await ledger('local', { url: own.url }), await ledger('local', { url: own.url })];
      const id = newAccount();
      const calls = load(servers, id);
      await sleep(300);
      await own.kill();
      await until(3000, () => servers.every((s) => !s.countingOnRedis), 'both ledgers off Redis');
      const atOutage = calls.admitted();
      await sleep(500);
      const countedLocally = calls.admitted() - atOutage;
      expect(countedLocally).toBeGreaterThan(20);
      await own.restart();
      await until(5000, () => servers.every((s) => s.countingOnRedis), 'both ledgers back on Redis');
      await sleep(300);
      await calls.stop();
      expect(calls.errors).toEqual([]);
      expect(Math.max(...calls.durations)).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
      const check = await connect(own.url);
      try {
        // Exactly what was admitted is in Redis: a script that ran just before the kill (its AOF written) but whose
        // answer never left Redis was counted here as well, and the merge took it back (usageTally.ts).
        const monthCount = Number(await check.hget(redisKeys.usage(id), 'monthCount'));
        const daily = await check.hgetall(redisKeys.daily(id));
        expect(monthCount).toBe(calls.admitted());
        expect(daily).toEqual({ [utcDay()]: String(monthCount) });
      } finally {
        check.disconnect();
      }
    } finally {
      await own.stop();
    }
  });

  it('local: a Redis that stops answering (SIGSTOP): calls wait at most the timeout, then none waits; nothing is lost', async () => {
    const own = await startRedis();
    const timeoutMs = 100;
    try {
      const servers = [await ledger('local', { url: own.url, timeoutMs }), await ledger('local', { url: own.url, timeoutMs })];
      const id = newAccount();
      const calls = load(servers, id);
      await sleep(200);
      own.process.kill('SIGSTOP');
      await until(3000, () => servers.every((s) => !s.countingOnRedis), 'both ledgers off Redis');
      const inFlightAtStop = calls.durations.length;
      await sleep(400);
      const durationsWhileStopped = calls.durations.slice(inFlightAtStop);
      own.process.kill('SIGCONT');
      await until(5000, () => servers.every((s) => s.countingOnRedis), 'both ledgers back on Redis');
      await sleep(200);
      await calls.stop();
      expect(calls.errors).toEqual([]);
      expect(Math.max(...calls.durations)).toBeLessThan(timeoutMs + MARGIN_MS);
      // Once off Redis, a call does not try it: answered at once.
      expect(Math.max(...durationsWhileStopped)).toBeLessThan(timeoutMs);
      // The calls that timed out were counted here and ran on Redis once it resumed: counted once all the same.
      // (Node's timers count from the event loop's cached clock: a timed-out call may measure a little under the timeout.)
      const timedOut = calls.durations.filter((ms) => ms >= timeoutMs / 2).length;
      expect(timedOut).toBeGreaterThan(0);
      const check = await connect(own.url);
      try {
        const monthCount = Number(await check.hget(redisKeys.usage(id), 'monthCount'));
        expect(monthCount).toBe(calls.admitted());
        expect(await check.hgetall(redisKeys.daily(id))).toEqual({ [utcDay()]: String(monthCount) });
      } finally {
        check.disconnect();
      }
    } finally {
      own.process.kill('SIGCONT');
      await own.stop();
    }
  });

  it('closed: a count Redis ran after the timeout was refused with 503 here, and is taken back from Redis', async () => {
    const own = await startRedis();
    const timeoutMs = 100;
    try {
      const server = await ledger('closed', { url: own.url, timeoutMs });
      const id = newAccount();
      expect(await server.count(id, trial, Date.now(), 3)).toMatchObject({ refused: undefined, minuteRemaining: 7 });
      own.process.kill('SIGSTOP');
      await expect(server.count(id, trial, Date.now(), 2)).rejects.toMatchObject({ code: 'service_unavailable' });
      own.process.kill('SIGCONT'); // the script runs now, its answer long given up
      await until(5000, () => server.countingOnRedis, 'back on Redis');
      const check = await connect(own.url);
      try {
        expect(await check.hget(redisKeys.usage(id), 'monthCount')).toBe('3');
        expect(await check.hgetall(redisKeys.daily(id))).toEqual({ [utcDay()]: '3' });
      } finally {
        check.disconnect();
      }
      expect(await server.count(id, trial, Date.now(), 1)).toMatchObject({ refused: undefined, monthRemaining: 996 });
    } finally {
      own.process.kill('SIGCONT');
      await own.stop();
    }
  });

  it('open and closed: kill -9 of Redis lets requests through uncounted, or refuses them with 503; both come back', async () => {
    const own = await startRedis();
    try {
      const open = await ledger('open', { url: own.url });
      const closed = await ledger('closed', { url: own.url });
      const id = newAccount();
      expect(await open.count(id, trial, Date.now(), 3)).toMatchObject({ refused: undefined, minuteRemaining: 7 });
      await own.kill();
      await until(3000, () => !open.countingOnRedis && !closed.countingOnRedis, 'both off Redis');
      // Open: through, uncounted; the headers repeat what Redis said last.
      for (let i = 0; i < 15; i++) expect(open.count(id, trial, Date.now(), 1)).toMatchObject({ refused: undefined, minuteRemaining: 7 });
      expect(() => closed.count(id, trial, Date.now(), 1)).toThrow(expect.objectContaining({ code: 'service_unavailable' }));
      await own.restart();
      await until(5000, () => open.countingOnRedis && closed.countingOnRedis, 'both back on Redis');
      expect(await open.count(id, trial, Date.now(), 1)).toMatchObject({ minuteRemaining: 6 });
      expect(await closed.count(id, trial, Date.now(), 1)).toMatchObject({ minuteRemaining: 5 });
    } finally {
      await own.stop();
    }
  });
});
