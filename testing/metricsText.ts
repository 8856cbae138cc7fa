// Reading the server's metrics in tests: where a running server serves them (its `metrics_listening` log line),
// a scrape, and Prometheus's text format parsed into samples.
import type { RunningServer } from './serverProcess.js';

export interface Sample {
  /** The sample's name (`…_bucket`, `…_sum` and `…_count` for a histogram's). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The metrics' URL of a server started with METRICS_PORT (from its log line). */
export function metricsUrl(server: RunningServer): string {
  const line = server.output.find((l) => l.includes('"event":"metrics_listening"'));
  if (!line) throw new Error('the server logged no metrics_listening line (METRICS_PORT unset?)');
  return (JSON.parse(line) as { url: string }).url;
}

/** Parses Prometheus's text format (0.0.4): every sample line, comments left out. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

export async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return parseMetrics(await response.text());
}

/** The samples of a name whose labels include `labels`. */
export const samplesOf = (samples: readonly Sample[], name: string, labels: Record<string, string> = {}): Sample[] =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

/** The one value of a name and labels (0 when there is no such sample: a counter never incremented). */
export function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samplesOf(samples, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}
