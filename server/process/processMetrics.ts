// The metrics of the whole process at one scrape (docs/operations.md, "Metrics"), put together in the primary
// thread the way prom-client's AggregatorRegistry puts a cluster's together: every source gives its metrics as
// prom-client's JSON, and AggregatorRegistry.aggregate sums them by name and labels (or takes the min or max where
// that is the meaning). The sources:
// - each serving thread's counters in its slot of the shared buffer (threadCounters.ts: requests, latency,
//   refusals, Redis calls) and of the answers' buffer (answerCounts.ts): summed over the threads, so a series is the
//   process's; they live in shared memory, so a thread that is slow to answer, or was started again, takes nothing
//   away from a total;
// - each serving thread's own figures, asked at the scrape (threadMetrics.ts: heap, event-loop delay, GC, handles;
//   the store it serves from), labelled `thread` with its number: per thread, and a sum over `thread` is the process's;
// - the primary's: the process as a whole (CPU, resident memory, descriptors: prom-client's process_* collectors,
//   once), its own heap and event loop (`thread="primary"`), the threads' restarts and busy time, the usage writer,
//   the last precompute, and what the server runs with (tzdata, methods).
// No label carries a path, key, address or place: operations and reasons come from fixed tables, builds are one a
// night.
import { performance } from 'node:perf_hooks';
import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';
import { readPrecomputeRecord } from '../../pipeline/precompute/precomputeRecord.js';
import { answerSources } from '../timetables/answerCounts.js';
import { LATENCY_BUCKETS, latencyAt, OFFSETS, readHistogram, REDIS_BUCKETS, REFUSAL_CODES, STATUS_CLASSES, threadSlots, type ThreadCells } from '../threadCounters.js';
import type { ThreadAbout } from './httpWorker.js';
import { PROCESS_WIDE, type MetricJson, type ThreadReport } from './threadMetrics.js';

/** What the primary knows of one serving thread at a scrape. */
export interface ThreadView {
  /** What it said once it listened (its table of request kinds, its methods); undefined before that. */
  about: ThreadAbout | undefined;
  /** Its own figures, or undefined when it did not answer in time. */
  report: ThreadReport | undefined;
  /** Its event loop's busy time so far in ms, measured from this side (the worker's eventLoopUtilization). */
  busyMs: number | undefined;
}

export interface ProcessMetricsSources {
  dataDir: string;
  /** Fleet mode (REDIS_URL): the Redis figures are reported. */
  fleet: boolean;
  countersBuffer: SharedArrayBuffer;
  answerCountsBuffer: SharedArrayBuffer;
  tzdata: { version: string; source: string };
  /** Every serving thread, asked for its figures (in parallel, each within its own timeout). */
  threads(): Promise<ThreadView[]>;
  /** How many times a serving thread was started again after it ended. */
  restarts(): number;
  /** How many times a thread did not answer a scrape in time. */
  reportTimeouts(): number;
  /** The usage writer (embedded mode): when it last wrote, and how many writes failed. */
  usageWriter(): { lastWrittenAt: number; failures: number } | undefined;
  now?: () => number;
}

const STATUS_LABELS = ['1xx', '2xx', '3xx', '4xx', '5xx'];
/** 2xx, 4xx and 5xx by their index in STATUS_LABELS. */
const ALWAYS_STATUSES = new Set([1, 3, 4]);
const PREFIX = 'prayer_times_';

type Labels = Record<string, string | number>;
type Value = MetricJson['values'][number];

const metric = (name: string, type: MetricJson['type'], help: string, values: Value[], aggregator: MetricJson['aggregator'] = 'sum'): MetricJson => ({
  name: PREFIX + name,
  help,
  type,
  aggregator,
  values,
});

/** A histogram's samples from cumulative bucket counts (the last one +Inf) and a sum, with prom-client's names. */
function histogramValues(name: string, buckets: readonly number[], cumulative: number[], sum: number, labels: Labels): Value[] {
  const full = PREFIX + name;
  return [
    ...buckets.map((le, i) => ({ metricName: `${full}_bucket`, labels: { ...labels, le: String(le) }, value: cumulative[i] })),
    { metricName: `${full}_bucket`, labels: { ...labels, le: '+Inf' }, value: cumulative[buckets.length] },
    { metricName: `${full}_sum`, labels, value: sum },
    { metricName: `${full}_count`, labels, value: cumulative[buckets.length] },
  ];
}

/** A thread's metrics as JSON adds a label to every value (`thread`), for those that are per thread. */
function labelled(metrics: MetricJson[], thread: string): MetricJson[] {
  return metrics.map((m) => (PROCESS_WIDE.test(m.name) ? m : { ...m, values: m.values.map((v) => ({ ...v, labels: { ...v.labels, thread } })) }));
}

