import { describe, expect, it } from 'vitest';
import { DailyUsagePruner } from './dailyUsagePruner.js';

describe('DailyUsagePruner', () => {
  it('deletes the days before the kept 400, once a UTC day, and tries again after a failure', async () => {
    const calls: string[] = [];
    let fail = true;
    const pruner = new DailyUsagePruner({
      pruneDailyUsage: async (beforeDay) => {
        calls.push(beforeDay);
        if (fail) throw new Error('Redis away');
      },
    });
    await pruner.prune('2026-11-23'); // fails: not noted as done
    fail = false;
    await pruner.prune('2026-11-23');
    await pruner.prune('2026-11-23'); // done today: nothing
    await pruner.prune('2026-11-24');
    expect(calls).toEqual(['2025-10-19', '2025-10-19', '2025-10-20']);
  });
});

describe('DailyUsagePruner and the usage per key', () => {
  it('deletes the days of usage per key before the kept 35, with the daily counts', async () => {
    const calls: string[] = [];
    const pruner = new DailyUsagePruner({
      pruneDailyUsage: async (beforeDay) => void calls.push(`daily ${beforeDay}`),
      pruneKeyUsage: async (beforeDay) => void calls.push(`keys ${beforeDay}`),
    });
    await pruner.prune('2026-11-23');
    await pruner.prune('2026-11-23');
    expect(calls).toEqual(['daily 2025-10-19', 'keys 2026-10-19']);
  });
});
