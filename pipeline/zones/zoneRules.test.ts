import { describe, expect, it } from 'vitest';
import { localDate, localDateExists } from './localTime.js';
import { canonicalZoneName, knownZoneNames, offsetSeconds, transitionTable, TZDATA_VERSION, zoneOf } from './zoneRules.js';

const HOUR = 3600;
const DAY_MS = 86_400_000;

/** The runtime's own rules (ICU's copy of the tz database, older than ours), in seconds east of UTC. */
const runtimeFormats = new Map<string, Intl.DateTimeFormat>();
function runtimeOffset(zone: string, ms: number): number {
  let format = runtimeFormats.get(zone);
  if (!format) runtimeFormats.set(zone, (format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })));
  const text = format.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value;
  const m = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(text);
  if (!m) throw new Error(`unexpected offset ${text}`);
  return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * HOUR + Number(m[3]) * 60 + Number(m[4] ?? 0)) : 0;
}
function runtimeKnows(zone: string): boolean {
  try {
    runtimeOffset(zone, 0);
    return true;
  } catch {
    return false;
  }
}

const at = (iso: string): number => Date.parse(iso);

/**
 * Zones whose 2025 clocks IANA has corrected since the runtime's copy was made: there the databases disagree, and
 * ours is the newer word. Moldova has changed on the EU's instants (01:00 UTC) since 2022; the runtime still
 * changes at 00:00 UTC.
 */
const CORRECTED_SINCE_THE_RUNTIME = ['Europe/Chisinau'];

