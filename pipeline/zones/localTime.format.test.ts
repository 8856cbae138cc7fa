import { describe, expect, it } from 'vitest';
import { clockTime, isoInstant } from './localTime.js';

describe('formatting instants', () => {
  it('agrees with Date for whole minutes and for other seconds', () => {
    for (let ms = Date.UTC(1899, 11, 31, 22); ms < Date.UTC(2101, 0, 2); ms += 7 * 86_400_000 + 1234 * 60_000) {
      expect(isoInstant(ms)).toBe(new Date(ms).toISOString().replace('.000Z', 'Z'));
      expect(isoInstant(ms + 17_000)).toBe(new Date(ms + 17_000).toISOString().replace('.000Z', 'Z'));
    }
    expect(clockTime(Date.UTC(2026, 0, 1, 23, 59), 0)).toBe('23:59');
    expect(clockTime(Date.UTC(2026, 0, 1, 23, 59), 180 * 60)).toBe('02:59');
    expect(clockTime(Date.UTC(2026, 0, 1, 0, 5), -300 * 60)).toBe('19:05');
    // Local mean time: Istanbul's +01:55:52 shows 10:00:08 UTC as 11:56.
    expect(clockTime(Date.UTC(1900, 0, 1, 10, 0, 8), 6952)).toBe('11:56');
  });
});
