// Faults: the store going missing or corrupt under a running server, clients that misbehave (disconnecting, slow,
// oversized), and the server killed with SIGKILL under load. Each test checks the fault's own outcome and that the
// clients who did nothing wrong were answered as usual meanwhile. (A precompute killed halfway: store.test.ts.)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { precompute } from '../../pipeline/precompute/precompute.js';
import { currentBuild, timetablesDir } from '../../pipeline/store/timetableStore.js';
import type { AccountStore } from '../accounts/accountStore.js';
import { openAccountStore } from '../accounts/openStores.js';
import { dataDirWithCatalog as sharedCatalogDir, provisionKey, startServer, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

const dataDirWithCatalog = () => sharedCatalogDir(inject('catalogDataDir'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const YEAR = new Date().getUTCFullYear();

async function get(server: RunningServer, key: string, p: string) {
  const res = await fetch(server.baseUrl + p, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as any };
}
const rssMb = (server: RunningServer) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))![1]) / 1024;
const health = async (server: RunningServer) => (await (await fetch(`${server.baseUrl}/healthz`)).json()) as any;

async function waitFor(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * A well-behaved client asking again and again until stopped: every answer must be a 200, none slow. What it saw is
 * returned by stop().
 */
function wellBehavedClient(server: RunningServer, key: string, p: string) {
  let running = true;
  const statuses: number[] = [];
  let slowestMs = 0;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(server.baseUrl + p, { headers: { 'X-API-Key': key } });
        await res.arrayBuffer();
        statuses.push(res.status);
      } catch {
        statuses.push(0); // no answer at all
      }
      slowestMs = Math.max(slowestMs, performance.now() - started);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { statuses, slowestMs };
    },
  };
}

/** Sends raw bytes; resolves with what came back before the server closed the connection (or the timeout). */
function rawExchange(port: number, request: string | Buffer, timeoutMs = 5000): Promise<{ response: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ response, closedByServer: false });
    }, timeoutMs);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (d) => (response += d.toString('latin1')));
    socket.on('error', () => undefined); // a reset is one way of closing
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response, closedByServer: true });
    });
  });
}

const CITY_TODAY = '/api/v1/times?city=istanbul';
const LIVE = '/api/v1/times?lat=21.4225&lon=39.8262';

