// The precomputed store, end to end: lookups answer exactly as live computation does, a new store goes live under
// a running server without a failed request, and a run killed halfway leaves the live store serving.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readCatalog } from '../../pipeline/catalog/catalogFile.js';
import { METHOD_IDS } from '../../pipeline/astronomy/methods.js';
import { precompute } from '../../pipeline/precompute/precompute.js';
import { currentBuild, timetablesDir } from '../../pipeline/store/timetableStore.js';
import { dataDirWithCatalog as sharedCatalogDir, startServerWithKey, storeAndLiveServers, type RunningServer, type ServerWithKey } from '../../testing/serverProcess.js';

/** A data directory that shares the test run's catalog (read only) and has no timetables yet. */
const dataDirWithCatalog = () => sharedCatalogDir(inject('catalogDataDir'));

// One public base URL, so that the two servers' Location objects can be compared byte for byte.
const serverWithKey = (dataDir: string) => startServerWithKey({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://prayer-times.example' });

const getText = async (server: RunningServer, key: string, p: string) => {
  const res = await fetch(server.baseUrl + p, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: await res.text() };
};
const health = async (server: RunningServer) => (await (await fetch(`${server.baseUrl}/healthz`)).json()) as any;

// Istanbul, Kadıköy, Tromsø, Longyearbyen, McMurdo Station, Sydney, New York, Mecca, Reykjavík, Barrow, Tarawa.
const PLACES = ['g745044', 'tr-34-kadikoy', 'g3133895', 'g2729907', 'g6696480', 'g2147714', 'g5128581', 'g104515', 'g3413829', 'g5880054', 'g2110257'];
// New Year, Ramadan, both European and American DST changes, midsummer and midwinter (polar day and night), Sydney's DST.
const DATES = ['2026-01-01', '2026-02-25', '2026-03-08', '2026-03-29', '2026-04-05', '2026-06-21', '2026-10-04', '2026-10-25', '2026-12-21', '2026-12-31'];

describe('lookup and live computation', () => {
  let withStore: ServerWithKey;
  let live: ServerWithKey;
  let servers: Awaited<ReturnType<typeof storeAndLiveServers>> | undefined;
  beforeAll(async () => {
    servers = await storeAndLiveServers(inject('catalogDataDir'), async (dataDir) => {
      const summary = await precompute({ dataDir, years: [2026], methods: 'all', madhabs: 'all', scope: `places:${PLACES.join(',')}` });
      expect(summary.done).toBe(PLACES.length * METHOD_IDS.length * 2);
    });
    ({ withStore, live } = servers);
  }, 120_000);
  afterAll(async () => {
    await servers?.stop();
  });

  it('give identical responses: every method, both madhabs, polar and DST days', async () => {
    const before = (await health(withStore.server)).answers;
    let compared = 0;
    const catalog = readCatalog(inject('catalogDataDir'))!;
    for (const id of PLACES) {
      // The site path names exactly one place.
      const city = encodeURIComponent(catalog.places.find((p) => p.id === id)!.path);
      for (const method of METHOD_IDS) {
        for (const madhab of ['shafi', 'hanafi']) {
          const requests = [
            ...DATES.map((date) => `/api/v1/times?city=${city}&date=${date}`),
            `/api/v1/month?city=${city}&year=2026&month=3`,
            `/api/v1/month?city=${city}&year=2026&month=6`,
          ].map((p) => `${p}&method=${method}&madhab=${madhab}`);
          const pairs = await Promise.all(
            requests.map(async (p) => [await getText(withStore.server, withStore.key, p), await getText(live.server, live.key, p), p] as const),
          );
          for (const [stored, computed, p] of pairs) {
            expect(stored.status, p).toBe(200);
            expect(stored.body, p).toBe(computed.body);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(PLACES.length * METHOD_IDS.length * 2 * (DATES.length + 2));
    // The store answered every one of them, the other server computed every one.
    const after = (await health(withStore.server)).answers;
    expect(after.store - before.store).toBe(compared);
    expect(after.live - before.live).toBe(0);
    expect((await health(live.server)).answers.store).toBe(0);
  }, 180_000);

  it('/next from the store (computed once a day, then kept) names the same prayers as live computation', async () => {
    const catalog = readCatalog(inject('catalogDataDir'))!;
    const before = (await health(withStore.server)).answers;
    const named = (x: any) => ({
      location: x.location,
      next: { prayer: x.next.prayer, time: x.next.time, iso: x.next.iso },
      previous: x.previous && { prayer: x.previous.prayer, time: x.previous.time, iso: x.previous.iso },
    });
    let asked = 0;
    for (const id of PLACES) {
      const city = encodeURIComponent(catalog.places.find((p) => p.id === id)!.path);
      for (const method of ['diyanet', 'muslimWorldLeague', 'isna']) {
        const p = `/api/v1/next?city=${city}&method=${method}`;
        // Twice: the first decodes the days from the store, the second finds them kept.
        for (let round = 0; round < 2; round++) {
          const [stored, computed] = await Promise.all([getText(withStore.server, withStore.key, p), getText(live.server, live.key, p)]);
          expect(stored.status, p).toBe(200);
          const a = JSON.parse(stored.body);
          expect(named(a), p).toEqual(named(JSON.parse(computed.body)));
          expect(a.next.inSeconds).toBe((Date.parse(a.next.iso) - Date.parse(a.now)) / 1000);
          asked++;
        }
      }
    }
    const after = (await health(withStore.server)).answers;
    expect(after.store - before.store).toBe(asked);
    expect(after.live - before.live).toBe(0);
  });

  it('a year not stored is computed live', async () => {
    const before = (await health(withStore.server)).answers;
    const { status } = await getText(withStore.server, withStore.key, '/api/v1/times?city=istanbul&date=2027-05-01');
    expect(status).toBe(200);
    expect((await health(withStore.server)).answers.live).toBe(before.live + 1);
  });
});

describe('a new store', () => {
  const CLI = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

  it('goes live under a running server without a restart and without a failed request', async () => {
    const dir = dataDirWithCatalog();
    const first = await precompute({ dataDir: dir, years: [2026], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
    const { server, key } = await serverWithKey(dir);
    try {
      expect((await health(server)).precomputed.build).toBe(first.build);
      const urls = ['/api/v1/times?city=istanbul&date=2026-03-01', '/api/v1/times?city=istanbul&date=2027-03-01', '/api/v1/month?city=istanbul&year=2027&month=1'];
      const seen = new Map<string, Set<string>>(urls.map((u) => [u, new Set()]));
      const statuses: number[] = [];
      let running = true;
      const load = Array.from({ length: 8 }, async (_, i) => {
        for (let n = i; running; n++) {
          const url = urls[n % urls.length];
          const r = await getText(server, key, url);
          statuses.push(r.status);
          seen.get(url)!.add(r.body);
        }
      });
      // While the load runs: a second run, with 2027 too, replaces the first.
      const second = await precompute({ dataDir: dir, years: [2026, 2027], methods: 'default', madhabs: 'default', scope: 'places:g745044,tr-34-kadikoy' });
      expect(currentBuild(dir)).toBe(second.build);
      const started = Date.now();
      while ((await health(server)).precomputed.build !== second.build) {
        if (Date.now() - started > 3000) throw new Error('the server did not switch within 3 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      const switchedWithinMs = Date.now() - started;
      await new Promise((r) => setTimeout(r, 300));
      running = false;
      await Promise.all(load);
      expect(statuses.length).toBeGreaterThan(100);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // Before and after the switch, from the store or computed, each request got one and the same answer.
      for (const [url, bodies] of seen) expect(bodies.size, url).toBe(1);
      expect(switchedWithinMs).toBeLessThan(2000);
      // 2027 now comes from the store.
      const before = (await health(server)).answers.store;
      await getText(server, key, urls[1]);
      expect((await health(server)).answers.store).toBe(before + 1);
      // The build that was live stays a while (a server may still read it); the next run removes it.
      expect(existsSync(path.join(timetablesDir(dir), first.build))).toBe(true);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('a run killed halfway leaves the live store serving, and the next run clears what it left', async () => {
    const dir = dataDirWithCatalog();
    const live = await precompute({ dataDir: dir, years: [2026], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
    const { server, key } = await serverWithKey(dir);
    try {
      // Every place of the year: a run of many seconds (top:20,000 ended within the first progress line's 5 s on a
      // quiet machine, and the kill then found no run to stop).
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'precompute', '--scope', 'all', '--year', '2026'], {
        env: { ...process.env, DATA_DIR: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Wait until it is writing, then kill it without warning.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no progress from precompute')), 60_000);
        child.stderr.on('data', (d: Buffer) => {
          if (/precompute\s+\d/.test(d.toString())) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect(child.exitCode, 'the run was still going when killed').toBeNull();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      expect(currentBuild(dir)).toBe(live.build);
      const leftovers = readdirSync(timetablesDir(dir)).filter((n) => n.startsWith('build-') && n !== live.build);
      expect(leftovers).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 1200));
      expect((await health(server)).precomputed.build).toBe(live.build);
      const before = (await health(server)).answers.store;
      const r = await getText(server, key, '/api/v1/times?city=istanbul&date=2026-07-01');
      expect(r.status).toBe(200);
      expect((await health(server)).answers.store).toBe(before + 1);
      // The next run removes the half-written build before it starts.
      const next = await precompute({ dataDir: dir, years: [2026], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
      expect(existsSync(path.join(timetablesDir(dir), leftovers[0]))).toBe(false);
      expect(readFileSync(path.join(timetablesDir(dir), 'current'), 'utf8').trim()).toBe(next.build);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
