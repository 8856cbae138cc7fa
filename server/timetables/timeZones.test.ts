// Time zones end to end: Morocco's move to UTC+0 and Alberta's to −06 (IANA 2026c/d), through the precomputed store
// and through live computation alike; /healthz names the tz release; a store built with other rules is set aside.
import path from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { precompute } from '../../pipeline/precompute/precompute.js';
import { currentBuild, STORE_FORMAT, timetablesDir } from '../../pipeline/store/timetableStore.js';
import { SYSTEM_ZONEINFO, systemZoneDatabase } from '../../pipeline/zones/systemZoneinfo.js';
import { TZDATA_VERSION } from '../../pipeline/zones/zoneRules.js';
import { dataDirWithCatalog as sharedCatalogDir, startServerWithKey, storeAndLiveServers, type RunningServer, type ServerWithKey } from '../../testing/serverProcess.js';

const dataDirWithCatalog = () => sharedCatalogDir(inject('catalogDataDir'));
const serverWithKey = (dataDir: string) => startServerWithKey({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://prayer-times.example' });

// Casablanca, Laâyoune, Edmonton, Calgary.
const PLACES = { casablanca: 'g2553604', laayoune: 'g2462881', edmonton: 'g5946768', calgary: 'g5913490' };
const HOUR_MS = 3_600_000;

interface Day {
  date: string;
  times: Record<string, string>;
  iso: Record<string, string>;
}

/** The wall-clock offset (hours) that turns each `iso` instant into its `HH:mm`, checked to be one for the whole day. */
function dayOffsetHours(day: Day): number {
  const offsets = new Set(
    Object.keys(day.times).map((name) => {
      const [h, m] = day.times[name].split(':').map(Number);
      const instant = Date.parse(day.iso[name]);
      const utcMinutes = Math.floor((instant % 86_400_000) / 60_000);
      return ((((h * 60 + m - utcMinutes) % 1440) + 1440 + 720) % 1440) - 720;
    }),
  );
  expect(offsets.size, day.date).toBe(1);
  return [...offsets][0] / 60;
}

describe('time zones from the IANA tz database', () => {
  let withStore: ServerWithKey;
  let live: ServerWithKey;
  let servers: Awaited<ReturnType<typeof storeAndLiveServers>> | undefined;
  beforeAll(async () => {
    servers = await storeAndLiveServers(inject('catalogDataDir'), (dataDir) =>
      precompute({ dataDir, years: [2026, 2027], methods: 'default', madhabs: 'default', scope: `places:${Object.values(PLACES).join(',')}` }),
    );
    ({ withStore, live } = servers);
  }, 120_000);
  afterAll(async () => {
    await servers?.stop();
  });

  const get = async (s: { server: RunningServer; key: string }, p: string) => {
    const res = await fetch(s.server.baseUrl + p, { headers: { 'X-API-Key': s.key } });
    return { status: res.status, text: await res.text() };
  };
  const health = async (server: RunningServer) => (await (await fetch(`${server.baseUrl}/healthz`)).json()) as any;

  /** A day's times from both servers: identical, and one the store answered. */
  async function day(city: string, date: string): Promise<Day & { timeZone: string }> {
    const p = `/api/v1/times?city=${city}&date=${date}`;
    const [stored, computed] = [await get(withStore, p), await get(live, p)];
    expect(stored.status, p).toBe(200);
    expect(stored.text, p).toBe(computed.text);
    return JSON.parse(stored.text);
  }

  it('put Casablanca and Laâyoune at UTC+1 before 20 September 2026 and at UTC+0 after, stored and live', async () => {
    const before = (await health(withStore.server)).answers.store;
    for (const city of ['morocco/casablanca-settat/casablanca', 'Laayoune']) {
      for (const date of ['2026-06-01', '2026-09-19']) expect(dayOffsetHours(await day(city, date)), `${city} ${date}`).toBe(1);
      for (const date of ['2026-09-21', '2026-11-22', '2027-03-01', '2027-07-01']) expect(dayOffsetHours(await day(city, date)), `${city} ${date}`).toBe(0);
    }
    // 22 November 2026 in Casablanca: fajr at 05:xx on the UTC+0 clock the Ministry of Habous prints (06:xx was the
    // runtime's UTC+1).
    const today = await day('Casablanca', '2026-11-22');
    expect(today.timeZone).toBe('Africa/Casablanca');
    expect(today.times.fajr).toMatch(/^05:/);
    expect((await health(withStore.server)).answers.store - before).toBe(13);
  });

  it('put Edmonton and Calgary at −06 after 1 November 2026, stored and live', async () => {
    for (const city of ['Edmonton', 'Calgary']) {
      expect(dayOffsetHours(await day(city, '2026-01-15')), city).toBe(-7);
      expect(dayOffsetHours(await day(city, '2026-07-01')), city).toBe(-6);
      for (const date of ['2026-11-02', '2026-12-21', '2027-01-15', '2027-07-01']) expect(dayOffsetHours(await day(city, date)), `${city} ${date}`).toBe(-6);
    }
  });

  it('answer the whole month across Morocco\u2019s change, and /next on the new clock', async () => {
    const month = JSON.parse((await get(withStore, '/api/v1/month?city=Casablanca&year=2026&month=9')).text) as { days: Day[] };
    expect(month.days).toHaveLength(30);
    // Each day of the month as /times gives it, whose clock was checked above: UTC+1 on the 19th, UTC+0 on the 21st.
    for (const date of ['2026-09-19', '2026-09-20', '2026-09-21']) {
      const single = await day('Casablanca', date);
      expect(month.days.find((d) => d.date === date)!.times, date).toEqual(single.times);
    }
    expect(dayOffsetHours(await day('Casablanca', '2026-09-20'))).toBe(0);
    const next = JSON.parse((await get(live, '/api/v1/next?lat=33.5731&lon=-7.5898')).text);
    const [h, m] = next.next.time.split(':').map(Number);
    const instant = new Date(next.next.iso);
    // Morocco is on UTC+0 from 20 September 2026: the wall clock is the UTC clock.
    expect(h * 60 + m).toBe(instant.getUTCHours() * 60 + instant.getUTCMinutes());
  });

  it('answers a tz given as a link with the canonical name and its rules', async () => {
    const body = JSON.parse((await get(live, '/api/v1/times?lat=31.63&lon=-8.0&tz=Africa%2FCasablanca&date=2026-10-01')).text);
    expect(dayOffsetHours(body)).toBe(0);
    const linked = JSON.parse((await get(live, '/api/v1/times?lat=22.57&lon=88.36&tz=asia%2Fcalcutta&date=2026-10-01')).text);
    expect(linked.timeZone).toBe('Asia/Kolkata');
    expect(dayOffsetHours(linked)).toBe(5.5);
  });

  it('/healthz names the tz release and where it came from, for the server and the store', async () => {
    const h = await health(withStore.server);
    expect(h.tzdata).toBe(TZDATA_VERSION);
    expect(h.precomputed.tzdata).toBe(TZDATA_VERSION);
    // make test brings Debian's tzdata up to the package's release, so the system's compiled zoneinfo is the source.
    expect(h.tzdataSource).toBe(SYSTEM_ZONEINFO);
    expect(h.tzdata).toBe(systemZoneDatabase(SYSTEM_ZONEINFO)!.release);
  });

  it('keeps today’s clocks of the newest release: Havana on −04 and Winnipeg on −05 in late November 2026', async () => {
    const havana = JSON.parse((await get(live, '/api/v1/times?lat=23.1136&lon=-82.3666&date=2026-11-25')).text);
    expect(havana.location.timeZone).toBe('America/Havana');
    expect(dayOffsetHours(havana)).toBe(-4);
    const winnipeg = JSON.parse((await get(live, '/api/v1/times?lat=49.8954&lon=-97.1385&date=2026-11-25')).text);
    expect(winnipeg.location.timeZone).toBe('America/Winnipeg');
    expect(dayOffsetHours(winnipeg)).toBe(-5);
    // Kiritimati skipped 31 December 1994: that date is not a day there.
    expect((await get(live, '/api/v1/times?lat=1.87&lon=-157.4&tz=Pacific/Kiritimati&date=1994-12-31')).status).toBe(400);
  });
});

/** A store for Casablanca, its meta record changed as a server with other rules would have written it. */
async function storeBuiltWith(change: Record<string, string | undefined>): Promise<string> {
  const dir = dataDirWithCatalog();
  await precompute({ dataDir: dir, years: [2026], methods: 'default', madhabs: 'default', scope: `places:${PLACES.casablanca}` });
  const env = open({ path: path.join(timetablesDir(dir), currentBuild(dir)!), compression: false, maxDbs: 2 });
  env.putSync('\u0000meta', { ...(env.get('\u0000meta') as object), ...change });
  await env.close();
  return dir;
}

describe('a store built with other rules', () => {
  it('with calculation rules other than this server\u2019s is set aside', async () => {
    const s = await serverWithKey(await storeBuiltWith({ methodsFingerprint: '0123456789abcdef' }));
    try {
      const h = (await (await fetch(`${s.server.baseUrl}/healthz`)).json()) as any;
      expect(h.precomputed).toBeNull();
      expect(h.storeSetAside).toContain('built with other calculation rules (methods 0123456789abcdef)');
    } finally {
      await s.server.stop();
    }
  }, 60_000);

  it('written in the store format before this one (no format in its meta) is set aside', async () => {
    const s = await serverWithKey(await storeBuiltWith({ storeFormat: undefined }));
    try {
      const h = (await (await fetch(`${s.server.baseUrl}/healthz`)).json()) as any;
      expect(h.precomputed).toBeNull();
      expect(h.storeSetAside).toBe(`written in store format 1; this server reads format ${STORE_FORMAT}`);
      const res = await fetch(`${s.server.baseUrl}/api/v1/times?city=Casablanca&date=2026-11-22`, { headers: { 'X-API-Key': s.key } });
      expect(res.status).toBe(200);
    } finally {
      await s.server.stop();
    }
  }, 60_000);

  it('with other time-zone rules is set aside: answers are computed live, and /healthz says why', async () => {
    const dir = await storeBuiltWith({ tzdata: '2025c' });
    const s = await serverWithKey(dir);
    try {
      const h = (await (await fetch(`${s.server.baseUrl}/healthz`)).json()) as any;
      expect(h.precomputed).toBeNull();
      expect(h.storeSetAside).toBe(`built with time-zone rules 2025c; this server has ${TZDATA_VERSION}`);
      const res = await fetch(`${s.server.baseUrl}/api/v1/times?city=Casablanca&date=2026-11-22`, { headers: { 'X-API-Key': s.key } });
      expect(res.status).toBe(200);
      expect(dayOffsetHours((await res.json()) as Day)).toBe(0);
      const after = (await (await fetch(`${s.server.baseUrl}/healthz`)).json()) as any;
      expect(after.answers).toMatchObject({ store: 0, live: 1 });
    } finally {
      await s.server.stop();
    }
  }, 60_000);
});
