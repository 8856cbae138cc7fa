// A fleet for the tests (contract, "Fleet mode"): one real redis-server on a free loopback port and N real server
// processes (WORKERS=1, each with a DATA_DIR of its own holding the test catalog) sharing it through REDIS_URL, a
// client that spreads requests round-robin over the servers, the CLI against the same Redis, and the faults the
// tests need (kill -9 of a server or of Redis, Redis restarted on its AOF). stop() removes everything, also after a
// failed start or a failed test, and a test process that dies takes its children with it.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { PlanLimits, PlanName } from '../server/accounts/plans.js';
import { redisKeys } from '../server/accounts/redisKeys.js';
import { startRedis, type RunningRedis } from './redisServer.js';
import { dataDirWithCatalog, runCli, startServer, type RunningServer } from './serverProcess.js';

export interface FleetOptions {
  /** A data directory with a built catalog (inject('catalogDataDir')); each server gets its own directory over it. */
  catalogDataDir: string;
  /** How many servers (default three). */
  servers?: number;
  /** Plan overrides written to a PLANS_FILE that every server and the CLI read. */
  plans?: Partial<Record<PlanName, Partial<PlanLimits>>>;
  /** More environment for every server (LIMITS_ON_REDIS_FAILURE, REDIS_COMMAND_TIMEOUT_MS, PUBLIC_BASE_URL, …). */
  env?: Record<string, string>;
}

export interface FleetAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON when it is JSON, else its text. */
  body: any;
  /** Which server answered (an index into fleet.servers). */
  server: number;
  /** From sending the request to the end of the body. */
  ms: number;
}

export interface FleetRequest {
  key?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** A given server instead of the next one in turn. */
  server?: number;
}

export interface CreatedKey {
  key: string;
  accountId: string;
  plan: PlanName;
}

