// Every zone's offsets 1900–2100, as the service reads them, against zdump -v over zic's compilation of the same data
// (the system's TZif files, which `make test` brings up to the newest Debian tzdata: deploy/install-tzdata.sh).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageZoneDatabase } from './packageZones.js';
import { SYSTEM_ZONEINFO, systemZoneDatabase } from './systemZoneinfo.js';
import { offsetAt } from './transitionTable.js';
import { compareReleases } from './zoneDatabase.js';
import { knownZoneNames, transitionTable, TZDATA_SOURCE, TZDATA_VERSION, zoneOf } from './zoneRules.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const FROM = Date.UTC(1900, 0, 1);
const UNTIL = Date.UTC(2101, 0, 1);

/** zdump -v's lines for 1900–2100, by zone: [UTC ms, offset east in seconds]. It lists t−1 s and t of every change. */
async function zdump(zones: string[]): Promise<Map<string, Array<[number, number]>>> {
  const { stdout } = await promisify(execFile)('zdump', ['-v', '-c', '1900,2101', ...zones], { maxBuffer: 64 << 20, env: { ...process.env, TZDIR: SYSTEM_ZONEINFO } });
  const byZone = new Map<string, Array<[number, number]>>();
  for (const line of stdout.split('\n')) {
    // `Europe/Berlin  Sun Apr 30 21:59:59 1916 UT = Sun Apr 30 22:59:59 1916 CET isdst=0 gmtoff=3600`
    const f = line.trim().split(/\s+/);
    if (f.length !== 16 || f[6] !== 'UT') continue;
    const [h, m, s] = f[4].split(':').map(Number);
    const instant = Date.UTC(Number(f[5]), MONTHS.indexOf(f[2]), Number(f[3]), h, m, s);
    const offset = Number(/^gmtoff=(-?\d+)$/.exec(f[15])![1]);
    if (!byZone.has(f[0])) byZone.set(f[0], []);
    byZone.get(f[0])!.push([instant, offset]);
  }
  return byZone;
}

describe('zone rules against zic and zdump', () => {
  it('come from the system’s compiled zoneinfo, as new as the pinned npm package or newer', () => {
    const system = systemZoneDatabase(SYSTEM_ZONEINFO);
    expect(system, `${SYSTEM_ZONEINFO}/tzdata.zi is missing: make test installs Debian's tzdata`).toBeDefined();
    expect(compareReleases(system!.release, packageZoneDatabase().release)).toBeGreaterThanOrEqual(0);
    expect(TZDATA_SOURCE).toBe(SYSTEM_ZONEINFO);
    expect(TZDATA_VERSION).toBe(system!.release);
  });

  it('give every zone the offsets zdump -v gives from zic’s files, at every change 1900–2100 and nowhere else', { timeout: 180_000 }, async () => {
    const zones = knownZoneNames().filter((name) => zoneOf(name) === name);
    const listed = await zdump(zones);
    const mismatches: string[] = [];
    for (const zone of zones) {
      const points = listed.get(zone) ?? [];
      const table = transitionTable(zone);
      for (const [instant, offset] of points) {
        if (offsetAt(table, instant) !== offset) mismatches.push(`${zone} ${new Date(instant).toISOString()}: zdump ${offset}, ours ${offsetAt(table, instant)}`);
      }
      // Every change of ours is one zdump lists (it lists the second of every change it finds).
      const seen = new Set(points.map(([instant]) => instant));
      for (const change of table.at) {
        if (change >= FROM && change < UNTIL && !seen.has(change)) mismatches.push(`${zone} ${new Date(change).toISOString()}: a change zdump does not list`);
      }
    }
    expect(mismatches).toEqual([]);
    // A zone without a change in these years (Etc/GMT+5, Asia/Riyadh's neighbours at sea) has no line but NULL ones.
    expect(listed.size).toBeGreaterThan(400);
    expect(zones.length).toBeGreaterThanOrEqual(listed.size);
  });

  it('take the clocks IANA set last: Kiritimati’s jump over the date line, Manitoba on −05, Cuba on −04', () => {
    const hours = (zone: string, iso: string): number => offsetAt(transitionTable(zone), Date.parse(iso)) / 3600;
    // 1994-12-31 did not happen in Kiritimati: 30 December at −10 was followed by 1 January 1995 at +14.
    expect(hours('Pacific/Kiritimati', '1994-12-31T09:59:59Z')).toBe(-10);
    expect(hours('Pacific/Kiritimati', '1994-12-31T10:00:00Z')).toBe(14);
    expect(hours('America/Winnipeg', '2026-11-25T12:00:00Z')).toBe(-5);
    expect(hours('America/Winnipeg', '2027-01-15T12:00:00Z')).toBe(-5);
    expect(hours('America/Havana', '2026-11-25T12:00:00Z')).toBe(-4);
  });
});
