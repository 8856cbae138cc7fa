// Starts the real server as a child process on a free port and stops it: for the API tests and the scripts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStores } from '../server/accounts/openStores.js';
import type { PlanName } from '../server/accounts/plans.js';

export interface RunningServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Every stdout line so far. */
  output: string[];
  /** Sends SIGTERM (or the given signal) and waits for the exit; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const MAIN = fileURLToPath(new URL('../server/process/main.ts', import.meta.url));
/** The server's entry in another checkout, before or after the server/ folders (issue 14). */
const mainOf = (root: string): string =>
  [path.join(root, 'server/process/main.ts'), path.join(root, 'server/main.ts')].find((p) => existsSync(p)) ?? path.join(root, 'server/process/main.ts');
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts a server; without DATA_DIR in `env` it gets an empty one of its own, never the developer's ./data. `root`
 * names another checkout of the project to run instead of this one (bench:compare measures two versions side by side).
 */
export async function startServer(env: Record<string, string> = {}, timeoutMs = 30_000, root = ROOT): Promise<RunningServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'prayer-times-data-'));
  const child = spawn(process.execPath, ['--import', 'tsx', root === ROOT ? MAIN : mainOf(root)], {
    cwd: root,
    // One serving thread unless a test asks for more: most tests are about answers, not threads.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKERS: '1', ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const errors: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${errors.join('')}`)), timeoutMs);
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        output.push(line);
        if (line.includes('"event":"listening"')) {
          clearTimeout(timer);
          resolve(JSON.parse(line).port);
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${errors.join('')}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    process: child,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Creates an account and key in a data directory, or with `redisUrl` in fleet mode's Redis (before or while a server
 * uses it).
 */
export async function provisionKey(dataDir: string, email: string, plan: PlanName = 'business', redisUrl?: string): Promise<string> {
  const stores = await openStores({ dataDir, fleet: redisUrl ? { redisUrl, redisCommandTimeoutMs: 1000 } : undefined }, 'provision');
  try {
    return (await stores.accounts.createKey(email, plan)).key;
  } finally {
    await stores.close();
  }
}

/**
 * A server whose business plan is practically unlimited (a PLANS_FILE override) and a key on it: for the tests of
 * everything but the limits themselves.
 */
export async function startServerWithKey(env: Record<string, string> = {}): Promise<{ server: RunningServer; key: string }> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'prayer-times-data-'));
  const plansFile = path.join(mkdtempSync(path.join(tmpdir(), 'prayer-times-plans-')), 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
  const key = await provisionKey(dataDir, 'tests@example.com', 'business');
  const server = await startServer({ PLANS_FILE: plansFile, ...env, DATA_DIR: dataDir });
  return { server, key };
}

const CLI = fileURLToPath(new URL('../cli/main.ts', import.meta.url));

/** Runs the operator CLI as its own process, as an operator would; resolves with its output and exit code. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A new data directory that shares an existing catalog (read only), with no keys or timetables of its own. */
export function dataDirWithCatalog(catalogDataDir: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'prayer-times-data-'));
  symlinkSync(path.join(catalogDataDir, 'catalog'), path.join(dir, 'catalog'));
  return dir;
}

export interface ServerWithKey {
  server: RunningServer;
  key: string;
}

/**
 * Two servers over one catalog, with the same public base URL (so their answers compare byte for byte): one whose
 * store `fill` precomputes into its data directory, one that computes everything live.
 */
export async function storeAndLiveServers(catalogDataDir: string, fill: (dataDir: string) => Promise<unknown>): Promise<{ withStore: ServerWithKey; live: ServerWithKey; stop(): Promise<void> }> {
  const env = { PUBLIC_BASE_URL: 'https://prayer-times.example' };
  const storeDir = dataDirWithCatalog(catalogDataDir);
  await fill(storeDir);
  const withStore = await startServerWithKey({ ...env, DATA_DIR: storeDir });
  const live = await startServerWithKey({ ...env, DATA_DIR: dataDirWithCatalog(catalogDataDir) });
  return {
    withStore,
    live,
    async stop() {
      await withStore.server.stop();
      await live.server.stop();
    },
  };
}
