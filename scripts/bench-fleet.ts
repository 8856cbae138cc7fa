// What fleet mode's limits cost per request: one endpoint with a valid key on an embedded server (the shared-memory
// table) and on a server with REDIS_URL (one Lua script on Redis per request), one serving thread each, measured
// alternately in one run so that the machine's drift touches both alike. Redis is a redis-server of the test
// harness's (loopback, AOF on with appendfsync everysec, as docs/fleet.md recommends).
// Usage: npm run bench:fleet   (BENCH_SECONDS per round, default 8; installs wrk when missing)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { openRedis, redisReady } from '../server/accounts/redisConnection.js';
import { startRedis } from '../testing/redisServer.js';
import { provisionKey, startServer } from '../testing/serverProcess.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const ROUNDS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 64;
// The cheapest endpoint (where counting weighs most) and a typical live one.
const ENDPOINTS = ['/api/v1/qibla?lat=41.0082&lon=28.9784', '/api/v1/times?lat=41.0082&lon=28.9784&date=2026-03-01'];

ensureWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'bench-fleet-'));
const plansFile = path.join(dir, 'plans.json');
// A plan no benchmark can exhaust, so every request goes the whole way (check, count, answer).
writeFileSync(plansFile, JSON.stringify({ business: { perMinute: 1e12, perMonth: 1e15 } }));
const redis = await startRedis();
const keys = {
  embedded: await provisionKey(path.join(dir, 'embedded'), 'bench@example.com', 'business'),
  // In fleet mode the key lives in Redis, as the CLI with REDIS_URL makes it.
  fleet: await provisionKey(path.join(dir, 'fleet'), 'bench@example.com', 'business', redis.url),
};
const servers = {
  embedded: await startServer({ DATA_DIR: path.join(dir, 'embedded'), PLANS_FILE: plansFile, LOG_LEVEL: 'warn' }),
  fleet: await startServer({ DATA_DIR: path.join(dir, 'fleet'), PLANS_FILE: plansFile, LOG_LEVEL: 'warn', REDIS_URL: redis.url }),
};
await new Promise((r) => setTimeout(r, 600));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary: string[] = [];
try {
  for (const endpoint of ENDPOINTS) {
    const runs: Record<'embedded' | 'fleet', Array<{ rps: number; p50: number; p99: number }>> = { embedded: [], fleet: [] };
    for (const which of ['embedded', 'fleet'] as const) {
      runWrk(servers[which].baseUrl + endpoint, { connections: CONNECTIONS, seconds: 2, headers: { 'X-API-Key': keys[which] } });
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const which of round % 2 ? (['embedded', 'fleet'] as const) : (['fleet', 'embedded'] as const)) {
        const r = runWrk(servers[which].baseUrl + endpoint, { connections: CONNECTIONS, seconds: SECONDS, headers: { 'X-API-Key': keys[which] } });
        if (r.non2xx || r.errors) throw new Error(`${which}: ${r.non2xx} non-2xx responses, ${r.errors} socket errors`);
        runs[which].push({ rps: r.requestsPerSecond, p50: r.p50ms, p99: r.p99ms });
        console.log(`${endpoint.split('?')[0]} round ${round} ${which.padEnd(8)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50ms.toFixed(2)} ms  p99 ${r.p99ms.toFixed(2)} ms`);
      }
    }
    const row = (which: 'embedded' | 'fleet') =>
      `${median(runs[which].map((r) => r.rps)).toFixed(0)} req/s (p50 ${median(runs[which].map((r) => r.p50)).toFixed(2)} ms, p99 ${median(runs[which].map((r) => r.p99)).toFixed(2)} ms)`;
    const ratio = median(runs.fleet.map((r) => r.rps)) / median(runs.embedded.map((r) => r.rps));
    const perRequestUs = 1e6 / median(runs.fleet.map((r) => r.rps)) - 1e6 / median(runs.embedded.map((r) => r.rps));
    summary.push(
      `GET ${endpoint}\n  embedded: ${row('embedded')}\n  fleet (Redis): ${row('fleet')}\n  ratio fleet/embedded: ${ratio.toFixed(3)}; ` +
        `${perRequestUs.toFixed(1)} µs more per request at full load (wrk, the server and Redis share this machine's cores)`,
    );
  }
  // The fleet server's requests were counted in Redis, not elsewhere.
  const check = openRedis({ url: redis.url, commandTimeoutMs: 2000, role: 'bench' });
  await redisReady(check, 5000);
  const [usageKey] = await check.keys('pt:usage:*');
  summary.push(`Redis counted ${await check.hget(usageKey, 'monthCount')} requests of the fleet server this month.`);
  check.disconnect();
} finally {
  await servers.embedded.stop();
  await servers.fleet.stop();
  await redis.stop();
}
console.log(`\nwrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} alternating rounds each (medians), one serving thread per server, ${cpus().length} cores (${cpus()[0].model}), Node ${process.version}:\n${summary.join('\n')}`);
