// The metrics and alert rules with Prometheus's own tools (Debian's prometheus package, installed by `make
// prometheus` when missing): `promtool check rules` and `promtool test rules` on deploy/prometheus/, with a case
// that fires and one that does not for every alert; `promtool check metrics` on real scrapes (embedded and fleet
// mode); and a real Prometheus, on a free loopback port with a directory of its own, scraping a real server with two
// serving threads every second with the rules loaded: queried over its HTTP API, the series are there, the labels
// come from fixed sets (no path, key, e-mail or place), the request counter equals the requests sent, the rules
// evaluate without error, and PrayerTimesDown goes pending once the server stops. Fails, never skips, without
// Prometheus.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { metricsUrl } from '../../testing/metricsText.js';
import { freePort, startRedis, type RunningRedis } from '../../testing/redisServer.js';
import { dataDirWithCatalog, provisionKey, startServer, type RunningServer } from '../../testing/serverProcess.js';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function run(command: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { cwd: HERE }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** `promtool check metrics` on a scrape's text: exit 0 and nothing said, or what it said. */
async function checkMetrics(url: string): Promise<{ code: number; said: string }> {
  const text = await (await fetch(url)).text();
  const { code, stdout, stderr } = await run(PROMTOOL, ['check', 'metrics'], text);
  return { code, said: stdout + stderr };
}

const ALERTS = [...readFileSync(path.join(HERE, 'alerts.yml'), 'utf8').matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1]);

describe('promtool on the alert rules', () => {
  it('check rules: every rule parses', async () => {
    const { code, stdout, stderr } = await run(PROMTOOL, ['check', 'rules', 'alerts.yml']);
    expect(stderr).toBe('');
    expect(stdout).toContain(`SUCCESS: ${ALERTS.length} rules found`);
    expect(code).toBe(0);
    expect(ALERTS).toEqual(expect.arrayContaining(['PrayerTimesDown', 'PrayerTimesErrors', 'PrayerTimesSlow', 'PrayerTimesStoreUnreadable', 'PrayerTimesStoreSetAside', 'PrayerTimesStoreStale', 'PrayerTimesPrecomputeFailed', 'PrayerTimesPrecomputeLate', 'PrayerTimesRedisUnreachable', 'PrayerTimesQuotaRefusalsSpiking']));
  });

  it('test rules: every case passes', async () => {
    const { code, stdout, stderr } = await run(PROMTOOL, ['test', 'rules', 'alerts.test.yml']);
    expect(stdout + stderr).toContain('SUCCESS');
    expect(code).toBe(0);
  });

  it('the cases hold, for every alert, one where it fires and one where it does not', () => {
    const cases = readFileSync(path.join(HERE, 'alerts.test.yml'), 'utf8');
    const checks = [...cases.matchAll(/alertname: (\w+)\n\s+exp_alerts:( \[\])?\n(\s+- exp_labels)?/g)];
    for (const alert of ALERTS) {
      const mine = checks.filter((m) => m[1] === alert);
      expect(mine.some((m) => m[2] === ' []'), `${alert}: a case where it does not fire`).toBe(true);
      expect(mine.some((m) => m[3] !== undefined), `${alert}: a case where it fires`).toBe(true);
    }
  });
});

