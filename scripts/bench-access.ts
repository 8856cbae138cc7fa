// What the key check and the counting cost: requests per second of one endpoint with keys and quotas, and of
// the same endpoint with them switched off (ACCESS_CONTROL=off), measured alternately in one run.
// Usage: npm run bench:access   (installs wrk from Debian when missing)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { provisionKey, startServer } from '../testing/serverProcess.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const ROUNDS = 3;
const SECONDS = 8;
const CONNECTIONS = 64;
// The cheapest endpoint (where the check weighs most) and a typical one.
const ENDPOINTS = ['/api/v1/qibla?lat=41.0082&lon=28.9784', '/api/v1/times?lat=41.0082&lon=28.9784&date=2026-03-01'];

ensureWrk();
const dir = mkdtempSync(path.join(tmpdir(), 'bench-access-'));
const plansFile = path.join(dir, 'plans.json');
// A plan no benchmark can exhaust, so every request goes the whole way (check, count, answer).
writeFileSync(plansFile, JSON.stringify({ business: { perMinute: 1e9, perMonth: 1e12 } }));
const key = await provisionKey(path.join(dir, 'on'), 'bench@example.com', 'business');
const on = await startServer({ DATA_DIR: path.join(dir, 'on'), PLANS_FILE: plansFile, LOG_LEVEL: 'warn' });
const off = await startServer({ DATA_DIR: path.join(dir, 'off'), ACCESS_CONTROL: 'off', LOG_LEVEL: 'warn' });
await new Promise((r) => setTimeout(r, 600));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary: string[] = [];
try {
  for (const endpoint of ENDPOINTS) {
    const rates: Record<'on' | 'off', number[]> = { on: [], off: [] };
    // Warm both up, then alternate so that drift on the machine touches both alike.
    runWrk(on.baseUrl + endpoint, { connections: CONNECTIONS, seconds: 2, headers: { 'X-API-Key': key } });
    runWrk(off.baseUrl + endpoint, { connections: CONNECTIONS, seconds: 2 });
    for (let round = 1; round <= ROUNDS; round++) {
      for (const which of ['on', 'off'] as const) {
        const r = runWrk((which === 'on' ? on : off).baseUrl + endpoint, {
          connections: CONNECTIONS,
          seconds: SECONDS,
          headers: which === 'on' ? { 'X-API-Key': key } : {},
        });
        if (r.non2xx || r.errors) throw new Error(`${which}: ${r.non2xx} non-2xx responses, ${r.errors} socket errors`);
        rates[which].push(r.requestsPerSecond);
        console.log(`${endpoint.split('?')[0]} round ${round} keys ${which.padEnd(3)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50ms.toFixed(2)} ms  p99 ${r.p99ms.toFixed(2)} ms`);
      }
    }
    summary.push(
      `GET ${endpoint}\n  keys and quotas on: ${median(rates.on).toFixed(0)} req/s, switched off: ${median(rates.off).toFixed(0)} req/s (medians)` +
        `\n  ratio on/off: ${(median(rates.on) / median(rates.off)).toFixed(3)} (target at least 0.9)`,
    );
  }
} finally {
  await on.stop();
  await off.stop();
}
console.log(`\nwrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds each, ${cpus().length} cores:\n${summary.join('\n')}`);
