// Fleet mode end to end: two real servers (each with its own DATA_DIR) on one real redis-server; the operator's CLI
// with the same REDIS_URL creates a key that both accept, and a revocation and a plan change that both apply within a
// second. Without a reachable Redis the CLI says so and fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRedis, type RunningRedis } from '../testing/redisServer.js';
import { runCli, startServer, type RunningServer } from '../testing/serverProcess.js';

const PATH = '/api/v1/qibla?lat=41&lon=29';

async function status(server: RunningServer, key: string): Promise<{ status: number; code?: string; limit: string | null }> {
  const response = await fetch(server.baseUrl + PATH, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code, limit: response.headers.get('ratelimit-limit') };
}

/** Polls until every server answers as `expected` says, for at most `withinMs`. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('fleet mode: accounts and keys in Redis, the CLI and two servers', () => {
  let redis: RunningRedis;
  let servers: RunningServer[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedis();
    env = { REDIS_URL: redis.url };
    servers = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
  });

  it('a key made by the CLI works on every server; its revocation and plan change reach every server within a second', async () => {
    const created = await runCli(['keys', 'create', '--email', 'fleet@example.com', '--plan', 'trial', '--name', 'fleet key'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { key, accountId, plan } = JSON.parse(created.stdout) as { key: string; accountId: string; plan: string };
    expect(plan).toBe('trial');
    await within(1000, async () => (await Promise.all(servers.map((s) => status(s, key)))).every((r) => r.status === 200 && r.limit === '10'));

    const listed = await runCli(['keys', 'list', '--email', 'fleet@example.com'], env);
    expect(JSON.parse(listed.stdout)).toMatchObject({ accountId, name: 'fleet key', plan: 'trial', revokedAt: null });

    const moved = await runCli(['accounts', 'set-plan', '--email', 'fleet@example.com', '--plan', 'pro'], env);
    expect(moved.code).toBe(0);
    await within(1000, async () => (await Promise.all(servers.map((s) => status(s, key)))).every((r) => r.status === 200 && r.limit === '60'));

    const revoked = await runCli(['keys', 'revoke', key.slice(0, 9)], env);
    expect(revoked.code).toBe(0);
    await within(1000, async () => (await Promise.all(servers.map((s) => status(s, key)))).every((r) => r.status === 403 && r.code === 'api_key_revoked'));
  });

  it('the CLI fails with a clear message when Redis cannot be reached', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const result = await runCli(['keys', 'list'], { REDIS_URL: nobody });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: cannot use Redis at redis://127\\.0\\.0\\.1:\\d+/?: `));
  });
});
