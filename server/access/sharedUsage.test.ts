import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SharedUsage } from './sharedUsage.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const PER_MINUTE = 250_000;

/**
 * Starts `threads` threads on the same table; once all are ready they start together, and each makes `rounds`
 * admissions for every account in turn. Resolves with how many each thread had admitted.
 */
async function race(buffer: SharedArrayBuffer, threads: number, accounts: string[], rounds: number): Promise<number[]> {
  const barrier = new Int32Array(new SharedArrayBuffer(8)); // [threads ready, go]
  const source = `
    const { workerData, parentPort } = require('node:worker_threads');
    (async () => {
      const { register } = await import('tsx/esm/api');
      register();
      const { SharedUsage } = await import(workerData.sharedUsage);
      const { admit, planQuota } = await import(workerData.quota);
      const table = SharedUsage.attach(workerData.buffer);
      const plan = planQuota({ perMinute: workerData.perMinute, perMonth: 10000000 });
      Atomics.add(workerData.barrier, 0, 1);
      Atomics.wait(workerData.barrier, 1, 0);
      let admitted = 0;
      for (let i = 0; i < workerData.rounds; i++) {
        for (const account of workerData.accounts) {
          if (!table.update(account, (u) => admit(u, plan, workerData.now, 1)).refused) admitted++;
        }
      }
      parentPort.postMessage(admitted);
    })();`;
  const workerData = {
    buffer,
    barrier,
    accounts,
    rounds,
    now: NOW,
    perMinute: PER_MINUTE,
    sharedUsage: new URL('./sharedUsage.ts', import.meta.url).href,
    quota: new URL('./quota.ts', import.meta.url).href,
  };
  const results = Array.from({ length: threads }, () => {
    const worker = new Worker(source, { eval: true, workerData });
    return new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  });
  while (Atomics.load(barrier, 0) < threads) await new Promise((r) => setTimeout(r, 10));
  Atomics.store(barrier, 1, 1);
  Atomics.notify(barrier, 1);
  return Promise.all(results);
}

describe('SharedUsage', () => {
  it('four threads racing on one account admit exactly the per-minute limit', async () => {
    const table = SharedUsage.create(10);
    const admitted = await race(table.buffer, 4, ['acc_0123456789abcdef'], 100_000);
    expect(admitted.reduce((a, b) => a + b, 0)).toBe(PER_MINUTE);
    // Every thread got some: they did run at the same time.
    expect(admitted.every((n) => n > 0)).toBe(true);
    expect(table.read('acc_0123456789abcdef')).toMatchObject({ month: '2026-11', monthCount: PER_MINUTE, windowCount: PER_MINUTE });
  }, 60_000);

  it('threads that meet the same new accounts at once give each one slot, and count each request once', async () => {
    const table = SharedUsage.create(10);
    const accounts = Array.from({ length: 500 }, (_, i) => `acc_${i.toString(16).padStart(16, '0')}`);
    await race(table.buffer, 3, accounts, 20);
    for (const account of accounts) expect(table.read(account)?.monthCount).toBe(60);
    expect(table.takeChanged()).toHaveLength(accounts.length);
  }, 60_000);

  it('loads stored counts unmarked, and hands back each changed record once', () => {
    const table = SharedUsage.create(3);
    table.load([['acc_a', { month: '2026-11', monthCount: 41, windowStart: NOW - 5_000, windowCount: 3 }]]);
    expect(table.takeChanged()).toEqual([]);
    table.update('acc_a', (u) => {
      u.monthCount++;
      u.windowCount++;
    });
    expect(table.takeChanged()).toEqual([['acc_a', { month: '2026-11', monthCount: 42, windowStart: NOW - 5_000, windowCount: 4 }]]);
    expect(table.takeChanged()).toEqual([]);
    table.markChanged(['acc_a']);
    expect(table.takeChanged().map(([id]) => id)).toEqual(['acc_a']);
    expect(table.read('acc_unknown')).toBeUndefined();
  });

  it('refuses an account id that does not fit', () => {
    expect(() => SharedUsage.create(1).update('x'.repeat(100), () => 0)).toThrow(/does not fit/);
  });
});
