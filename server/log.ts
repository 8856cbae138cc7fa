// Structured logs: one JSON object per line on stdout. Lines are buffered and written in batches so that a
// busy server does not make one write call per request.
import { writeSync } from 'node:fs';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

const FLUSH_BYTES = 64 * 1024;
const FLUSH_MS = 200;

let threshold: number = LEVELS.info;
let buffered = '';
let timer: NodeJS.Timeout | undefined;

export function setLogLevel(level: LogLevel): void {
  threshold = LEVELS[level];
}

export function enabled(level: LogLevel): boolean {
  return LEVELS[level] >= threshold;
}

export function flushLog(): void {
  if (timer) {
    clearTimeout(timer);
    timer = undefined;
  }
  if (buffered === '') return;
  const out = buffered;
  buffered = '';
  try {
    writeAtomically(out);
  } catch {
    // stdout closed: nothing more to do with the log
  }
}

/**
 * Serving threads share stdout: a write of up to PIPE_BUF bytes to a pipe is never interleaved with another, so
 * lines go out in runs of whole lines no longer than that (a longer line alone).
 */
const PIPE_BUF = 4096;
function writeAtomically(lines: string): void {
  if (lines.length * 3 <= PIPE_BUF) {
    writeSync(1, lines);
    return;
  }
  const bytes = Buffer.from(lines);
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + PIPE_BUF);
    if (end < bytes.length) {
      const lastNewline = bytes.lastIndexOf(0x0a, end - 1);
      end = lastNewline >= start ? lastNewline + 1 : bytes.indexOf(0x0a, end) + 1 || bytes.length;
    }
    start += writeSync(1, bytes, start, end - start);
  }
}

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  if (!enabled(level)) return;
  buffered += JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }) + '\n';
  // Warnings and errors go out at once; request lines may wait a moment.
  if (LEVELS[level] >= LEVELS.warn || buffered.length >= FLUSH_BYTES) flushLog();
  else if (!timer) timer = setTimeout(flushLog, FLUSH_MS).unref();
}