interface Prometheus {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Prometheus on a free loopback port, scraping `target` (job prayer-times) every second, with the alert rules. */
async function startPrometheus(target: string): Promise<Prometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'prayer-times-prometheus-'));
  copyFileSync(path.join(HERE, 'alerts.yml'), path.join(dir, 'alerts.yml'));
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files: [alerts.yml]',
      'scrape_configs:',
      '  - job_name: prayer-times',
      `    static_configs: [{ targets: ['${target}'] }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child = spawn(PROMETHEUS, [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/-/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || i > 150) throw new Error(`prometheus did not start:\n${log}`);
    await sleep(200);
  }
  return {
    url,
    process: child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A PromQL query's result over the HTTP API. */
async function query(prometheus: Prometheus, expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const response = (await (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as { status: string; data: { result: [] }; error?: string };
  if (response.status !== 'success') throw new Error(`${expr}: ${response.error}`);
  return response.data.result;
}

/** Polls until `check` holds (Prometheus scrapes every second), for at most `ms`. */
async function eventually(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describe('a real Prometheus scraping a real server', () => {
  let server: RunningServer;
  let prometheus: Prometheus;
  let key: string;
  let metrics: string;

  beforeAll(async () => {
    const dataDir = dataDirWithCatalog(inject('catalogDataDir'));
    const plansFile = path.join(dataDir, 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
    key = await provisionKey(dataDir, 'prometheus@example.com', 'business');
    server = await startServer({ DATA_DIR: dataDir, PLANS_FILE: plansFile, WORKERS: '2', METRICS_PORT: '0' }, 60_000);
    metrics = metricsUrl(server);
    prometheus = await startPrometheus(new URL(metrics).host);
    await eventually('the first scrape', async () => (await query(prometheus, 'up{job="prayer-times"} == 1')).length === 1);
  }, 90_000);
  afterAll(async () => {
    await prometheus?.stop();
    await server?.stop();
  });

  it('counts exactly the requests sent, by operation, status class and refusal reason', async () => {
    const sent = { answered: 0, refused: 0, pages: 0 };
    const value = async (expr: string) => Number((await query(prometheus, expr))[0]?.value[1] ?? NaN);
    // Two batches with a scrape between, so that a rate over them sees the counters grow.
    for (const [answered, refused, pages] of [
      [10, 3, 1],
      [15, 4, 2],
    ]) {
      await Promise.all([
        ...Array.from({ length: answered }, () => fetch(`${server.baseUrl}/api/v1/hijri?date=2026-03-01`, { headers: { 'X-API-Key': key } }).then((r) => r.text())),
        ...Array.from({ length: refused }, () => fetch(`${server.baseUrl}/api/v1/hijri?date=2026-03-01`).then((r) => r.text())),
        ...Array.from({ length: pages }, () => fetch(`${server.baseUrl}/en`).then((r) => r.text())),
      ]);
      sent.answered += answered;
      sent.refused += refused;
      sent.pages += pages;
      await eventually('the requests in Prometheus', async () => (await value('sum(prayer_times_requests_total{operation="getHijriDate"})')) === sent.answered + sent.refused);
    }
    expect(await value('prayer_times_requests_total{surface="api", operation="getHijriDate", status="2xx"}')).toBe(sent.answered);
    expect(await value('prayer_times_requests_total{surface="api", operation="getHijriDate", status="4xx"}')).toBe(sent.refused);
    expect(await value('prayer_times_requests_total{surface="site", operation="page", status="2xx"}')).toBe(sent.pages);
    expect(await value('prayer_times_refusals_total{reason="missing_api_key"}')).toBe(sent.refused);
    expect(await value('prayer_times_request_duration_seconds_count{operation="getHijriDate"}')).toBe(sent.answered + sent.refused);
    // The histogram works in PromQL: a 99th percentile in seconds.
    const p99 = await value('histogram_quantile(0.99, sum by (le) (rate(prayer_times_request_duration_seconds_bucket{operation="getHijriDate"}[1m])))');
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThan(5);
  });

  it('has the series an operator graphs and alerts on, per thread where they are a thread’s', async () => {
    const names = new Set((await query(prometheus, 'count by (__name__) ({job="prayer-times"})')).map((r) => r.metric.__name__));
    for (const name of [
      'prayer_times_requests_total', 'prayer_times_request_duration_seconds_bucket', 'prayer_times_refusals_total', 'prayer_times_answers_total',
      'prayer_times_usage_write_lag_seconds', 'prayer_times_threads', 'prayer_times_thread_restarts_total', 'prayer_times_thread_busy_seconds_total',
      'prayer_times_store_problem', 'prayer_times_store_set_aside', 'prayer_times_info', 'process_cpu_seconds_total', 'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(names.has(name), name).toBe(true);
    }
    const threads = (await query(prometheus, 'nodejs_heap_size_used_bytes')).map((r) => r.metric.thread).sort();
    expect(threads).toEqual(['0', '1', 'primary']);
    expect(await query(prometheus, 'process_resident_memory_bytes')).toHaveLength(1);
  });

  it('keeps its labels bounded: names and values from fixed sets, no path, key, e-mail or place, a few hundred series', async () => {
    // Prometheus's own ALERTS series (alertname, alertstate, severity) are not the server's.
    const ours = encodeURIComponent('{job="prayer-times", __name__!~"ALERTS.*"}');
    const labels = ((await (await fetch(`${prometheus.url}/api/v1/labels?match[]=${ours}`)).json()) as { data: string[] }).data;
    const allowed = ['__name__', 'job', 'instance', 'surface', 'operation', 'status', 'le', 'reason', 'source', 'thread', 'build', 'outcome', 'tzdata', 'tzdata_source', 'methods_fingerprint', 'type', 'kind', 'space', 'version', 'major', 'minor', 'patch'];
    expect(labels.filter((l) => !allowed.includes(l))).toEqual([]);
    for (const label of labels.filter((l) => !['__name__', 'instance', 'job', 'le'].includes(l))) {
      const values = ((await (await fetch(`${prometheus.url}/api/v1/label/${label}/values?match[]=${ours}`)).json()) as { data: string[] }).data;
      for (const value of values) expect(value, `${label}="${value}"`).not.toMatch(/\/|mk_|@|example|istanbul|hijri\?/i);
    }
    const operations = ((await (await fetch(`${prometheus.url}/api/v1/label/operation/values`)).json()) as { data: string[] }).data;
    for (const op of operations) expect(op).toMatch(/^[a-zA-Z]+$/);
    const series = Number((await query(prometheus, 'count({job="prayer-times", __name__!~"ALERTS.*"})'))[0].value[1]);
    expect(series).toBeGreaterThan(50);
    expect(series).toBeLessThan(600);
  });

  it('passes promtool check metrics on a scrape', async () => {
    expect(await checkMetrics(metrics)).toEqual({ code: 0, said: '' });
  });

  it('evaluates every alert rule without error, none firing for a healthy server; PrayerTimesDown goes pending once it stops', async () => {
    const rules = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as {
      data: { groups: Array<{ name: string; rules: Array<{ name: string; health: string; lastError?: string; state: string }> }> };
    };
    const group = rules.data.groups.find((g) => g.name === 'prayer-times')!;
    expect(group.rules.map((r) => r.name).sort()).toEqual([...ALERTS].sort());
    await eventually('every rule evaluated', async () => {
      const again = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as typeof rules;
      return again.data.groups[0].rules.every((r) => r.health === 'ok');
    });
    const alerts = (await (await fetch(`${prometheus.url}/api/v1/alerts`)).json()) as { data: { alerts: Array<{ labels: { alertname: string }; state: string }> } };
    expect(alerts.data.alerts.filter((a) => a.state === 'firing')).toEqual([]);
    await server.stop();
    await eventually('PrayerTimesDown pending', async () => {
      const now = (await (await fetch(`${prometheus.url}/api/v1/alerts`)).json()) as typeof alerts;
      return now.data.alerts.some((a) => a.labels.alertname === 'PrayerTimesDown' && a.state === 'pending');
    });
  });
});

describe('promtool check metrics in fleet mode', () => {
  let redis: RunningRedis;
  let server: RunningServer;
  beforeAll(async () => {
    redis = await startRedis();
    server = await startServer({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), REDIS_URL: redis.url, METRICS_PORT: '0' }, 60_000);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('passes on a scrape with the Redis figures', async () => {
    const key = await provisionKey(mkdtempSync(path.join(tmpdir(), 'prayer-times-data-')), 'fleet-promtool@example.com', 'business', redis.url);
    await eventually('the key on the server', async () => (await fetch(`${server.baseUrl}/api/v1/hijri`, { headers: { 'X-API-Key': key } })).status === 200, 5000);
    const text = await (await fetch(metricsUrl(server))).text();
    expect(text).toContain('prayer_times_redis_call_duration_seconds_bucket');
    expect(text).toContain('prayer_times_accounts_follower_lag_seconds');
    expect(await checkMetrics(metricsUrl(server))).toEqual({ code: 0, said: '' });
  });
});
