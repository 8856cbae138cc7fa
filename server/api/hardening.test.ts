// Findings 1–5 of an outside test (issue 13), over HTTP: all seven times in local-mean-time eras, years 0000–0099
// refused, the right local day where the transit falls near midnight, a skipped local date said plainly, and no two
// prayers on one minute on estimated days.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TIME_NAMES } from '../../pipeline/astronomy/methods.js';
import { offsetSeconds } from '../../pipeline/zones/zoneRules.js';
import { dataDirWithCatalog, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

let server: RunningServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')) }));
});
afterAll(async () => {
  await server?.stop();
});

const get = async (p: string) => {
  const res = await fetch(server.baseUrl + p, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as any };
};

/** `HH:mm` on the zone's clock (with its seconds, if the offset has any) of an ISO instant. */
function wallClock(iso: string, zone: string): string {
  const instant = Date.parse(iso);
  const local = new Date(instant + offsetSeconds(zone, instant) * 1000);
  expect(local.getUTCSeconds(), `${iso} in ${zone} is a whole local minute`).toBe(0);
  return local.toISOString().slice(11, 16);
}

describe('local mean time (finding 1)', () => {
  it.each([
    ['/api/v1/times?city=Istanbul&date=1900-01-01', 'Europe/Istanbul'],
    ['/api/v1/times?city=Monrovia&date=1971-12-31', 'Africa/Monrovia'],
    ['/api/v1/times?lat=21.42&lon=39.83&date=1900-01-01', 'Asia/Riyadh'],
  ])('%s: all seven times, each the local minute of its instant', async (p, zone) => {
    const { status, body } = await get(p);
    expect(status).toBe(200);
    expect(Object.keys(body.times)).toEqual([...TIME_NAMES]);
    expect(Object.keys(body.extras).length).toBeGreaterThan(0);
    for (const name of TIME_NAMES) expect(wallClock(body.iso[name], zone), name).toBe(body.times[name]);
    // The offset had seconds then, so the instants do too.
    expect(Object.values(body.iso).some((iso) => !(iso as string).endsWith(':00Z'))).toBe(true);
  });

  it('a month in Riyadh across the end of local mean time (14 March 1947) has seven times every day', async () => {
    const { status, body } = await get('/api/v1/month?city=Riyadh&year=1947&month=3');
    expect(status).toBe(200);
    expect(body.days).toHaveLength(31);
    for (const day of body.days) expect(Object.keys(day.times), day.date).toEqual([...TIME_NAMES]);
  });
});

describe('years before 1900 (finding 2)', () => {
  it.each(['0099-06-15', '0000-01-01', '0001-12-31', '1899-12-31', '2101-01-01'])('date=%s is refused', async (date) => {
    const { status, body } = await get(`/api/v1/times?lat=41&lon=29&date=${date}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.message).toContain('1900-01-01 to 2100-12-31');
  });

  it('/hijri refuses them too', async () => {
    expect((await get('/api/v1/hijri?date=0099-06-15')).status).toBe(400);
  });
});

describe('the local day where the transit falls near midnight (finding 3)', () => {
  it.each([
    '/api/v1/times?lat=0&lon=-180&date=2026-10-04',
    '/api/v1/times?lat=0&lon=180&date=2026-10-04',
    '/api/v1/times?lat=0&lon=0&tz=Pacific%2FKiritimati&date=2026-10-04',
    '/api/v1/times?lat=0&lon=-120&tz=Asia%2FTokyo&date=2026-02-11',
    '/api/v1/times?lat=89.9&lon=0&date=2026-06-21',
    '/api/v1/times?lat=-89.9&lon=0&date=2026-06-21',
  ])('%s: dhuhr falls on the requested local date', async (p) => {
    const { status, body } = await get(p);
    expect(status).toBe(200);
    const dhuhr = Date.parse(body.iso.dhuhr);
    const local = new Date(dhuhr + offsetSeconds(body.timeZone, dhuhr) * 1000).toISOString().slice(0, 10);
    expect(local).toBe(body.date);
  });
});

describe('longitude −180, the meridian 180', () => {
  // Every date failed with these methods at exactly −180° (adhan put asr a day after dhuhr there): a 500.
  it.each(['ummAlQura', 'singapore', 'algeria', 'muslimWorldLeague'])('method=%s: 200, the times of 180°', async (method) => {
    for (const tz of ['Etc/GMT+12', 'Pacific/Funafuti']) {
      const query = `lat=0&tz=${encodeURIComponent(tz)}&method=${method}&date=2026-03-01`;
      const west = await get(`/api/v1/times?lon=-180&${query}`);
      const east = await get(`/api/v1/times?lon=180&${query}`);
      expect(west.status, tz).toBe(200);
      expect(west.body.times).toEqual(east.body.times);
    }
  });
});

describe('a local date that does not exist (finding 4)', () => {
  it('is a 400 naming the zone', async () => {
    const { status, body } = await get('/api/v1/times?lat=-13.83&lon=-171.76&tz=Pacific%2FApia&date=2011-12-30');
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.message).toContain('2011-12-30 does not exist in Pacific/Apia');
  });

  it('is left out of its month, and the days either side answer', async () => {
    const month = await get('/api/v1/month?lat=-13.83&lon=-171.76&tz=Pacific%2FApia&year=2011&month=12');
    expect(month.status).toBe(200);
    expect(month.body.days).toHaveLength(30);
    expect(month.body.days.map((d: { date: string }) => d.date)).not.toContain('2011-12-30');
    for (const date of ['2011-12-29', '2011-12-31']) {
      expect((await get(`/api/v1/times?lat=-13.83&lon=-171.76&tz=Pacific%2FApia&date=${date}`)).status).toBe(200);
    }
  });
});

describe('estimated days (finding 5)', () => {
  it.each([
    '/api/v1/month?lat=-89&lon=0&year=2026&month=6&method=diyanet',
    '/api/v1/month?lat=-89&lon=0&year=2026&month=8&method=diyanet&madhab=hanafi',
    '/api/v1/month?lat=-89&lon=0&year=2026&month=4&method=muslimWorldLeague',
    '/api/v1/month?lat=-68&lon=100&year=2026&month=6&method=tehran',
    '/api/v1/month?lat=60&lon=0&year=2026&month=5&method=tehran',
    '/api/v1/month?lat=-80&lon=-150&year=2026&month=4&method=egyptian&madhab=hanafi',
  ])('%s: no two prayers share a minute', async (p) => {
    const { status, body } = await get(p);
    expect(status).toBe(200);
    for (const day of body.days) {
      const order = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'].map((n) => day.times[n]);
      // Distinct minutes in order (a time may pass midnight: count the day's turns).
      let turns = 0;
      const minutes = order.map((t: string, i: number) => {
        const [h, m] = t.split(':').map(Number);
        if (i > 0 && h * 60 + m < Number(order[i - 1].slice(0, 2)) * 60 + Number(order[i - 1].slice(3))) turns++;
        return turns * 1440 + h * 60 + m;
      });
      for (let i = 1; i < minutes.length; i++) expect(minutes[i], `${day.date} ${order.join(' ')}`).toBeGreaterThan(minutes[i - 1]);
    }
  });
});
