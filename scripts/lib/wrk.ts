// Running wrk (Debian's package, installed here when missing) and reading its numbers.
import { execFile, execFileSync, spawnSync } from 'node:child_process';

export function ensureWrk(): void {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  console.error('wrk is missing: installing it from Debian (apt-get install wrk)…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

export interface WrkResult {
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
  /** wrk's whole output (a script's done() prints there). */
  output: string;
}

const toMs = (value: string, unit: string): number => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit];

export interface WrkOptions {
  connections: number;
  seconds: number;
  threads?: number;
  headers?: Record<string, string>;
  script?: string;
  /** Arguments handed to the script's init() (after `--`). */
  scriptArgs?: string[];
}

function wrkArgs(url: string, options: WrkOptions): string[] {
  const args = ['-t', String(options.threads ?? 1), '-c', String(options.connections), '-d', `${options.seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.script) args.push('-s', options.script);
  return [...args, url, ...(options.scriptArgs ? ['--', ...options.scriptArgs] : [])];
}

function parseWrk(out: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /\s50%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  if (!rps || !p50 || !p99) throw new Error(`cannot read wrk's output:\n${out}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requestsPerSecond: Number(rps[1]),
    p50ms: toMs(p50[1], p50[2]),
    p99ms: toMs(p99[1], p99[2]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    errors: errors ? errors.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
    output: out,
  };
}

/** Runs wrk and waits for it. */
export function runWrk(url: string, options: WrkOptions): WrkResult {
  return parseWrk(execFileSync('wrk', wrkArgs(url, options), { encoding: 'utf8' }));
}

/** Runs wrk in the background: the caller can watch the server meanwhile. */
export function startWrk(url: string, options: WrkOptions): Promise<WrkResult> {
  return new Promise((resolve, reject) => {
    execFile('wrk', wrkArgs(url, options), { encoding: 'utf8', maxBuffer: 16 << 20 }, (error, out) => {
      if (error) reject(error);
      else resolve(parseWrk(out));
    });
  });
}
