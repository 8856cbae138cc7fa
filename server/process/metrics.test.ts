// The metrics over HTTP, from real servers (docs/operations.md, "Metrics"): off unless METRICS_PORT is set, on a
// listener of their own and never on the public port; every request counted by surface, operation and status class
// and summed over two serving threads (the counts compared with what the client saw, one by one); refusals by reason;
// answers from the store, kept and live; each thread's heap and event loop and the process's figures once; the live
// build and the last precompute; labels that carry no path, key or place; and in fleet mode, against a real
// redis-server, the counting calls, their failures, Redis's state and the change follower's lag.
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openAccountStore } from '../accounts/openStores.js';
import { readPrecomputeRecord } from '../../pipeline/precompute/precomputeRecord.js';
import { freePort, startRedis, type RunningRedis } from '../../testing/redisServer.js';
import { dataDirWithCatalog, provisionKey, runCli, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { metricsUrl, samplesOf, scrape, valueOf, type Sample } from '../../testing/metricsText.js';

const YEAR = new Date().getUTCFullYear();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STATUS_CLASS = (status: number) => `${Math.floor(status / 100)}xx`;

/** One request as the client saw it: the kind the metrics should count it under, its status and error code. */
interface Seen {
  surface: string;
  operation: string;
  status: number;
  code?: string;
  /** The server's X-Request-Id: its part before the dash names the serving thread (edge.ts's bootId). */
  requestId: string;
}

async function send(server: RunningServer, surface: string, operation: string, url: string, init: RequestInit = {}): Promise<Seen> {
  const res = await fetch(server.baseUrl + url, { redirect: 'manual', ...init });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { surface, operation, status: res.status, code, requestId: res.headers.get('x-request-id') ?? '' };
}

describe('metrics off: METRICS_PORT unset', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('has no metrics listener, and /metrics on the public port is the API’s JSON 404', async () => {
    expect(server.output.some((line) => line.includes('metrics_listening'))).toBe(false);
    const res = await fetch(`${server.baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('metrics on: a server with two serving threads and METRICS_PORT', () => {
  let server: RunningServer;
  let url: string;
  let dataDir: string;
  const keys: Record<'business' | 'trial' | 'pro' | 'revoked', string> = { business: '', trial: '', pro: '', revoked: '' };

  beforeAll(async () => {
    dataDir = dataDirWithCatalog(inject('catalogDataDir'));
    // Istanbul's year in a store, by the CLI as the nightly job runs it; then a run that fails (its outcome is kept,
    // and the success before it too).
    const good = await runCli(['precompute', '--scope', 'places:g745044', '--year', String(YEAR), '--workers', '1'], { DATA_DIR: dataDir });
    expect(good.stderr.split('\n').filter((l) => /failed|error/i.test(l))).toEqual([]);
    expect(good.code).toBe(0);
    const bad = await runCli(['precompute', '--year', '1800'], { DATA_DIR: dataDir });
    expect(bad.code).toBe(1);
    const plansFile = path.join(mkdtempSync(path.join(tmpdir(), 'prayer-times-plans-')), 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ trial: { perMinute: 5, perMonth: 1000 }, pro: { perMinute: 1000, perMonth: 3 }, business: { perMinute: 1e9, perMonth: 1e12 } }));
    const store = openAccountStore(dataDir);
    keys.business = store.createKey('business@example.com', 'business').key;
    keys.trial = store.createKey('trial@example.com', 'trial').key;
    keys.pro = store.createKey('pro@example.com', 'pro').key;
    keys.revoked = store.createKey('revoked@example.com', 'business').key;
    store.revoke(keys.revoked);
    await store.close();
    server = await startServer({ DATA_DIR: dataDir, PLANS_FILE: plansFile, WORKERS: '2', METRICS_PORT: '0' }, 60_000);
    url = metricsUrl(server);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('serves them on a listener of their own, on loopback: GET and HEAD /metrics only', async () => {
    const metrics = new URL(url);
    expect(metrics.hostname).toBe('127.0.0.1');
    expect(Number(metrics.port)).not.toBe(server.port);
    expect(metrics.pathname).toBe('/metrics');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    const other = await fetch(new URL('/api/v1/hijri', url));
    expect(other.status).toBe(404);
    const post = await fetch(url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
    expect(server.output.some((line) => line.startsWith(`Metrics: ${url}`))).toBe(true);
  });

  it('counts every request by surface, operation and status class, summed over both threads, and refusals by reason', async () => {
    const before = await scrape(url);
    const auth = (key: string) => ({ headers: { 'X-API-Key': key } });
    const seen: Seen[] = [];
    const many = async (n: number, ...args: Parameters<typeof send>) => {
      for (let i = 0; i < n; i++) seen.push(await send(...args));
    };
    // In parallel too, so that both threads take some (the kernel spreads connections over their sockets).
    const parallel = await Promise.all(Array.from({ length: 20 }, () => send(server, 'api', 'getQibla', '/api/v1/qibla?lat=41&lon=29', auth(keys.business))));
    seen.push(...parallel);
    expect(new Set(parallel.map((s) => s.requestId.split('-')[0])).size).toBe(2); // both threads answered some
    await many(4, server, 'api', 'getPrayerTimes', '/api/v1/times?city=istanbul', auth(keys.business));
    await many(1, server, 'api', 'getPrayerTimes', '/api/v1/times?city=no-such-place-anywhere', auth(keys.business));
    await many(1, server, 'api', 'getPrayerTimes', '/api/v1/times?lat=999&lon=0', auth(keys.business));
    await many(1, server, 'api', 'getHijriDate', '/api/v1/hijri');
    await many(1, server, 'api', 'getHijriDate', '/api/v1/hijri', auth('mk_NoSuchKeyAnywhereAtAll0000000000'));
    await many(1, server, 'api', 'getHijriDate', '/api/v1/hijri', auth(keys.revoked));
    await many(7, server, 'api', 'getHijriDate', '/api/v1/hijri', auth(keys.trial)); // 5 a minute: 2 refused
    await many(5, server, 'api', 'getMonthlyTimetable', '/api/v1/month?city=istanbul', auth(keys.pro)); // 3 a month: 2 refused
    await many(1, server, 'api', 'healthz', '/healthz');
    await many(1, server, 'api', 'readyz', '/readyz');
    await many(1, server, 'api', 'openapi', '/api/v1/openapi.json');
    await many(2, server, 'api', 'other', '/no/such/path');
    await many(1, server, 'api', 'other', '/EN'); // a wrong-case path: 301 to /en, from the catch-all
    await many(1, server, 'mcp', 'mcp', '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    await many(2, server, 'site', 'page', '/en');
    await many(1, server, 'site', 'page', '/en/prayer-times/turkey/istanbul');
    await many(1, server, 'site', 'search', '/en/search?q=ist');
    await many(1, server, 'site', 'docs', '/docs/api');
    await many(1, server, 'site', 'sitemap', '/robots.txt');
    await many(1, server, 'site', 'asset', '/assets/site.css');
    await many(1, server, 'dashboard', 'page', '/dashboard');
    await many(1, server, 'dashboard', 'form', '/dashboard/sign-in/email', { method: 'POST', body: 'email=x' });
    const after = await scrape(url);

    // What the client saw, by kind and status class, against what the counters gained.
    const expected = new Map<string, number>();
    for (const s of seen) {
      const key = JSON.stringify({ surface: s.surface, operation: s.operation, status: STATUS_CLASS(s.status) });
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    expect(new Set(seen.map((s) => STATUS_CLASS(s.status)))).toEqual(new Set(['2xx', '3xx', '4xx']));
    const gained = new Map<string, number>();
    for (const sample of samplesOf(after, 'prayer_times_requests_total')) {
      const delta = sample.value - valueOf(before, 'prayer_times_requests_total', sample.labels);
      if (delta !== 0) gained.set(JSON.stringify({ surface: sample.labels.surface, operation: sample.labels.operation, status: sample.labels.status }), delta);
    }
    // Only the scrapes' own requests are not on the public port, so nothing else moved.
    expect(Object.fromEntries(gained)).toEqual(Object.fromEntries(expected));

    // The refusals, by the code each answer carried (the MCP request has no key: a 401 as the API's).
    const refusals = (samples: Sample[], reason: string) => valueOf(samples, 'prayer_times_refusals_total', { reason });
    const codes = (code: string) => seen.filter((s) => s.code === code).length;
    expect(codes('missing_api_key')).toBe(2);
    expect(codes('rate_limit_exceeded')).toBe(2);
    expect(codes('quota_exceeded')).toBe(2);
    for (const reason of ['missing_api_key', 'invalid_api_key', 'api_key_revoked', 'rate_limit_exceeded', 'quota_exceeded']) {
      expect(refusals(after, reason) - refusals(before, reason), reason).toBe(codes(reason));
    }

    // The latency histogram counts each answered request once, its buckets never fall, and it sums to some time.
    for (const operation of ['getQibla', 'getHijriDate']) {
      const labels = { surface: 'api', operation };
      const count = valueOf(after, 'prayer_times_request_duration_seconds_count', labels) - valueOf(before, 'prayer_times_request_duration_seconds_count', labels);
      expect(count).toBe(seen.filter((s) => s.operation === operation).length);
      const buckets = samplesOf(after, 'prayer_times_request_duration_seconds_bucket', labels);
      expect(buckets.at(-1)!.labels.le).toBe('+Inf');
      expect(buckets.at(-1)!.value).toBe(valueOf(after, 'prayer_times_request_duration_seconds_count', labels));
      for (let i = 1; i < buckets.length; i++) expect(buckets[i].value).toBeGreaterThanOrEqual(buckets[i - 1].value);
      expect(valueOf(after, 'prayer_times_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    }
  });

  it('tells answers from the store, kept answers and those computed live apart', async () => {
    // One kept-alive connection: one serving thread, whose kept answers are its own.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (p: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${server.baseUrl}${p}`, { agent, headers: { 'X-API-Key': keys.business } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          })
          .on('error', reject);
      });
    const answers = async () => Object.fromEntries(['store', 'kept', 'live'].map((source) => [source, 0])) as Record<string, number>;
    const read = async () => {
      const samples = await scrape(url);
      const counts = await answers();
      for (const source of Object.keys(counts)) counts[source] = valueOf(samples, 'prayer_times_answers_total', { source });
      return counts;
    };
    const before = await read();
    // Istanbul on a date of the stored year: read from the store once, then kept. A new point: computed live the
    // first two times (a point is kept the second time it is asked), then kept.
    for (let i = 0; i < 3; i++) expect(await get(`/api/v1/times?city=istanbul&date=${YEAR}-03-0${i + 1}`)).toBe(200);
    for (let i = 0; i < 2; i++) expect(await get(`/api/v1/times?city=istanbul&date=${YEAR}-03-01`)).toBe(200);
    for (let i = 0; i < 3; i++) expect(await get('/api/v1/times?lat=12.3456&lon=65.4321&date=2026-05-05')).toBe(200);
    agent.destroy();
    const after = await read();
    expect({ store: after.store - before.store, kept: after.kept - before.kept, live: after.live - before.live }).toEqual({ store: 3, kept: 3, live: 2 });
  });

  it('reports the process’s figures once, and each thread’s heap and event loop’s busy time with its number', async () => {
    const samples = await scrape(url);
    expect(samplesOf(samples, 'process_resident_memory_bytes')).toHaveLength(1);
    expect(samplesOf(samples, 'process_resident_memory_bytes')[0].labels).toEqual({});
    expect(samplesOf(samples, 'process_cpu_seconds_total')).toHaveLength(1);
    const heaps = samplesOf(samples, 'nodejs_heap_size_used_bytes');
    expect(heaps.map((s) => s.labels.thread).sort()).toEqual(['0', '1', 'primary']);
    // Summed over the threads, the heaps fit in the process: each is counted once.
    const rss = valueOf(samples, 'process_resident_memory_bytes');
    expect(heaps.reduce((sum, s) => sum + s.value, 0)).toBeLessThan(rss);
    expect(samplesOf(samples, 'nodejs_external_memory_bytes').map((s) => s.labels.thread)).toEqual(['primary']);
    // The serving threads run no collector between scrapes: their event loops are measured from the primary.
    expect(samplesOf(samples, 'nodejs_eventloop_lag_p99_seconds').map((s) => s.labels.thread)).toEqual(['primary']);
    expect(samplesOf(samples, 'nodejs_heap_size_limit_bytes').map((s) => s.labels.thread).sort()).toEqual(['0', '1']);
    expect(samplesOf(samples, 'nodejs_heap_space_size_used_bytes', { thread: '0' }).length).toBeGreaterThan(3);
    expect(samplesOf(samples, 'prayer_times_thread_busy_seconds_total').map((s) => s.labels.thread).sort()).toEqual(['0', '1', 'primary']);
    for (const s of samplesOf(samples, 'prayer_times_thread_busy_seconds_total')) expect(s.value).toBeGreaterThan(0);
    expect(valueOf(samples, 'prayer_times_threads')).toBe(2);
    expect(valueOf(samples, 'prayer_times_thread_restarts_total')).toBe(0);
    expect(samplesOf(samples, 'nodejs_version_info')).toHaveLength(1);
    expect(samplesOf(samples, 'nodejs_version_info')[0].labels.thread).toBeUndefined();
  });

  it('reports the live build and its age, the last precompute’s outcome and duration, and what it computes with', async () => {
    const samples = await scrape(url);
    const build = samplesOf(samples, 'prayer_times_store_info');
    expect(build).toHaveLength(1);
    expect(build[0].labels.build).toMatch(/^build-/);
    const builtAt = valueOf(samples, 'prayer_times_store_built_timestamp_seconds');
    expect(Date.now() / 1000 - builtAt).toBeGreaterThan(0);
    expect(Date.now() / 1000 - builtAt).toBeLessThan(600);
    expect(valueOf(samples, 'prayer_times_store_age_seconds')).toBeCloseTo(Date.now() / 1000 - builtAt, -1);
    expect(valueOf(samples, 'prayer_times_store_problem')).toBe(0);
    expect(valueOf(samples, 'prayer_times_store_set_aside')).toBe(0);
    // The last run failed (--year 1800); the success before it is remembered.
    const record = readPrecomputeRecord(dataDir)!;
    expect(record.last.outcome).toBe('failed');
    expect(record.lastSuccess?.build).toBe(build[0].labels.build);
    expect(valueOf(samples, 'prayer_times_precompute_last_outcome', { outcome: 'failed' })).toBe(1);
    expect(valueOf(samples, 'prayer_times_precompute_last_outcome', { outcome: 'succeeded' })).toBe(0);
    expect(valueOf(samples, 'prayer_times_precompute_last_outcome', { outcome: 'running' })).toBe(0);
    expect(valueOf(samples, 'prayer_times_precompute_last_duration_seconds')).toBe(record.last.seconds);
    expect(valueOf(samples, 'prayer_times_precompute_last_started_timestamp_seconds')).toBe(Date.parse(record.last.startedAt) / 1000);
    expect(valueOf(samples, 'prayer_times_precompute_last_success_timestamp_seconds')).toBe(Date.parse(record.lastSuccess!.finishedAt!) / 1000);
    const info = samplesOf(samples, 'prayer_times_info');
    expect(info).toHaveLength(1);
    expect(info[0].labels).toEqual({ tzdata: expect.stringMatching(/^20\d\d[a-z]$/), tzdata_source: expect.stringMatching(/^(system|npm)$/), methods_fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });
    // The usage writer writes every second.
    expect(valueOf(samples, 'prayer_times_usage_write_lag_seconds')).toBeLessThan(3);
    expect(valueOf(samples, 'prayer_times_usage_write_failures_total')).toBe(0);
  });

  it('puts no path, key, e-mail or place in a label: every label and value comes from a fixed set', async () => {
    const samples = await scrape(url);
    const names = new Set(samples.flatMap((s) => Object.keys(s.labels)));
    const allowed = ['surface', 'operation', 'status', 'le', 'reason', 'source', 'thread', 'build', 'outcome', 'tzdata', 'tzdata_source', 'methods_fingerprint', 'type', 'kind', 'space', 'version', 'major', 'minor', 'patch'];
    expect([...names].filter((n) => !allowed.includes(n))).toEqual([]);
    for (const sample of samples) {
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toMatch(/\/|istanbul|example\.com|mk_|@/i);
        expect(value.length).toBeLessThan(64);
      }
    }
    const operations = new Set(samplesOf(samples, 'prayer_times_requests_total').map((s) => s.labels.operation));
    for (const op of operations) expect(op).toMatch(/^[a-zA-Z]+$/);
  });

  it('refuses METRICS_PORT equal to PORT, or not a port, at start', async () => {
    const port = await freePort();
    await expect(startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PORT: String(port), METRICS_PORT: String(port) })).rejects.toThrow(
      `error: cannot start: METRICS_PORT must differ from PORT (${port}): the metrics are never served on the public port`,
    );
    await expect(startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), METRICS_PORT: 'ninety' })).rejects.toThrow('error: cannot start: METRICS_PORT must be 0..65535, not ninety');
  });
});

