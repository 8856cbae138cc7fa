import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { offsetMinutes } from './localTime.js';

describe('zone offsets', () => {
  it('agree with luxon at every minute around transitions, across zones', () => {
    const cases: Array<[string, string]> = [
      ['Europe/Berlin', '2026-03-29'],
      ['Europe/Berlin', '2026-10-25'],
      ['America/New_York', '2026-03-08'],
      ['America/New_York', '2026-11-01'],
      ['Australia/Sydney', '2026-04-05'],
      ['Australia/Lord_Howe', '2026-04-05'], // a half-hour change
      ['America/Santiago', '2026-04-05'],
      ['Asia/Tehran', '2026-03-21'],
      ['Pacific/Chatham', '2026-04-05'],
    ];
    for (const [zoneName, date] of cases) {
      const z = IANAZone.create(zoneName);
      const start = Date.parse(`${date}T00:00:00Z`) - 86_400_000;
      for (let t = start; t < start + 3 * 86_400_000; t += 60_000) {
        if (offsetMinutes(zoneName, t) !== z.offset(t)) throw new Error(`${zoneName} at ${new Date(t).toISOString()}`);
      }
    }
    expect(offsetMinutes('Asia/Kathmandu', Date.parse('2026-01-01T00:00:00Z'))).toBe(345);
  });
});
