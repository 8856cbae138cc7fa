// The endpoints over real HTTP against the real server process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIME_NAMES } from '../../pipeline/astronomy/methods.js';
import { startServer, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { COUNTRY_DEFAULT_CASES } from '../../testing/countryDefaultCases.js';

let server: RunningServer;
let key: string;

beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ LOG_LEVEL: 'info' }));
});
afterAll(async () => {
  await server?.stop();
});

async function get(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(server.baseUrl + path, { ...init, headers: { 'X-API-Key': key, ...init?.headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const HHMM = /^\d{2}:\d{2}$/;
const ISTANBUL = 'lat=41.0082&lon=28.9784';

/** Wall-clock HH:mm of an instant in a zone, by the runtime's Intl (independent of the server's code). */
function wallClock(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

function localDateOf(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

describe('/api/v1/times', () => {
  it('answers every field of the spec and contract for coordinates', async () => {
    const { status, headers, body } = await get(`/api/v1/times?${ISTANBUL}&date=2026-03-21`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(body.location).toEqual({ latitude: 41.0082, longitude: 28.9784, timeZone: 'Europe/Istanbul' });
    expect(body.method).toEqual({ id: 'diyanet', name: 'Diyanet İşleri Başkanlığı, Türkiye' });
    expect(body.madhab).toBe('shafi');
    expect(body.timeZone).toBe('Europe/Istanbul');
    expect(body.date).toBe('2026-03-21');
    expect(body.hijri).toEqual({ day: 2, month: 10, year: 1447, monthName: 'Shawwal' });
    expect(Object.keys(body.times)).toEqual([...TIME_NAMES]);
    expect(Object.keys(body.iso)).toEqual([...TIME_NAMES]);
    for (const name of TIME_NAMES) {
      expect(body.times[name]).toMatch(HHMM);
      expect(body.iso[name]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
      expect(wallClock(body.iso[name], 'Europe/Istanbul')).toBe(body.times[name]);
    }
    expect(Object.keys(body.extras)).toEqual(['ishraq', 'zawalStart', 'isfirar', 'midnight', 'lastThirdStart']);
    for (const value of Object.values(body.extras)) expect(value).toMatch(HHMM);
    expect(body.estimated).toEqual([]);
    // Diyanet: imsak is the fajr; elsewhere imsak is ten minutes before it.
    expect(body.times.imsak).toBe(body.times.fajr);
  });

  it("defaults the date to today in the place's zone (Kiritimati, UTC+14)", async () => {
    const before = new Date();
    const { body } = await get('/api/v1/times?lat=1.87&lon=-157.4');
    expect(body.timeZone).toBe('Pacific/Kiritimati');
    expect([localDateOf(before, 'Pacific/Kiritimati'), localDateOf(new Date(), 'Pacific/Kiritimati')]).toContain(body.date);
    // The times belong to that local day: dhuhr's instant falls on it.
    expect(localDateOf(new Date(body.iso.dhuhr), 'Pacific/Kiritimati')).toBe(body.date);
  });

  it('takes tz for coordinates and honours method and madhab', async () => {
    const { body } = await get(`/api/v1/times?${ISTANBUL}&tz=UTC&method=muslimWorldLeague&madhab=hanafi&date=2026-06-01`);
    // IANA's zone for the link UTC.
    expect(body.timeZone).toBe('Etc/UTC');
    expect(body.method.id).toBe('muslimWorldLeague');
    expect(body.madhab).toBe('hanafi');
    for (const name of TIME_NAMES) expect(wallClock(body.iso[name], 'UTC')).toBe(body.times[name]);
    const shafi = (await get(`/api/v1/times?${ISTANBUL}&tz=UTC&method=muslimWorldLeague&madhab=shafi&date=2026-06-01`)).body;
    expect(Date.parse(body.iso.asr)).toBeGreaterThan(Date.parse(shafi.iso.asr) + 30 * 60_000);
    expect(Date.parse(body.iso.fajr) - Date.parse(body.iso.imsak)).toBe(10 * 60_000);
  });

  it('accepts a lower-case zone and answers with its canonical name', async () => {
    const { status, body } = await get(`/api/v1/times?${ISTANBUL}&tz=europe/berlin&date=2026-01-10`);
    expect(status).toBe(200);
    expect(body.timeZone).toBe('Europe/Berlin');
  });

  it('lists estimated times at high latitude and in polar day', async () => {
    const tromso = (await get('/api/v1/times?lat=69.6496&lon=18.956&date=2026-06-21')).body;
    expect(tromso.estimated).toEqual(expect.arrayContaining(['imsak', 'fajr', 'sunrise', 'maghrib', 'isha']));
    expect(tromso.estimated).not.toContain('dhuhr');
    for (const name of TIME_NAMES) expect(tromso.times[name]).toMatch(HHMM);
  });
});

describe('/api/v1/month', () => {
  it.each([
    [2026, 2, 28],
    [2028, 2, 29],
    [2026, 4, 30],
    [2026, 12, 31],
  ])('%i-%i has %i days with hijri and times on each', async (year, month, count) => {
    const { status, body } = await get(`/api/v1/month?${ISTANBUL}&year=${year}&month=${month}`);
    expect(status).toBe(200);
    expect(body.year).toBe(year);
    expect(body.month).toBe(month);
    expect(body.method.id).toBe('diyanet');
    expect(body.timeZone).toBe('Europe/Istanbul');
    expect(body.days).toHaveLength(count);
    body.days.forEach((day: any, i: number) => {
      expect(day.date).toBe(`${year}-${String(month).padStart(2, '0')}-${String(i + 1).padStart(2, '0')}`);
      expect(Object.keys(day.hijri)).toEqual(['day', 'month', 'year', 'monthName']);
      for (const name of TIME_NAMES) expect(day.times[name]).toMatch(HHMM);
      expect(day.estimated).toEqual([]);
    });
  });

  it("defaults year and month to the current ones in the place's zone, each alone too", async () => {
    const [y, m] = localDateOf(new Date(), 'Europe/Istanbul').split('-').map(Number);
    const both = (await get(`/api/v1/month?${ISTANBUL}`)).body;
    expect([both.year, both.month]).toEqual([y, m]);
    const onlyMonth = (await get(`/api/v1/month?${ISTANBUL}&month=2`)).body;
    expect([onlyMonth.year, onlyMonth.month]).toEqual([y, 2]);
    const onlyYear = (await get(`/api/v1/month?${ISTANBUL}&year=2030`)).body;
    expect([onlyYear.year, onlyYear.month]).toEqual([2030, m]);
  });

  it('matches /times for the same day', async () => {
    const month = (await get(`/api/v1/month?lat=52.52&lon=13.405&year=2026&month=3`)).body;
    const day = (await get(`/api/v1/times?lat=52.52&lon=13.405&date=2026-03-29`)).body;
    expect(month.days[28].times).toEqual(day.times);
    expect(month.days[28].hijri).toEqual(day.hijri);
  });
});

describe('/api/v1/next', () => {
  /** A longitude where the local solar time is now about `hour` o'clock. */
  function longitudeAtSolarHour(hour: number): number {
    const now = new Date();
    const utcHours = now.getUTCHours() + now.getUTCMinutes() / 60;
    let lon = (hour - utcHours) * 15;
    while (lon > 179) lon -= 360;
    while (lon < -179) lon += 360;
    return Math.round(lon * 100) / 100;
  }

  it('after isha, the next prayer is tomorrow’s fajr and the previous is isha', async () => {
    const lon = longitudeAtSolarHour(22.5);
    const { status, body } = await get(`/api/v1/next?lat=0.5&lon=${lon}&tz=UTC`);
    expect(status).toBe(200);
    const now = Date.parse(body.now);
    expect(body.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(body.next.prayer).toBe('fajr');
    expect(body.previous.prayer).toBe('isha');
    expect(Date.parse(body.next.iso)).toBeGreaterThan(now);
    expect(body.next.inSeconds).toBe((Date.parse(body.next.iso) - now) / 1000);
    expect(body.previous.secondsAgo).toBe((now - Date.parse(body.previous.iso)) / 1000);
    expect(body.next.time).toBe(wallClock(body.next.iso, 'UTC'));
  });

  it('before fajr, the previous prayer is yesterday’s isha', async () => {
    const lon = longitudeAtSolarHour(2.5);
    const { body } = await get(`/api/v1/next?lat=0.5&lon=${lon}&tz=UTC`);
    expect(body.next.prayer).toBe('fajr');
    expect(body.previous.prayer).toBe('isha');
    // Yesterday's isha: more than two hours ago, less than twelve.
    expect(body.previous.secondsAgo).toBeGreaterThan(2 * 3600);
    expect(body.previous.secondsAgo).toBeLessThan(12 * 3600);
    expect(Number.isInteger(body.next.inSeconds)).toBe(true);
  });

  it('midday: dhuhr is previous or next and inSeconds is below a day', async () => {
    const lon = longitudeAtSolarHour(12.5);
    const { body } = await get(`/api/v1/next?lat=0.5&lon=${lon}&tz=UTC`);
    expect(['dhuhr', 'asr']).toContain(body.next.prayer);
    expect(body.next.inSeconds).toBeGreaterThanOrEqual(0);
    expect(body.next.inSeconds).toBeLessThan(86_400);
  });
});

describe('/api/v1/qibla', () => {
  it.each([
    ['Istanbul', 41.0082, 28.9784, 151.6, 2400],
    ['New York', 40.7128, -74.006, 58.5, 10324],
  ])('%s', async (_name, lat, lon, bearing, km) => {
    const { status, body } = await get(`/api/v1/qibla?lat=${lat}&lon=${lon}`);
    expect(status).toBe(200);
    expect(body.bearing).toBeCloseTo(bearing, 1);
    expect(Math.abs(body.distanceKm - km)).toBeLessThan(1);
    expect(body.location).toMatchObject({ latitude: lat, longitude: lon });
  });

  it('does not take tz', async () => {
    const { status, body } = await get('/api/v1/qibla?lat=41&lon=29&tz=UTC');
    expect(status).toBe(400);
    expect(body.error.code).toBe('unknown_parameter');
  });
});

describe('/api/v1/hijri', () => {
  it('2026-02-18 is 1 Ramadan 1447 (Umm al-Qura)', async () => {
    const { status, body } = await get('/api/v1/hijri?date=2026-02-18');
    expect(status).toBe(200);
    expect(body).toEqual({
      date: '2026-02-18',
      hijri: { day: 1, month: 9, year: 1447, monthName: 'Ramadan', monthNameAr: 'رمضان', weekday: 'Wednesday' },
      calendar: 'umm-al-qura',
    });
  });

  it('defaults to today in UTC', async () => {
    const { body } = await get('/api/v1/hijri');
    expect([new Date().toISOString().slice(0, 10)]).toContain(body.date);
    expect(body.calendar).toBe('umm-al-qura');
  });
});

describe('default method and madhab by country (from the zone until the catalog exists)', () => {
  it.each(COUNTRY_DEFAULT_CASES)('%s', async (_country, lat, lon, method, madhab) => {
    const { body } = await get(`/api/v1/times?lat=${lat}&lon=${lon}&date=2026-05-01`);
    expect(body.method.id).toBe(method);
    expect(body.madhab).toBe(madhab);
  });
});

describe('city lookups before the catalog exists', () => {
  it('city= and /cities answer 503 service_unavailable with the error body', async () => {
    for (const path of ['/api/v1/times?city=istanbul', '/api/v1/cities?q=ist']) {
      const { status, body } = await get(path);
      expect(status).toBe(503);
      expect(body.error.code).toBe('service_unavailable');
      expect(body.error.docs).toBe(`${server.baseUrl.replace('127.0.0.1', 'localhost')}/docs/errors#service_unavailable`);
      expect(body.error.pricing).toBe(`${server.baseUrl.replace('127.0.0.1', 'localhost')}/pricing`);
    }
  });
});

describe('service endpoints', () => {
  it('GET /healthz answers ok without a key', async () => {
    const { status, body } = await get('/healthz');
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
  });

  it('serves the OpenAPI 3.1 description generated from the route table', async () => {
    const { status, body } = await get('/api/v1/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.info.version).toBe('1.0.0');
    expect(Object.keys(body.paths).sort()).toEqual(
      ['/api/v1/cities', '/api/v1/hijri', '/api/v1/month', '/api/v1/next', '/api/v1/qibla', '/api/v1/times'].sort(),
    );
    const lat = body.paths['/api/v1/times'].get.parameters.find((p: any) => p.name === 'lat');
    expect(lat.schema).toMatchObject({ type: 'number', minimum: -90, maximum: 90 });
    const q = body.paths['/api/v1/cities'].get.parameters.find((p: any) => p.name === 'q');
    expect(q).toMatchObject({ required: true, schema: { minLength: 2 } });
    expect(body.paths['/api/v1/qibla'].get.parameters.map((p: any) => p.name)).toEqual(['city', 'lat', 'lon']);
  });

  it('answers CORS preflight with 204', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/times`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, X-API-Key');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
  });

  it('logs every error answer at info, and one in 100 of the others, marked as standing for 100', async () => {
    const marker = `/api/v1/hijri?date=2030-01-0${1 + Math.floor(Math.random() * 9)}`;
    for (let i = 0; i < 100; i++) await get(marker);
    await get('/nowhere');
    await new Promise((r) => setTimeout(r, 400)); // request lines are flushed in batches
    const lines = server.output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const hijri = lines.filter((l) => l.event === 'request' && l.path === '/api/v1/hijri');
    expect(hijri.length).toBeGreaterThan(0);
    expect(hijri.at(-1)).toMatchObject({ level: 'info', method: 'GET', status: 200, sample: 100 });
    expect(typeof hijri.at(-1).ms).toBe('number');
    expect(lines.some((l) => l.path === '/nowhere' && l.status === 404 && l.code === 'not_found' && l.sample === undefined)).toBe(true);
  });

  it('writes one structured log line per request at LOG_LEVEL=debug', async () => {
    const debug = await startServer({ LOG_LEVEL: 'debug', ACCESS_CONTROL: 'off' });
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${debug.baseUrl}/api/v1/hijri?date=2030-01-01`)).status).toBe(200);
      await fetch(`${debug.baseUrl}/nowhere`);
      await new Promise((r) => setTimeout(r, 400));
      const lines = debug.output.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).filter((l) => l.event === 'request');
      expect(lines.filter((l) => l.path === '/api/v1/hijri' && l.status === 200 && l.sample === undefined)).toHaveLength(3);
      expect(lines.some((l) => l.path === '/nowhere' && l.status === 404)).toBe(true);
    } finally {
      await debug.stop();
    }
  });
});

describe('shutdown', () => {
  it('stops cleanly on SIGTERM', async () => {
    const other = await startServer();
    expect((await fetch(`${other.baseUrl}/healthz`)).status).toBe(200);
    const code = await other.stop('SIGTERM');
    expect(code).toBe(0);
    expect(other.output.some((l) => l.includes('"event":"stopped"'))).toBe(true);
  });
});
