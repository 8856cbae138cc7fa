// A serving thread's own figures for a scrape (docs/operations.md, "Metrics"): its V8 heap, by space too, and the
// store it serves from. The primary asks every thread at each scrape and labels what comes back with the thread's
// number (processMetrics.ts): one scrape gives the whole process. Its event loop's busy time the primary reads
// itself, from outside (the Worker's eventLoopUtilization), at no cost to the thread.
//
// The names are prom-client's default metrics' (nodejs_heap_size_used_bytes…), so dashboards made for them work,
// but a serving thread runs no collector between scrapes: prom-client's default ones (a garbage collection observer,
// an event-loop delay timer) cost a serving thread about 4% of its CPU on /times by city, measured (docs/
// performance.md, "Metrics"), against the 3% the metrics may cost in all; these figures are read at the scrape. What
// measures the process as a whole (CPU, resident memory, descriptors, the Node.js version) would be the same in every
// thread: the primary reports it once. Nor does a thread report external memory, which counts the shared catalog and
// usage table again in every thread that attaches them.
import v8 from 'node:v8';
import { Gauge, Registry } from 'prom-client';

/** Metrics of the whole process: reported once, by the primary thread (prom-client's process_* collectors). */
export const PROCESS_WIDE = /^process_|^nodejs_version_info$/;

/** A metric as prom-client's getMetricsAsJSON gives it and AggregatorRegistry.aggregate takes it. */
export interface MetricJson {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  aggregator: 'sum' | 'first' | 'min' | 'max' | 'average' | 'omit';
  values: Array<{ value: number; labels: Record<string, string | number>; metricName?: string }>;
}

/** The store a thread serves from, as its state says (apiSurface.ts's ServerState). */
export interface ThreadStoreState {
  /** The live build's name, when the thread has one. */
  build: string | undefined;
  /** When it was built (ISO). */
  builtAt: string | undefined;
  /** The store is expected and cannot be read (503s for city answers). */
  problem: boolean;
  /** The live build is set aside (another catalog, other time-zone rules or methods): answers are computed live. */
  setAside: boolean;
}

export interface ThreadReport {
  runtime: MetricJson[];
  store: ThreadStoreState;
}

/** The thread's figures, read when `collect` is called (nothing runs in between). */
export function threadRuntimeMetrics(): { collect(): Promise<MetricJson[]> } {
  const registry = new Registry();
  const registers = [registry];
  new Gauge({
    name: 'nodejs_heap_size_total_bytes',
    help: 'V8 heap size of the thread.',
    registers,
    collect() {
      this.set(v8.getHeapStatistics().total_heap_size);
    },
  });
  new Gauge({
    name: 'nodejs_heap_size_used_bytes',
    help: 'V8 heap used by the thread.',
    registers,
    collect() {
      this.set(v8.getHeapStatistics().used_heap_size);
    },
  });
  new Gauge({
    name: 'nodejs_heap_size_limit_bytes',
    help: 'The thread’s V8 heap limit (THREAD_HEAP_MB for a serving thread, besides the young generation).',
    registers,
    collect() {
      this.set(v8.getHeapStatistics().heap_size_limit);
    },
  });
  new Gauge({
    name: 'nodejs_heap_space_size_used_bytes',
    help: 'V8 heap used by the thread, by space.',
    labelNames: ['space'],
    registers,
    collect() {
      for (const space of v8.getHeapSpaceStatistics()) this.set({ space: space.space_name.replace(/_space$/, '') }, space.space_used_size);
    },
  });
  return {
    collect: async () => (await registry.getMetricsAsJSON()) as unknown as MetricJson[],
  };
}
