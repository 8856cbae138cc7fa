// UsageTally alone: what Redis counted of lost answers, from the field Redis holds and the answers received.
import { describe, expect, it } from 'vitest';
import { UsageTally, type HeldTally } from './usageTally.js';

/** Settles `tally` against `held` (by account); returns the corrections it hands over. */
async function settle(tally: UsageTally, held: Record<string, HeldTally>): Promise<Array<[string, string, number]>> {
  const corrections: Array<[string, string, number]> = [];
  await tally.settle(async (id) => held[id] ?? { month: null, units: 0 }, (id, day, units) => corrections.push([id, day, units]));
  return corrections;
}

describe('UsageTally', () => {
  it('gives what Redis counted beyond the answers received, once, for the accounts with a lost answer only', async () => {
    const tally = new UsageTally();
    tally.confirm('a', '2026-11', 5);
    tally.confirm('a', '2026-11', 0); // a refusal
    tally.confirm('b', '2026-11', 2);
    tally.lose('a', '2026-11-23');
    const held = { a: { month: '2026-11', units: 7 }, b: { month: '2026-11', units: 9 } };
    expect(await settle(tally, held)).toEqual([['a', '2026-11-23', 2]]);
    // Settled: nothing more, and the next lost answer counts from what Redis held.
    expect(await settle(tally, held)).toEqual([]);
    tally.lose('a', '2026-11-23');
    expect(await settle(tally, { a: { month: '2026-11', units: 8 } })).toEqual([['a', '2026-11-23', 1]]);
  });

  it('nothing when Redis did not run the lost count, or holds no record', async () => {
    const tally = new UsageTally();
    tally.confirm('a', '2026-11', 4);
    tally.lose('a', '2026-11-23');
    tally.lose('c', '2026-11-23');
    expect(await settle(tally, { a: { month: '2026-11', units: 4 } })).toEqual([]);
  });

  it('a month Redis began since: all of the field is from lost answers; an older record counts nothing', async () => {
    const tally = new UsageTally();
    tally.confirm('a', '2026-11', 40);
    tally.lose('a', '2026-12-01');
    expect(await settle(tally, { a: { month: '2026-12', units: 3 } })).toEqual([['a', '2026-12-01', 3]]);
    // The sums restarted with the month: an answer of last month arriving late changes nothing.
    tally.confirm('a', '2026-11', 1);
    tally.lose('a', '2026-12-01');
    expect(await settle(tally, { a: { month: '2026-12', units: 3 } })).toEqual([]);
    tally.lose('b', '2026-12-01');
    expect(await settle(tally, { b: { month: '2026-10', units: 6 } })).toEqual([]);
  });

  it('an account whose read fails stays lost for the next try', async () => {
    const tally = new UsageTally();
    tally.lose('a', '2026-11-23');
    await expect(tally.settle(async () => Promise.reject(new Error('down')), () => undefined)).rejects.toThrow('down');
    expect(await settle(tally, { a: { month: '2026-11', units: 1 } })).toEqual([['a', '2026-11-23', 1]]);
  });

  it('each ledger has a field of its own', () => {
    expect(new UsageTally().field).not.toBe(new UsageTally().field);
    expect(new UsageTally().field).toMatch(/^by:[0-9a-f]{12}$/);
  });
});
