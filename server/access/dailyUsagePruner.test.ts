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