describe('zone rules from the IANA tz database', () => {
  it('come from a release as new as the pinned tzdata package (2026d) or newer', () => {
    expect(TZDATA_VERSION).toMatch(/^20\d\d[a-z]$/);
    expect(TZDATA_VERSION >= '2026d').toBe(true);
  });

  it('agree with the runtime for every zone and every day of 2025, where the two databases agree', () => {
    const checked: string[] = [];
    for (const zone of knownZoneNames()) {
      if (!runtimeKnows(zone)) continue;
      if (CORRECTED_SINCE_THE_RUNTIME.includes(zoneOf(zone))) continue;
      // Twice a day, and the second before and the instant of each of our transitions in 2025.
      const probes: number[] = [];
      for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2026, 0, 1); t += DAY_MS / 2) probes.push(t);
      for (const change of transitionTable(zone).at) {
        if (change >= Date.UTC(2025, 0, 1) && change < Date.UTC(2026, 0, 1)) probes.push(change - 1000, change);
      }
      checked.push(zone);
      const mismatches = probes.filter((t) => offsetSeconds(zone, t) !== runtimeOffset(zone, t)).map((t) => new Date(t).toISOString());
      expect(mismatches, zone).toEqual([]);
    }
    expect(checked.length).toBeGreaterThan(550);
  });

  it('put Casablanca and Laâyoune at UTC+1 until 20 September 2026 and at UTC+0 from then on', () => {
    for (const zone of ['Africa/Casablanca', 'Africa/El_Aaiun']) {
      expect(offsetSeconds(zone, at('2026-09-01T12:00:00Z')), zone).toBe(HOUR);
      expect(offsetSeconds(zone, at('2026-09-19T12:00:00Z')), zone).toBe(HOUR);
      expect(offsetSeconds(zone, at('2026-09-21T12:00:00Z')), zone).toBe(0);
      expect(offsetSeconds(zone, at('2026-11-22T12:00:00Z')), zone).toBe(0);
      expect(offsetSeconds(zone, at('2027-06-15T12:00:00Z')), zone).toBe(0);
      // The runtime's older data still says UTC+1: exactly what this module replaces.
      expect(runtimeOffset(zone, at('2026-11-22T12:00:00Z')), zone).toBe(HOUR);
    }
  });

  it('put Alberta at −06 for good from 1 November 2026', () => {
    const edmonton = 'America/Edmonton';
    expect(offsetSeconds(edmonton, at('2026-07-01T12:00:00Z'))).toBe(-6 * HOUR);
    expect(offsetSeconds(edmonton, at('2026-11-02T12:00:00Z'))).toBe(-6 * HOUR);
    expect(offsetSeconds(edmonton, at('2027-01-15T12:00:00Z'))).toBe(-6 * HOUR);
    expect(offsetSeconds(edmonton, at('2027-07-15T12:00:00Z'))).toBe(-6 * HOUR);
    expect(offsetSeconds(edmonton, at('2026-01-15T12:00:00Z'))).toBe(-7 * HOUR);
    expect(runtimeOffset(edmonton, at('2026-11-22T12:00:00Z'))).toBe(-7 * HOUR);
  });

  it('change at the right minute on each DST change day of 2026 in a dozen zones across hemispheres', () => {
    const zones = [
      'Europe/Berlin', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'America/Santiago', 'America/Asuncion',
      'Australia/Sydney', 'Australia/Lord_Howe', 'Pacific/Auckland', 'Pacific/Chatham', 'Asia/Jerusalem', 'Africa/Cairo',
    ];
    let changes = 0;
    for (const zone of zones) {
      const { at: starts } = transitionTable(zone);
      const inYear = starts.filter((c) => c >= Date.UTC(2026, 0, 1) && c < Date.UTC(2027, 0, 1));
      for (const change of inYear) {
        changes++;
        // Every minute of the day around the change agrees with the runtime (these zones' 2026 rules are old news).
        for (let t = change - DAY_MS / 2; t < change + DAY_MS / 2; t += 60_000) {
          if (offsetSeconds(zone, t) !== runtimeOffset(zone, t)) throw new Error(`${zone} at ${new Date(t).toISOString()}`);
        }
        expect(offsetSeconds(zone, change - 1000)).not.toBe(offsetSeconds(zone, change));
      }
    }
    // Paraguay stays on −03 all year since 2024; every other zone changes twice.
    expect(changes).toBe(22);
  });

  it('keep local mean time before standard time, with its seconds', () => {
    // Istanbul Mean Time, +01:56:56, from 1880 to 1910.
    expect(offsetSeconds('Europe/Istanbul', at('1900-01-01T12:00:00Z'))).toBe(HOUR + 56 * 60 + 56);
    expect(offsetSeconds('Asia/Riyadh', at('1947-03-01T12:00:00Z'))).toBe(3 * HOUR + 6 * 60 + 52);
    expect(offsetSeconds('Africa/Monrovia', at('1971-12-31T12:00:00Z'))).toBe(-(44 * 60 + 30));
  });

  it('skip the day a zone jumps across the date line', () => {
    expect(localDateExists({ year: 2011, month: 12, day: 30 }, 'Pacific/Apia')).toBe(false);
    expect(localDateExists({ year: 2011, month: 12, day: 29 }, 'Pacific/Apia')).toBe(true);
    expect(localDateExists({ year: 2011, month: 12, day: 31 }, 'Pacific/Apia')).toBe(true);
    expect(localDate(at('2011-12-30T10:00:00Z'), 'Pacific/Apia')).toEqual({ year: 2011, month: 12, day: 31 });
    // A DST change skips an hour, never the day.
    expect(localDateExists({ year: 2026, month: 3, day: 29 }, 'Europe/Berlin')).toBe(true);
  });

  it('spell names canonically: case folded, links resolved, a country’s own zone kept', () => {
    expect(canonicalZoneName('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalZoneName('ASIA/CALCUTTA')).toBe('Asia/Kolkata');
    expect(canonicalZoneName('US/Eastern')).toBe('America/New_York');
    expect(canonicalZoneName('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalZoneName('UTC')).toBe('Etc/UTC');
    expect(canonicalZoneName('Asia/Istanbul')).toBe('Europe/Istanbul');
    // Links that zone.tab names as a country's zone stay: IANA merged them because their clocks agree since 1970.
    expect(canonicalZoneName('Europe/Oslo')).toBe('Europe/Oslo');
    expect(canonicalZoneName('Asia/Kuala_Lumpur')).toBe('Asia/Kuala_Lumpur');
    expect(offsetSeconds('Asia/Kuala_Lumpur', at('2026-01-01T00:00:00Z'))).toBe(8 * HOUR);
    expect(canonicalZoneName('Mars/Olympus_Mons')).toBeUndefined();
    expect(canonicalZoneName('+03:00')).toBeUndefined();
    expect(canonicalZoneName('')).toBeUndefined();
  });
});