export class ProcessMetrics {
  /** The primary's own collectors: the process's figures, and the primary thread's heap and event loop. */
  private readonly primary = new Registry();
  private readonly now: () => number;

  constructor(private readonly sources: ProcessMetricsSources) {
    collectDefaultMetrics({ register: this.primary });
    // Gauges named like counters, which `promtool check metrics` refuses; the same figures by type stay.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) this.primary.removeSingleMetric(name);
    this.now = sources.now ?? Date.now;
  }

  /** The text Prometheus scrapes. */
  async scrape(): Promise<string> {
    const [primary, threads] = await Promise.all([this.primary.getMetricsAsJSON() as unknown as Promise<MetricJson[]>, this.sources.threads()]);
    const parts: MetricJson[][] = [labelled(primary, 'primary'), this.ownMetrics(threads)];
    const slots = threadSlots(this.sources.countersBuffer);
    const answers = answerSources(this.sources.answerCountsBuffer);
    const kinds = threads.find((t) => t.about)?.about?.requestKinds;
    slots.forEach((cells, i) => parts.push(this.counterMetrics(cells, answers[i], kinds)));
    threads.forEach((view, i) => {
      if (view.report) parts.push(labelled(view.report.runtime, String(i)), this.storeMetrics(view.report));
    });
    return AggregatorRegistry.aggregate(parts).metrics();
  }

  /** One thread's counters, summed with the others' by the aggregation. */
  private counterMetrics(cells: ThreadCells, answers: { store: number; kept: number; live: number }, kinds: ThreadAbout['requestKinds'] | undefined): MetricJson[] {
    const requests: Value[] = [];
    const latency: Value[] = [];
    kinds?.forEach(({ surface, operation }, kind) => {
      let answered = 0;
      // The API's and MCP's 2xx, 4xx and 5xx are there from the start, at 0, so that a rate sees their first
      // increase (what the alerts divide); any other only once counted, to keep the zeros few.
      const always = surface === 'api' || surface === 'mcp';
      for (let c = 0; c < STATUS_CLASSES; c++) {
        const value = cells[OFFSETS.requests + kind * STATUS_CLASSES + c];
        answered += value;
        if (value > 0 || (always && ALWAYS_STATUSES.has(c))) requests.push({ labels: { surface, operation, status: STATUS_LABELS[c] }, value });
      }
      if (answered === 0) return;
      const { cumulative, sum } = readHistogram(cells, latencyAt(kind), LATENCY_BUCKETS);
      latency.push(...histogramValues('request_duration_seconds', LATENCY_BUCKETS, cumulative, sum, { surface, operation }));
    });
    const metrics = [
      metric('requests_total', 'counter', 'Requests answered, by surface (api, mcp, site, dashboard), operation and status class.', requests),
      metric('request_duration_seconds', 'histogram', 'Time from a request’s head to its answer, by surface and operation.', latency),
      metric(
        'refusals_total',
        'counter',
        'API and MCP requests refused for their key or limits, by the contract’s error code: missing_api_key and invalid_api_key (401), api_key_revoked (403), rate_limit_exceeded (429, the minute), quota_exceeded (429, the month) and key_restricted (403, outside the key’s origins or address ranges).',
        REFUSAL_CODES.map((reason, i) => ({ labels: { reason }, value: cells[OFFSETS.refusals + i] })),
      ),
      metric(
        'answers_total',
        'counter',
        'Timetable answers by where they came from: read from the precomputed store, kept answers given again, or computed live.',
        (['store', 'kept', 'live'] as const).map((source) => ({ labels: { source }, value: answers?.[source] ?? 0 })),
      ),
    ];
    if (!this.sources.fleet) return metrics;
    const { cumulative, sum } = readHistogram(cells, OFFSETS.redisLatency, REDIS_BUCKETS);
    const followerAt = cells[OFFSETS.followerCurrentAt];
    metrics.push(
      metric('redis_call_duration_seconds', 'histogram', 'Counting calls on Redis that it answered (one per counted request, fleet mode), by duration.', histogramValues('redis_call_duration_seconds', REDIS_BUCKETS, cumulative, sum, {})),
      metric('redis_call_failures_total', 'counter', 'Counting calls on Redis that failed or timed out (REDIS_COMMAND_TIMEOUT_MS).', [{ labels: {}, value: cells[OFFSETS.redisFailures] }]),
      metric('redis_up', 'gauge', '1 when every serving thread counts its limits on Redis, 0 when one counts as LIMITS_ON_REDIS_FAILURE says.', [{ labels: {}, value: cells[OFFSETS.onRedis] }], 'min'),
      metric(
        'accounts_follower_lag_seconds',
        'gauge',
        'How long ago the change follower last knew its copy of accounts and keys current (the most behind serving thread; about 2 s when quiet).',
        followerAt > 0 ? [{ labels: {}, value: Math.max(0, (this.now() - followerAt) / 1000) }] : [],
        'max',
      ),
    );
    return metrics;
  }

