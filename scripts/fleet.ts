// `make fleet`: a local fleet for trying fleet mode (docs/fleet.md, "Running it"). One redis-server with its data in
// DATA_DIR/redis (AOF on, as in production) and three servers (WORKERS=1) on ports 8081, 8082 and 8083 sharing it
// through REDIS_URL; a demo key made with the CLI against that Redis; Ctrl-C stops the servers, then Redis.
// On one machine the three read the same DATA_DIR's catalog and store; in production each host has its own and
// follows the published store (STORE_URL).
// Usage: make fleet   (FLEET_REDIS_PORT=6379, FLEET_PORTS=8081,8082,8083; LOG_LEVEL=warn unless set)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REDIS_SERVER } from '../testing/redisServer.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA_DIR = path.resolve(process.env.DATA_DIR || './data');
const REDIS_DIR = path.join(DATA_DIR, 'redis');
const REDIS_PORT = Number(process.env.FLEET_REDIS_PORT || 6379);
const PORTS = (process.env.FLEET_PORTS || '8081,8082,8083').split(',').map(Number);
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
const START_TIMEOUT_MS = 60_000;

const children: ChildProcess[] = [];
// Their own process groups: Ctrl-C reaches only this script, which stops the servers before Redis (a Redis that went
// first would have every server log it as lost while stopping).
const own = { detached: true } as const;

/**
 * Passes each line of a child's output to `onLine`, and prints it with a prefix naming the child when `shown` says so
 * (the servers' log lines; not their banners, which the summary replaces, nor Redis's start-up chatter).
 */
function relay(child: ChildProcess, name: string, shown: (line: string) => boolean, onLine?: (line: string) => void): void {
  for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        onLine?.(line);
        if (line.trim() !== '' && (out === process.stderr || shown(line))) out.write(`[${name}] ${line}\n`);
      }
    });
  }
}

/**
 * Resolves when a line of the child's output matches; rejects (with what it printed) when it exits first or after the
 * timeout.
 */
function waitForLine(child: ChildProcess, name: string, pattern: RegExp, shown: (line: string) => boolean): Promise<void> {
  const printed: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in ${START_TIMEOUT_MS / 1000} s:\n${printed.join('\n')}`)), START_TIMEOUT_MS);
    relay(child, name, shown, (line) => {
      printed.push(line);
      if (pattern.test(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? child.signalCode}) before it was ready:\n${printed.join('\n')}`));
    });
  });
}
const isLogLine = (line: string): boolean => line.startsWith('{');

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    const [redis, ...servers] = children;
    // Servers first (each writes what it holds and closes its connections), then Redis (a clean SHUTDOWN: the AOF
    // is complete).
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(servers.map(exited));
    redis?.kill('SIGTERM');
    if (redis) await exited(redis);
    process.stdout.write('Fleet stopped.\n');
  }
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
// If this script dies anyway, its detached children must not outlive it.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

try {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is missing: make redis installs it`);
  mkdirSync(REDIS_DIR, { recursive: true });
  const redis = spawn(
    REDIS_SERVER,
    ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--dir', REDIS_DIR, '--save', '', '--appendonly', 'yes',
      '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction', '--protected-mode', 'yes', '--daemonize', 'no'],
    { ...own, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(redis);
  await waitForLine(redis, 'redis', /Ready to accept connections/, (line) => / # /.test(line) && !/oO0OoO0Oo|Redis version|Configuration loaded|Server initialized|overcommit/.test(line));

  const fleetEnv = { ...process.env, DATA_DIR, REDIS_URL, HOST: '127.0.0.1', WORKERS: '1', LOG_LEVEL: process.env.LOG_LEVEL || 'warn' };
  // The demo key lives in Redis like every key of the fleet; the CLI prints it (and keeps it in DATA_DIR/demo-key.txt).
  const demo = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli/main.ts'), 'demo'], {
    cwd: ROOT,
    env: { ...fleetEnv, PORT: String(PORTS[0]) },
    encoding: 'utf8',
  });
  if (demo.status !== 0) throw new Error(`npm run cli -- demo failed with REDIS_URL=${REDIS_URL}:\n${demo.stdout}${demo.stderr}`);
  const demoKey = /\b(mk_[0-9A-Za-z]{32})\b/.exec(demo.stdout)?.[1];

  await Promise.all(
    PORTS.map((port) => {
      const server = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/process/main.ts')], {
        ...own,
        cwd: ROOT,
        env: { ...fleetEnv, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(server);
      return waitForLine(server, String(port), /"event":"listening"/, isLogLine);
    }),
  );

  const urls = PORTS.map((port) => `http://127.0.0.1:${port}`);
  process.stdout.write(
    `\nFleet mode: ${PORTS.length} servers (one thread each) sharing Redis at ${REDIS_URL} (data in ${REDIS_DIR}, AOF on).\n` +
      urls.map((url) => `  ${url}   (${url}/readyz for a load balancer)\n`).join('') +
      (demoKey
        ? `Demo key (business plan, in Redis): ${demoKey}\n` +
          `  The same count on every server; ask each in turn:\n` +
          `  for p in ${PORTS.join(' ')}; do curl -s -D - -o /dev/null -H 'X-API-Key: ${demoKey}' "http://127.0.0.1:$p/api/v1/qibla?lat=41&lon=29" | grep -i '^x-quota-remaining'; done\n`
        : demo.stdout) +
      `The CLI on the same Redis: REDIS_URL=${REDIS_URL} npm run cli -- keys create --email you@example.com\n` +
      `Ctrl-C stops the servers, then Redis.\n\n`,
  );
  // A server or Redis that ends on its own ends the fleet: a half fleet is not what was asked for.
  for (const child of children) void exited(child).then(() => {
    if (!stopping) {
      process.stderr.write(`a fleet process ended (${child.spawnfile}, ${child.exitCode ?? child.signalCode}): stopping the rest\n`);
      void stopAll(1);
    }
  });
} catch (error) {
  // (A Ctrl-C during start-up ends the servers that were starting: not an error to report.)
  if (!stopping) process.stderr.write(`make fleet: ${(error as Error).message}\n`);
  await stopAll(1);
}
