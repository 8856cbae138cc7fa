// A point's answer is kept the second time the point is asked: the first ask only notes the key's hash.
import { describe, expect, it } from 'vitest';
import { askedBefore } from './askedBefore.js';

describe('askedBefore', () => {
  it('is false the first time a key is asked and true the next', () => {
    const key = `times|http://x|@41.0123,28.9876|Europe/Istanbul|diyanet|hanafi|2026-11-25`;
    expect(askedBefore(key)).toBe(false);
    expect(askedBefore(key)).toBe(true);
    expect(askedBefore(key)).toBe(true);
  });

  it('tells most new keys apart: of 10,000 new points, almost none look asked before', () => {
    let early = 0;
    for (let i = 0; i < 10_000; i++) if (askedBefore(`qibla|http://x|${(40 + i / 7919).toFixed(6)},${(29 - i / 104729).toFixed(6)}`)) early++;
    // 10,000 keys in 65,536 slots: a collision needs the same 32-bit hash, not only the same slot.
    expect(early).toBeLessThan(5);
  });
});
