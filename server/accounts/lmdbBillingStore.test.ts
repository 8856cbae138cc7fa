import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyBillingState, planOfState, type BillingState } from './billingStore.js';
import { LmdbBillingStore, LmdbLocalBillingLedger } from './lmdbBillingStore.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'billing-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const subscribed = (accountId: string): BillingState => ({
  ...emptyBillingState(accountId, 1),
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  plan: 'pro',
  status: 'active',
  currentPeriodEnd: 2_000_000_000,
  updatedFromEvent: 100,
});

describe('the LMDB billing store', () => {
  it('keeps the state, its lookups and the processed event ids across a reopen', async () => {
    const dir = tempDir();
    const store = LmdbBillingStore.open(dir);
    const outcome = store.applyEvent('evt_1', 'acc_1', () => subscribed('acc_1'), 10);
    expect(outcome).toMatchObject({ applied: true, before: undefined, state: { plan: 'pro', updatedAt: 10 } });
    await store.close();

    const again = LmdbBillingStore.open(dir);
    expect(again.get('acc_1')).toMatchObject({ subscriptionId: 'sub_1', status: 'active', currentPeriodEnd: 2_000_000_000 });
    expect(again.accountIdByCustomer('cus_1')).toBe('acc_1');
    expect(again.accountIdBySubscription('sub_1')).toBe('acc_1');
    expect(again.accountIdByCustomer('cus_2')).toBeUndefined();
    expect(again.hasProcessed('evt_1')).toBe(true);
    expect(again.hasProcessed('evt_2')).toBe(false);
    await again.close();
  });

  it('applies an event id once: the second time nothing runs', async () => {
    const store = LmdbBillingStore.open(tempDir());
    let runs = 0;
    const change = (current: BillingState | undefined): BillingState => {
      runs++;
      return { ...(current ?? emptyBillingState('acc_1', 0)), status: 'active' };
    };
    expect(store.applyEvent('evt_1', 'acc_1', change, 1).applied).toBe(true);
    expect(store.applyEvent('evt_1', 'acc_1', change, 2)).toEqual({ applied: false, duplicate: true });
    expect(runs).toBe(1);
    await store.close();
  });

  it('records an event of no known account without a state, and leaves a state alone when the change returns nothing', async () => {
    const store = LmdbBillingStore.open(tempDir());
    expect(store.applyEvent('evt_x', undefined, () => subscribed('acc_1'), 1)).toMatchObject({ applied: true, state: undefined });
    expect(store.hasProcessed('evt_x')).toBe(true);
    expect(store.get('acc_1')).toBeUndefined();
    store.applyEvent('evt_1', 'acc_1', () => subscribed('acc_1'), 2);
    expect(store.applyEvent('evt_2', 'acc_1', () => undefined, 3)).toMatchObject({ applied: true, state: { updatedAt: 2 } });
    await store.close();
  });

  it('refuses a state of another account, and writes nothing then', async () => {
    const store = LmdbBillingStore.open(tempDir());
    expect(() => store.applyEvent('evt_1', 'acc_1', () => subscribed('acc_2'), 1)).toThrow(/acc_2/);
    expect(store.hasProcessed('evt_1')).toBe(false);
    await store.close();
  });

  it('shares the environment with the local provider books', async () => {
    const dir = tempDir();
    const store = LmdbBillingStore.open(dir);
    const ledger = LmdbLocalBillingLedger.open(dir);
    ledger.put({ accountId: 'acc_1', customerId: 'cus_local_1', status: 'none', cancelAtPeriodEnd: false, clock: 0, completedSessions: [] });
    expect(ledger.get('acc_1')?.customerId).toBe('cus_local_1');
    await ledger.close();
    expect(store.get('acc_1')).toBeUndefined();
    await store.close();
  });
});

describe('the plan of a billing state', () => {
  it('is the subscribed plan while paid for (a failed renewal keeps it), else trial', () => {
    const state = subscribed('acc_1');
    expect(planOfState(undefined)).toBe('trial');
    expect(planOfState(state)).toBe('pro');
    expect(planOfState({ ...state, status: 'past_due' })).toBe('pro');
    expect(planOfState({ ...state, status: 'incomplete' })).toBe('trial');
    expect(planOfState({ ...state, status: 'canceled' })).toBe('trial');
    expect(planOfState({ ...state, endedSubscriptions: ['sub_1'] })).toBe('trial');
  });
});
