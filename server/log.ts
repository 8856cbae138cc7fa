// Structured logs: one JSON object per line on stdout. Lines are buffered and written in batches, from a timer
// rather than from the request that fills the buffer, so that a busy server makes no write call on a request's path;
// warnings and errors are written at once. The request line (requestLine) is put together by hand, not through
// JSON.stringify of an object: at tens of thousands of requests a second per thread that was most of its cost.
import { writeSync } from 'node:fs';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

/** Past this much buffered, a line flushes at once (the timer normally comes first: 100 ms of a busy thread is less). */
const FLUSH_BYTES = 1024 * 1024;
const FLUSH_MS = 100;

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

let isoMs = NaN;
let iso = '';
/** The time as ISO 8601, made once per millisecond. */
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    iso = new Date(now).toISOString();
  }
  return iso;
}

function append(line: string, level: LogLevel): void {
  buffered += line;
  // Warnings and errors go out at once; other lines wait for the timer.
  if (LEVELS[level] >= LEVELS.warn || buffered.length >= FLUSH_BYTES) flushLog();
  else if (!timer) timer = setTimeout(flushLog, FLUSH_MS).unref();
}

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  if (!enabled(level)) return;
  append(JSON.stringify({ time: isoNow(), level, event, ...fields }) + '\n', level);
}

/** Text that JSON writes as it is between quotes (no quote, backslash, control or non-ASCII character). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const quoted = (text: string): string => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));

/**
 * A request line at info level: the same JSON object as log('info', 'request', {...}) gives, field for field, made
 * without building the object. `sample`: the line stands for this many requests (edge.ts samples the request log).
 */
export function requestLine(requestId: string, method: string, path: string, status: number, code: string | undefined, ms: number, sample?: number): void {
  if (LEVELS.info < threshold) return;
  append(
    `{"time":"${isoNow()}","level":"info","event":"request","requestId":${quoted(requestId)},"method":${quoted(method)},"path":${quoted(path)},"status":${status}${code === undefined ? '' : `,"code":${quoted(code)}`},"ms":${ms}${sample === undefined ? '' : `,"sample":${sample}`}}\n`,
    'info',
  );
}