describe('a missing or corrupt store', () => {
  it('a store deleted under a running server: 503 for city answers and one clear log line, then recovery when rebuilt', async () => {
    const dir = dataDirWithCatalog();
    const first = await precompute({ dataDir: dir, years: [YEAR], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
    const { server, key } = await startServerWithKey({ DATA_DIR: dir });
    try {
      expect((await get(server, key, CITY_TODAY)).status).toBe(200);
      expect((await health(server)).answers.store).toBe(1);

      rmSync(timetablesDir(dir), { recursive: true, force: true });
      await waitFor('the 503', async () => (await get(server, key, CITY_TODAY)).status === 503);
      const refused = await get(server, key, `${CITY_TODAY}&date=${YEAR}-03-01`);
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('service_unavailable');
      expect(refused.body.error.message).toMatch(/precomputed timetables cannot be read/);
      // Answers that never come from the store go on.
      expect((await get(server, key, LIVE)).status).toBe(200);
      expect((await get(server, key, '/api/v1/qibla?city=istanbul')).status).toBe(200);
      const degraded = await health(server);
      expect(degraded.status).toBe('degraded');
      expect(degraded.storeProblem).toContain('"current" file is gone');
      const logLines = server.output.filter((l) => l.includes('"event":"store_unreadable"'));
      expect(logLines).toHaveLength(1); // said once, not once a second
      expect(JSON.parse(logLines[0])).toMatchObject({ level: 'error', hint: 'run make precompute' });

      const second = await precompute({ dataDir: dir, years: [YEAR], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
      expect(second.build).not.toBe(first.build);
      await waitFor('recovery', async () => (await get(server, key, CITY_TODAY)).status === 200);
      const recovered = await health(server);
      expect(recovered.status).toBe('ok');
      expect(recovered.precomputed.build).toBe(second.build);
      expect(server.output.some((l) => l.includes('"event":"store_recovered"'))).toBe(true);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a corrupt build made live: a server starting on it answers 503 for cities until a good build is live', async () => {
    const dir = dataDirWithCatalog();
    await precompute({ dataDir: dir, years: [YEAR], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
    const corrupt = 'build-corrupt';
    mkdirSync(path.join(timetablesDir(dir), corrupt));
    writeFileSync(path.join(timetablesDir(dir), corrupt, 'data.mdb'), Buffer.alloc(256 * 1024, 0xab));
    writeFileSync(path.join(timetablesDir(dir), 'current'), corrupt);
    const { server, key } = await startServerWithKey({ DATA_DIR: dir });
    try {
      const r = await get(server, key, CITY_TODAY);
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('service_unavailable');
      expect((await get(server, key, LIVE)).status).toBe(200);
      const line = server.output.find((l) => l.includes('"event":"store_unreadable"'));
      expect(JSON.parse(line!)).toMatchObject({ build: corrupt });

      const good = await precompute({ dataDir: dir, years: [YEAR], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
      await waitFor('recovery', async () => (await get(server, key, CITY_TODAY)).status === 200);
      expect((await health(server)).precomputed.build).toBe(good.build);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a damaged record: that request is 503, the build is given up, and a new build recovers', async () => {
    const dir = dataDirWithCatalog();
    const built = await precompute({ dataDir: dir, years: [YEAR], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
    const { server, key } = await startServerWithKey({ DATA_DIR: dir });
    try {
      expect((await get(server, key, `${CITY_TODAY}&date=${YEAR}-01-15`)).status).toBe(200);
      // Damage every stored year in place (LMDB lets another process write while the server reads).
      const env = open({ path: path.join(timetablesDir(dir), built.build), maxDbs: 2 });
      const days = env.openDB<Buffer, string>({ name: 'days', encoding: 'binary' });
      const keys = [...days.getKeys()];
      expect(keys.length).toBeGreaterThan(0);
      await days.transaction(() => {
        for (const k of keys) void days.put(k, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]));
      });
      await env.close();

      const r = await get(server, key, `${CITY_TODAY}&date=${YEAR}-02-15`);
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('service_unavailable');
      const line = server.output.find((l) => l.includes('"event":"store_unreadable"'));
      expect(JSON.parse(line!).problem).toMatch(/a read failed/);
      expect((await health(server)).status).toBe('degraded');

      await precompute({ dataDir: dir, years: [YEAR], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
      await waitFor('recovery', async () => (await get(server, key, `${CITY_TODAY}&date=${YEAR}-02-15`)).status === 200);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('misbehaving clients', () => {
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(), WORKERS: '2' }));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('clients that disconnect before, during and after sending, or mid-response, leave the server serving', async () => {
    const client = wellBehavedClient(server, key, LIVE);
    const month = `GET /api/v1/month?lat=21.4225&lon=39.8262 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`;
    const openApi = 'GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n';
    const mcpHead = `POST /mcp HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 4000\r\n\r\n{"jsonrpc":"2.0",`;
    const hangUps = Array.from({ length: 60 }, (_, i) => {
      return new Promise<void>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
        socket.on('connect', () => {
          const kind = i % 4;
          if (kind === 0) socket.destroy(); // before sending anything
          else if (kind === 1) socket.end(month.slice(0, 30)); // halfway through the request line
          else if (kind === 2) socket.write(mcpHead, () => socket.destroy()); // in the middle of an MCP body
          else {
            socket.write(i % 8 === 3 ? month : openApi);
            socket.once('data', () => socket.destroy()); // after the first bytes of the answer
          }
        });
      });
    });
    await Promise.all(hangUps);
    const { statuses } = await client.stop();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(server.process.exitCode).toBeNull();
    expect((await health(server)).status).toBe('ok');
    expect((await get(server, key, '/api/v1/qibla?city=mecca')).status).toBe(200);
  }, 60_000);

  it('slow clients (a request a byte at a time, answers never read) do not hold others up, and idle ones are closed', async () => {
    const client = wellBehavedClient(server, key, LIVE);
    // Ten clients dribbling a request; ten asking for the OpenAPI document (a cheap answer, and the largest) 200 times
    // each and never reading; one sending nothing.
    const request = `GET /api/v1/qibla?city=mecca HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`;
    const dribblers = Array.from({ length: 10 }, () => {
      const socket = net.connect(server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      let i = 0;
      const timer = setInterval(() => (i < request.length ? socket.write(request[i++]) : clearInterval(timer)), 20);
      let answer = '';
      socket.on('data', (d) => (answer += d));
      return { socket, timer, answer: () => answer };
    });
    const pipelined = 'GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(200);
    const nonReaders = Array.from({ length: 10 }, () => {
      const socket = net.connect(server.port, '127.0.0.1', () => socket.write(pipelined));
      socket.on('error', () => undefined);
      socket.pause();
      return socket;
    });
    const silent = rawExchange(server.port, Buffer.alloc(0), 20_000);
    const rssBefore = rssMb(server);
    await sleep(4000);
    const { statuses, slowestMs } = await client.stop();
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(slowestMs).toBeLessThan(1000);
    // The dribbled requests were answered once complete.
    await waitFor('the dribbled requests', () => dribblers.every((d) => d.answer().startsWith('HTTP/1.1 200')), 10_000);
    for (const d of dribblers) d.socket.destroy();
    // The non-readers' answers are held for them (uWebSockets.js buffers them) until they go: then it is let go.
    for (const s of nonReaders) s.destroy();
    await sleep(500);
    expect(rssMb(server)).toBeLessThan(rssBefore + 100);
    // uWebSockets.js closes a connection that sends nothing within its idle timeout (about 10 s).
    expect((await silent).closedByServer).toBe(true);
    expect((await health(server)).status).toBe('ok');
  }, 60_000);

  it('oversized URLs and headers are refused; other clients are unaffected', async () => {
    const client = wellBehavedClient(server, key, LIVE);
    const long = 'a'.repeat(200_000);
    // Beyond uWebSockets.js's limit on a request head (a bit under 128 KiB): closed at once, unanswered. Beyond its
    // number of headers (about 45): never answered, and closed at its idle timeout (about 10 s).
    const [hugeUrl, hugeHeader, manyHeaders] = await Promise.all([
      rawExchange(server.port, `GET /api/v1/times?city=${long} HTTP/1.1\r\nHost: x\r\n\r\n`),
      rawExchange(server.port, `GET /api/v1/times HTTP/1.1\r\nHost: x\r\nX-Filler: ${long}\r\n\r\n`),
      rawExchange(server.port, `GET /api/v1/times HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 200 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`, 20_000),
    ]);
    for (const r of [hugeUrl, hugeHeader, manyHeaders]) {
      expect(r.closedByServer).toBe(true);
      expect(r.response).toBe('');
    }
    // Long but within that limit: the contract's 4xx, with the echo clipped.
    const longCity = await get(server, key, `/api/v1/times?city=${'a'.repeat(20_000)}`);
    expect(longCity.status).toBe(400);
    expect(longCity.body.error.code).toBe('invalid_parameter');
    const longPath = await fetch(`${server.baseUrl}/${'b'.repeat(20_000)}`);
    expect(longPath.status).toBe(404);
    expect(((await longPath.json()) as any).error.message.length).toBeLessThan(400);
    const longKey = await get(server, 'k'.repeat(20_000), LIVE);
    expect(longKey.status).toBe(401);
    const { statuses } = await client.stop();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
  }, 60_000);
});

describe('kill -9 of the server under load', () => {
  it('restarts on the same data directory, losing at most the last second of counts', async () => {
    const dir = dataDirWithCatalog();
    await precompute({ dataDir: dir, years: [YEAR], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
    const plansFile = path.join(mkdtempSync(path.join(tmpdir(), 'prayer-times-plans-')), 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ pro: { perMinute: 1_000_000, perMonth: 10_000_000 } }));
    const key = await provisionKey(dir, 'load@example.com', 'pro');
    const env = { DATA_DIR: dir, PLANS_FILE: plansFile, WORKERS: '2' };
    const server = await startServer(env);
    const answeredAt: number[] = [];
    let killedAt = 0;
    const loops = Array.from({ length: 16 }, async () => {
      while (killedAt === 0) {
        try {
          const res = await fetch(`${server.baseUrl}/api/v1/qibla?city=istanbul`, { headers: { 'X-API-Key': key } });
          await res.arrayBuffer();
          if (res.status === 200) answeredAt.push(Date.now());
        } catch {
          return; // the server is gone
        }
      }
    });
    await sleep(3500);
    killedAt = Date.now();
    server.process.kill('SIGKILL');
    await Promise.all(loops);
    await server.stop();

    const store = openAccountStore(dir);
    const account = store.accountByEmail('load@example.com')!;
    const stored = store.allUsage().get(account.id)!.monthCount;
    await store.close();
    const answeredBefore = (t: number) => answeredAt.filter((at) => at <= t).length;
    expect(answeredAt.length).toBeGreaterThan(1000);
    // Every count written was of a request the server took (at most the 16 in flight went unanswered) …
    expect(stored).toBeLessThanOrEqual(answeredAt.length + 16);
    // … and what was answered more than a second (and a flush's write) before the kill was written.
    expect(stored).toBeGreaterThanOrEqual(answeredBefore(killedAt - 1250));

    // Restarted as a supervisor would: same data, the store and the counts as left.
    const again = await startServer(env);
    try {
      const res = await fetch(`${again.baseUrl}${CITY_TODAY}`, { headers: { 'X-API-Key': key } });
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-quota-remaining'))).toBe(10_000_000 - stored - 1);
      expect(((await health(again)).precomputed.build)).toBe(currentBuild(dir));
      expect((await health(again)).answers.store).toBe(1);
    } finally {
      await again.stop();
    }
  }, 120_000);
});