  /** The store a thread serves from: its build (one series per build in use), age, and whether it is set aside. */
  private storeMetrics(report: ThreadReport): MetricJson[] {
    const { build, builtAt, problem, setAside } = report.store;
    const built = builtAt ? Date.parse(builtAt) / 1000 : NaN;
    const metrics = [
      metric('store_problem', 'gauge', 'Serving threads whose precomputed store is expected and cannot be read (city answers are 503).', [{ labels: {}, value: problem ? 1 : 0 }]),
      metric('store_set_aside', 'gauge', 'Serving threads whose live build is set aside (another catalog, other zone rules or methods): answers are computed live.', [{ labels: {}, value: setAside ? 1 : 0 }]),
    ];
    if (build === undefined || !Number.isFinite(built)) return metrics;
    metrics.push(
      metric('store_info', 'gauge', 'The precomputed build the serving threads answer from (1 per build in use).', [{ labels: { build }, value: 1 }], 'max'),
      metric('store_built_timestamp_seconds', 'gauge', 'When the oldest build in use was built (Unix time).', [{ labels: {}, value: built }], 'min'),
      metric('store_age_seconds', 'gauge', 'How old the oldest build in use is.', [{ labels: {}, value: Math.max(0, this.now() / 1000 - built) }], 'max'),
    );
    return metrics;
  }

  /** The primary's own figures. */
  private ownMetrics(threads: ThreadView[]): MetricJson[] {
    const metrics = [
      metric('threads', 'gauge', 'Serving threads configured (WORKERS).', [{ labels: {}, value: threads.length }]),
      metric('thread_restarts_total', 'counter', 'Serving threads started again after they ended unexpectedly.', [{ labels: {}, value: this.sources.restarts() }]),
      metric('thread_report_timeouts_total', 'counter', 'Scrapes a serving thread did not answer in time (its own figures are missing from that scrape).', [{ labels: {}, value: this.sources.reportTimeouts() }]),
      metric(
        'thread_busy_seconds_total',
        'counter',
        'Time each thread’s event loop was busy (not waiting for I/O); its rate is the event loop utilization.',
        [
          { labels: { thread: 'primary' }, value: performance.eventLoopUtilization().active / 1000 },
          ...threads.flatMap((t, i) => (t.busyMs === undefined ? [] : [{ labels: { thread: String(i) }, value: t.busyMs / 1000 }])),
        ],
      ),
    ];
    const writer = this.sources.usageWriter();
    if (writer) {
      metrics.push(
        metric('usage_write_lag_seconds', 'gauge', 'Since the usage counts were last written to the account store (every second; a crash loses this much).', [{ labels: {}, value: Math.max(0, (this.now() - writer.lastWrittenAt) / 1000) }]),
        metric('usage_write_failures_total', 'counter', 'Writes of the usage counts that failed (retried with the next write).', [{ labels: {}, value: writer.failures }]),
      );
    }
    const precompute = readPrecomputeRecord(this.sources.dataDir);
    if (precompute) {
      const { last, lastSuccess } = precompute;
      metrics.push(
        metric('precompute_last_outcome', 'gauge', 'The last precompute (`npm run cli -- precompute`, the nightly job): 1 for its outcome, running, succeeded or failed.', (['running', 'succeeded', 'failed'] as const).map((outcome) => ({ labels: { outcome }, value: last.outcome === outcome ? 1 : 0 }))),
        metric('precompute_last_started_timestamp_seconds', 'gauge', 'When the last precompute started (Unix time).', [{ labels: {}, value: Date.parse(last.startedAt) / 1000 }]),
      );
      if (last.seconds !== undefined) metrics.push(metric('precompute_last_duration_seconds', 'gauge', 'How long the last finished precompute took.', [{ labels: {}, value: last.seconds }]));
      if (lastSuccess?.finishedAt) {
        metrics.push(metric('precompute_last_success_timestamp_seconds', 'gauge', 'When the last successful precompute finished (Unix time).', [{ labels: {}, value: Date.parse(lastSuccess.finishedAt) / 1000 }]));
      }
    }
    const about = threads.find((t) => t.about)?.about;
    metrics.push(
      metric('info', 'gauge', 'What this server computes with: the tz database release and its source, and the fingerprint of the methods’ rules.', [
        { labels: { tzdata: this.sources.tzdata.version, tzdata_source: this.sources.tzdata.source, methods_fingerprint: about?.methodsFingerprint ?? 'unknown' }, value: 1 },
      ], 'first'),
    );
    return metrics;
  }
}
