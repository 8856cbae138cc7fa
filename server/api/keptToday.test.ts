// Answers that depend on the clock are kept (renderedResponses.ts) and never outlive it: the servers' clock is moved
// (testing/movableClock.ts) across a place's midnight, a skipped midnight, a month's end and a prayer, forwards and
// back, and each answer is the one for the new instant at once, byte for byte what the request names as a date.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { precompute } from '../../pipeline/precompute/precompute.js';
import { movableClock } from '../../testing/movableClock.js';
import { dataDirWithCatalog, startServerWithKey, type ServerWithKey } from '../../testing/serverProcess.js';

const clock = movableClock();
const env = { ...clock.env, PUBLIC_BASE_URL: 'https://prayer-times.example' };
let withStore: ServerWithKey;
let live: ServerWithKey;

beforeAll(async () => {
  const storeDir = dataDirWithCatalog(inject('catalogDataDir'));
  await precompute({ dataDir: storeDir, years: [2026], methods: 'default', madhabs: 'default', scope: 'places:g745044' });
  [withStore, live] = await Promise.all([
    startServerWithKey({ ...env, DATA_DIR: storeDir }),
    startServerWithKey({ ...env, DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([withStore?.server.stop(), live?.server.stop()]);
});

const SERVERS = [
  ['with the store', () => withStore],
  ['computing live', () => live],
] as const;

async function get(server: ServerWithKey, path: string): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const res = await fetch(server.server.baseUrl + path, { headers: { 'X-API-Key': server.key } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

/** The answer to `path` at `instant` on the servers' clock, asked twice (the second is the kept one, if any). */
async function at(server: ServerWithKey, instant: number, path: string): Promise<any> {
  clock.set(instant);
  const first = await get(server, path);
  const again = await get(server, path);
  expect(first.status, path).toBe(200);
  expect(again.text, path).toBe(first.text);
  return first.body;
}

// Istanbul keeps UTC+3 all year: its 23 November 2026 begins at 21:00 UTC on the 22nd.
const ISTANBUL_MIDNIGHT = Date.UTC(2026, 10, 22, 21);

describe.each(SERVERS)('today, %s', (_, server) => {
  it('is the place’s day until its midnight and the next day from that instant on, and the day before if the clock goes back', async () => {
    const dated = async (date: string) => (await get(server(), `/api/v1/times?city=istanbul&date=${date}`)).text;
    const [the22nd, the23rd] = [await dated('2026-11-22'), await dated('2026-11-23')];
    expect(the22nd).not.toBe(the23rd);
    for (const [instant, expected] of [
      [ISTANBUL_MIDNIGHT - 60_000, the22nd],
      [ISTANBUL_MIDNIGHT - 1, the22nd],
      [ISTANBUL_MIDNIGHT, the23rd],
      [ISTANBUL_MIDNIGHT + 1000, the23rd],
      [ISTANBUL_MIDNIGHT - 1, the22nd], // a clock set back
      [ISTANBUL_MIDNIGHT + 86_400_000, await dated('2026-11-24')],
    ] as const) {
      expect(JSON.stringify(await at(server(), instant, '/api/v1/times?city=istanbul')), new Date(instant).toISOString()).toBe(expected);
    }
  });

  it('asked by date first, then as today, still ends at midnight', async () => {
    // A kept day answers both requests; how long it holds is the request's, not the body's.
    await at(server(), ISTANBUL_MIDNIGHT - 3_600_000, '/api/v1/times?city=istanbul&method=diyanet&date=2026-11-22');
    expect((await at(server(), ISTANBUL_MIDNIGHT - 3_600_000, '/api/v1/times?city=istanbul&method=diyanet')).date).toBe('2026-11-22');
    expect((await at(server(), ISTANBUL_MIDNIGHT, '/api/v1/times?city=istanbul&method=diyanet')).date).toBe('2026-11-23');
    // The same for a month: the last second of November, then the first of December.
    const endOfNovember = Date.UTC(2026, 10, 30, 21);
    expect((await at(server(), endOfNovember - 1000, '/api/v1/month?city=istanbul&year=2026&month=11')).month).toBe(11);
    expect((await at(server(), endOfNovember - 1000, '/api/v1/month?city=istanbul')).month).toBe(11);
    const december = await at(server(), endOfNovember, '/api/v1/month?city=istanbul');
    expect([december.year, december.month, december.days[0].date]).toEqual([2026, 12, '2026-12-01']);
  });

  it('at a point: its zone’s day, across a midnight its clocks skip', async () => {
    // Santiago de Chile: on 6 September 2026 the clocks go from 00:00 to 01:00 (UTC-4 to UTC-3) at 04:00 UTC, so the
    // 5th ends at 03:59:59 UTC and the 6th begins at once, an hour after 00:00 UTC-4 would have been.
    const SANTIAGO = '/api/v1/times?lat=-33.45&lon=-70.66';
    const change = Date.UTC(2026, 8, 6, 4);
    const localDate = (instant: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(instant);
    expect([localDate(change - 1000), localDate(change)]).toEqual(['2026-09-05', '2026-09-06']);
    for (const instant of [change - 3_600_000 - 1000, change - 1000, change, change + 1000, change - 1000]) {
      const body = await at(server(), instant, SANTIAGO);
      expect(body.timeZone).toBe('America/Santiago');
      expect(JSON.stringify(body), new Date(instant).toISOString()).toBe((await get(server(), `${SANTIAGO}&date=${localDate(instant)}`)).text);
    }
  });

  it('/next counts the seconds of the instant asked, and turns to the following prayer on the prayer’s second', async () => {
    const day = (await get(server(), '/api/v1/times?city=istanbul&date=2026-11-22')).body;
    const dhuhr = Date.parse(day.iso.dhuhr);
    const next = (instant: number) => at(server(), instant, '/api/v1/next?city=istanbul');
    const before = await next(dhuhr - 1000);
    expect(before.now).toBe(new Date(dhuhr - 1000).toISOString().replace('.000Z', 'Z'));
    expect(before.next).toEqual({ prayer: 'dhuhr', time: day.times.dhuhr, iso: day.iso.dhuhr, inSeconds: 1 });
    expect(before.previous).toMatchObject({ prayer: 'sunrise', iso: day.iso.sunrise });
    // Later within the same second: the same answer (the seconds are whole).
    expect(await next(dhuhr - 1)).toEqual(before);
    const on = await next(dhuhr);
    expect(on.next).toEqual({ prayer: 'asr', time: day.times.asr, iso: day.iso.asr, inSeconds: (Date.parse(day.iso.asr) - dhuhr) / 1000 });
    expect(on.previous).toEqual({ prayer: 'dhuhr', time: day.times.dhuhr, iso: day.iso.dhuhr, secondsAgo: 0 });
    expect((await next(dhuhr + 1000)).previous.secondsAgo).toBe(1);
    expect((await next(dhuhr + 1999)).previous.secondsAgo).toBe(1);
    expect(await next(dhuhr - 1000)).toEqual(before); // a clock set back
    // Across the place's midnight: the 23rd's fajr is next from the 22nd's isha on.
    const the23rd = (await get(server(), '/api/v1/times?city=istanbul&date=2026-11-23')).body;
    expect((await next(ISTANBUL_MIDNIGHT - 1000)).next).toMatchObject({ prayer: 'fajr', iso: the23rd.iso.fajr, inSeconds: (Date.parse(the23rd.iso.fajr) - ISTANBUL_MIDNIGHT + 1000) / 1000 });
    expect((await next(ISTANBUL_MIDNIGHT)).next.inSeconds).toBe((Date.parse(the23rd.iso.fajr) - ISTANBUL_MIDNIGHT) / 1000);
  });

  it('a kept answer still carries each request’s own rate-limit and quota headers', async () => {
    clock.set(ISTANBUL_MIDNIGHT - 3_600_000);
    const answers: Array<Awaited<ReturnType<typeof get>>> = [];
    for (let i = 0; i < 3; i++) answers.push(await get(server(), '/api/v1/times?city=istanbul'));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    const remaining = (name: string) => answers.map((a) => Number(a.headers.get(name)));
    for (const name of ['RateLimit-Remaining', 'X-Quota-Remaining']) {
      const [a, b, c] = remaining(name);
      expect([b, c], name).toEqual([a - 1, a - 2]);
    }
  });
});

it('both servers give the same bytes for today and for /next at the same instant', async () => {
  for (const instant of [ISTANBUL_MIDNIGHT - 1, ISTANBUL_MIDNIGHT, ISTANBUL_MIDNIGHT + 12 * 3_600_000]) {
    for (const path of ['/api/v1/times?city=istanbul', '/api/v1/next?city=istanbul', '/api/v1/month?city=istanbul']) {
      clock.set(instant);
      const [a, b] = await Promise.all([get(withStore, path), get(live, path)]);
      expect(a.text, `${path} at ${new Date(instant).toISOString()}`).toBe(b.text);
    }
  }
});