export interface Fleet {
  redis: RunningRedis;
  /** Every server started, in order; a killed one stays in its place (see alive). */
  servers: RunningServer[];
  /** What every server and the CLI share: REDIS_URL and PLANS_FILE (when plans were given). */
  sharedEnv: Record<string, string>;
  /** The indexes of the servers not killed. */
  alive(): number[];
  /** One request, to the next living server in turn (as a load balancer would), or to `server`. */
  request(pathAndQuery: string, options?: FleetRequest): Promise<FleetAnswer>;
  /** A JSON-RPC POST to /mcp (stateless: no session needed), round-robin as request(). */
  mcp(key: string, method: string, params?: unknown, server?: number): Promise<FleetAnswer>;
  /** The operator CLI against the fleet's Redis (`node --import tsx cli/main.ts …` with REDIS_URL). */
  cli(args: string[], env?: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** `keys create` through the CLI; throws with its output if it fails. */
  createKey(email: string, plan?: PlanName): Promise<CreatedKey>;
  /** A short-lived connection to the fleet's Redis for reading what the servers wrote. */
  withRedis<T>(use: (redis: Redis) => Promise<T>): Promise<T>;
  /** The account's count for the current UTC month as Redis holds it (0 when it holds none). */
  monthCount(accountId: string): Promise<number>;
  /** SIGKILL of one server: the others go on. */
  killServer(index: number): Promise<void>;
  /** SIGKILL of Redis (a crash). */
  killRedis(): Promise<void>;
  /** Redis again on the same port and AOF. */
  restartRedis(): Promise<void>;
  /** Stops every server and Redis and removes their directories; safe to call twice and after a failed start. */
  stop(): Promise<void>;
}

/** Children still running, killed when the test process ends without stopping them (a crashed test run). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
const track = (child: ChildProcess): void => {
  running.add(child);
  child.once('exit', () => running.delete(child));
};

async function parsedBody(res: Response): Promise<any> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const count = options.servers ?? 3;
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  const killed = new Set<number>();
  let redis: RunningRedis | undefined;
  let stopped = false;

  const sharedEnv: Record<string, string> = {};
  // The CLI's own DATA_DIR: it must not touch a server's directory (nor the developer's ./data).
  const cliDir = mkdtempSync(path.join(tmpdir(), 'prayer-times-fleet-cli-'));
  dirs.push(cliDir);
  if (options.plans) {
    const plansFile = path.join(cliDir, 'plans.json');
    writeFileSync(plansFile, JSON.stringify(options.plans));
    sharedEnv.PLANS_FILE = plansFile;
  }

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    // Servers first, so none logs a lost Redis while it stops; each stop waits for its process to end.
    await Promise.allSettled(servers.map((s, i) => (killed.has(i) ? Promise.resolve() : s.stop())));
    if (redis) await redis.stop().catch(() => undefined);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }

  try {
    redis = await startRedis();
    track(redis.process);
    sharedEnv.REDIS_URL = redis.url;
    const started = await Promise.allSettled(
      Array.from({ length: count }, () => {
        const dataDir = dataDirWithCatalog(options.catalogDataDir);
        dirs.push(dataDir);
        return startServer({ ...options.env, ...sharedEnv, DATA_DIR: dataDir, WORKERS: '1' });
      }),
    );
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    for (const server of servers) track(server.process);
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await stop();
    throw error;
  }
  const fleetRedis = redis;

  let turn = 0;
  const alive = (): number[] => servers.map((_, i) => i).filter((i) => !killed.has(i));
  const nextServer = (): number => {
    const living = alive();
    if (living.length === 0) throw new Error('every server of the fleet was killed');
    return living[turn++ % living.length];
  };

  async function request(pathAndQuery: string, req: FleetRequest = {}): Promise<FleetAnswer> {
    const server = req.server ?? nextServer();
    const headers: Record<string, string> = { ...(req.key ? { 'X-API-Key': req.key } : {}), ...req.headers };
    const started = performance.now();
    const res = await fetch(servers[server].baseUrl + pathAndQuery, { method: req.method ?? 'GET', headers, body: req.body });
    const body = await parsedBody(res);
    return { status: res.status, headers: res.headers, body, server, ms: performance.now() - started };
  }

  let rpcId = 0;
  const mcp = (key: string, method: string, params?: unknown, server?: number): Promise<FleetAnswer> =>
    request('/mcp', {
      key,
      server,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, ...(params === undefined ? {} : { params }) }),
    });

  const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { DATA_DIR: cliDir, ...sharedEnv, ...env });

  async function createKey(email: string, plan: PlanName = 'trial'): Promise<CreatedKey> {
    const made = await cli(['keys', 'create', '--email', email, '--plan', plan]);
    if (made.code !== 0) throw new Error(`keys create failed (${made.code}):\n${made.stdout}${made.stderr}`);
    const line = made.stdout.trim().split('\n').pop()!;
    return JSON.parse(line) as CreatedKey;
  }

  async function withRedis<T>(use: (redis: Redis) => Promise<T>): Promise<T> {
    const connection = new Redis(fleetRedis.url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
    connection.on('error', () => undefined); // a failed connect rejects connect() below
    try {
      await connection.connect();
      return await use(connection);
    } finally {
      connection.disconnect();
    }
  }

  async function monthCount(accountId: string): Promise<number> {
    const usage = await withRedis((r) => r.hgetall(redisKeys.usage(accountId)));
    return usage.month === new Date().toISOString().slice(0, 7) ? Number(usage.monthCount ?? 0) : 0;
  }

  return {
    redis: fleetRedis,
    servers,
    sharedEnv,
    alive,
    request,
    mcp,
    cli,
    createKey,
    withRedis,
    monthCount,
    async killServer(index) {
      killed.add(index);
      await servers[index].stop('SIGKILL');
    },
    killRedis: () => fleetRedis.kill(),
    async restartRedis() {
      await fleetRedis.restart();
      track(fleetRedis.process);
    },
    stop,
  };
}

/** Polls `check` every 50 ms until it holds; resolves with how long that took, or rejects after `boundMs`. */
export async function within(boundMs: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > boundMs) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