describe('metrics in fleet mode: a real redis-server', () => {
  let redis: RunningRedis;
  let server: RunningServer;
  let url: string;
  let key: string;
  let admin: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
    admin.on('error', () => undefined); // Redis is killed on purpose below
    key = await provisionKey(mkdtempSync(path.join(tmpdir(), 'prayer-times-data-')), 'fleet-metrics@example.com', 'business', redis.url);
    server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000', WORKERS: '2', METRICS_PORT: '0' }, 60_000);
    url = metricsUrl(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    admin?.disconnect();
    await redis?.stop();
  });

  const hijri = async () => (await fetch(`${server.baseUrl}/api/v1/hijri`, { headers: { 'X-API-Key': key } })).status;

  it('times each counting call on Redis, says Redis is up and how far behind the change follower is', async () => {
    const before = await scrape(url);
    const statuses = await Promise.all(Array.from({ length: 30 }, hijri));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const after = await scrape(url);
    const calls = (samples: Sample[]) => valueOf(samples, 'prayer_times_redis_call_duration_seconds_count');
    expect(calls(after) - calls(before)).toBe(30);
    expect(valueOf(after, 'prayer_times_redis_call_failures_total')).toBe(0);
    expect(valueOf(after, 'prayer_times_redis_up')).toBe(1);
    const lag = valueOf(after, 'prayer_times_accounts_follower_lag_seconds');
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(5);
  });

  it('counts a call that times out, says Redis is down while the limits count locally, and up again after', async () => {
    const before = await scrape(url);
    // Redis holds every write for 3 s: the counting call outlasts REDIS_COMMAND_TIMEOUT_MS (1 s here).
    await admin.call('CLIENT', 'PAUSE', '3000', 'WRITE');
    expect(await hijri()).toBe(200); // counted on this server meanwhile (LIMITS_ON_REDIS_FAILURE=local)
    const during = await scrape(url);
    expect(valueOf(during, 'prayer_times_redis_call_failures_total') - valueOf(before, 'prayer_times_redis_call_failures_total')).toBe(1);
    expect(valueOf(during, 'prayer_times_redis_up')).toBe(0);
    let up = 0;
    for (let i = 0; i < 50 && up !== 1; i++) {
      await sleep(200);
      await hijri();
      up = valueOf(await scrape(url), 'prayer_times_redis_up');
    }
    expect(up).toBe(1);
  });

  it('tells the change follower is behind while Redis is away', async () => {
    await redis.kill();
    try {
      let lag = 0;
      for (let i = 0; i < 40 && lag < 4; i++) {
        await sleep(250);
        lag = valueOf(await scrape(url), 'prayer_times_accounts_follower_lag_seconds');
      }
      expect(lag).toBeGreaterThanOrEqual(4);
    } finally {
      await redis.restart();
    }
    let lag = Infinity;
    for (let i = 0; i < 40 && lag > 3; i++) {
      await sleep(250);
      lag = valueOf(await scrape(url), 'prayer_times_accounts_follower_lag_seconds');
    }
    expect(lag).toBeLessThanOrEqual(3);
  });
});
