// What the last precompute did, kept beside the builds in DATA_DIR/timetables/last-precompute.json: the CLI's
// `precompute` writes it when it starts (running) and when it ends (succeeded or failed, how long it took, the build
// it made), and keeps the last success's when a run fails. The server's metrics report it (the alerts say when the
// nightly job failed, or has not succeeded for too long: a run killed halfway stays "running" and ages).
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface PrecomputeRun {
  outcome: 'running' | 'succeeded' | 'failed';
  /** ISO instants. */
  startedAt: string;
  finishedAt?: string;
  seconds?: number;
  /** The build it made live (succeeded). */
  build?: string;
  /** Why it failed, in a line. */
  error?: string;
}

export interface PrecomputeRecord {
  last: PrecomputeRun;
  /** The last run that succeeded (the same as `last` when that one did), if any did. */
  lastSuccess?: PrecomputeRun;
}

export const precomputeRecordFile = (dataDir: string): string => path.join(dataDir, 'timetables', 'last-precompute.json');

/** The record, or undefined when no precompute has run through the CLI here, or it cannot be read. */
export function readPrecomputeRecord(dataDir: string): PrecomputeRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(precomputeRecordFile(dataDir), 'utf8')) as PrecomputeRecord;
    return typeof record?.last?.startedAt === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a run as the last one (whole or not at all), keeping the last success. */
export function recordPrecompute(dataDir: string, run: PrecomputeRun): void {
  const before = readPrecomputeRecord(dataDir);
  const record: PrecomputeRecord = { last: run, lastSuccess: run.outcome === 'succeeded' ? run : before?.lastSuccess };
  const file = precomputeRecordFile(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.partial`, JSON.stringify(record, null, 2) + '\n');
  renameSync(`${file}.partial`, file);
}
