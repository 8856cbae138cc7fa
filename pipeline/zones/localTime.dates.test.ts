// Which local dates a zone's clocks show (ZoneOffsets.dateExists, behind localDateExists): its shortcut, one offset
// three days either side of the date's noon, gives what the probes alone give, for every zone, on every date within
// four days of each of its transitions from 1900 to 2100 and on a sample of the others.
import { describe, expect, it } from 'vitest';
import { ZoneOffsets } from './localTime.js';
import { knownZoneNames, offsetSeconds, transitionTable } from './zoneRules.js';

const DAY_MS = 86_400_000;
const FIRST_DAY = Math.floor(Date.UTC(1900, 0, 1) / DAY_MS);
const LAST_DAY = Math.floor(Date.UTC(2100, 11, 31) / DAY_MS);

/** The probes alone (localTime.ts before the shortcut): local noon seen with each offset within two days. */
function probedDateExists(epochDay: number, zoneName: string): boolean {
  const noon = epochDay * DAY_MS + DAY_MS / 2;
  for (let probe = noon - 2 * DAY_MS; probe <= noon + 2 * DAY_MS; probe += 2 * DAY_MS) {
    const instant = noon - offsetSeconds(zoneName, probe) * 1000;
    if (Math.floor((instant + offsetSeconds(zoneName, instant) * 1000) / DAY_MS) === epochDay) return true;
  }
  return false;
}

describe('ZoneOffsets.dateExists', () => {
  it('equals the probes for every zone around each transition, and on every 97th day', () => {
    const differences: string[] = [];
    let compared = 0;
    let skipped = 0;
    for (const zoneName of knownZoneNames()) {
      const days = new Set<number>();
      for (const at of transitionTable(zoneName).at) {
        if (!Number.isFinite(at)) continue; // the table's start
        const day = Math.floor(at / DAY_MS);
        for (let d = day - 4; d <= day + 4; d++) if (d >= FIRST_DAY && d <= LAST_DAY) days.add(d);
      }
      for (let d = FIRST_DAY; d <= LAST_DAY; d += 97) days.add(d);
      // One ZoneOffsets for the zone's dates in order, as a month's rendering asks it.
      const zone = new ZoneOffsets(zoneName);
      for (const day of [...days].sort((a, b) => a - b)) {
        const exists = zone.dateExists(day);
        compared++;
        if (!exists) skipped++;
        if (exists !== probedDateExists(day, zoneName) && differences.length < 10) differences.push(`${zoneName} ${new Date(day * DAY_MS).toISOString().slice(0, 10)}`);
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(100_000);
    // Samoa's 30 December 2011, Kwajalein's 21 August 1993, and the like, among them.
    expect(skipped).toBeGreaterThan(2);
  });
});
