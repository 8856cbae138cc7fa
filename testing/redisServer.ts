// Starts a real redis-server (Debian's package, testing/install-redis.sh) on a free loopback port for a test, with a
// directory of its own (AOF on, as in production), and stops or kills it. The package's own service is never used.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface RunningRedis {
  url: string;
  port: number;
  dir: string;
  process: ChildProcess;
  /** SIGKILL, as a crash: what was not yet in the AOF is lost (appendfsync everysec). */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (after kill or stop), reading its AOF back. */
  restart(): Promise<void>;
  /** A clean stop; the directory is removed unless `keep`. */
  stop(keep?: boolean): Promise<void>;
}

/** A loopback port no one listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function launch(port: number, dir: string, timeoutMs: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes',
    '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction', '--protected-mode', 'yes', '--daemonize', 'no',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const exitOf = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

export async function startRedis(timeoutMs = 10_000): Promise<RunningRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), 'prayer-times-redis-'));
  const port = await freePort();
  const running: RunningRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    process: await launch(port, dir, timeoutMs),
    async kill() {
      const exited = exitOf(running.process);
      running.process.kill('SIGKILL');
      await exited;
    },
    async restart() {
      await exitOf(running.process);
      running.process = await launch(port, dir, timeoutMs);
    },
    async stop(keep = false) {
      const exited = exitOf(running.process);
      running.process.kill('SIGTERM');
      await exited;
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
  return running;
}
