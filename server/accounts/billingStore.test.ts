// The billing store over both implementations (embedded LMDB, Redis on a real redis-server): state, lookups and
// processed event ids kept across a reopen, each event applied once (also by two stores at once), and nothing
// written when a change is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyBillingState, planOfState, type BillingState } from './billingStore.js';
import { LmdbBillingStore, LmdbLocalBillingLedger } from './lmdbBillingStore.js';
import { STORE_KINDS, storeFixture } from '../../testing/storeFixture.js';

const subscribed = (accountId: string): BillingState => ({
  ...emptyBillingState(accountId, 1),
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  plan: 'pro',
  status: 'active',
  currentPeriodEnd: 2_000_000_000,
  updatedFromEvent: 100,
});

describe.each(STORE_KINDS)('the %s billing store', (kind) => {
  const fixture = storeFixture(kind);

  it('keeps the state, its lookups and the processed event ids across a reopen', async () => {
    const first = await fixture.open();
    const outcome = await first.billing.applyEvent('evt_1', 'acc_1', () => subscribed('acc_1'), 10);
    expect(outcome).toMatchObject({ applied: true, before: undefined, state: { plan: 'pro', updatedAt: 10 } });
    await first.close();

    const again = (await fixture.open()).billing;
    expect(await again.get('acc_1')).toMatchObject({ subscriptionId: 'sub_1', status: 'active', currentPeriodEnd: 2_000_000_000 });
    expect(await again.accountIdByCustomer('cus_1')).toBe('acc_1');
    expect(await again.accountIdBySubscription('sub_1')).toBe('acc_1');
    expect(await again.accountIdByCustomer('cus_2')).toBeUndefined();
    expect(await again.hasProcessed('evt_1')).toBe(true);
    expect(await again.hasProcessed('evt_2')).toBe(false);
  });

  it('applies an event id once: the second time nothing runs', async () => {
    const store = (await fixture.open()).billing;
    let runs = 0;
    const change = (current: BillingState | undefined): BillingState => {
      runs++;
      return { ...(current ?? emptyBillingState('acc_1', 0)), status: 'active' };
    };
    expect((await store.applyEvent('evt_1', 'acc_1', change, 1)).applied).toBe(true);
    expect(await store.applyEvent('evt_1', 'acc_1', change, 2)).toEqual({ applied: false, duplicate: true });
    expect(runs).toBe(1);
  });

  it('applies an event delivered to two stores at once (two servers) exactly once; other events of the account all apply', async () => {
    const [a, b] = [(await fixture.open()).billing, (await fixture.open()).billing];
    const failed = (current: BillingState | undefined): BillingState => {
      const state = current ?? emptyBillingState('acc_1', 0);
      return { ...state, endedSubscriptions: [...state.endedSubscriptions, `sub_${state.endedSubscriptions.length}`] };
    };
    const outcomes = await Promise.all([
      ...Array.from({ length: 10 }, (_, n) => (n % 2 === 0 ? a : b).applyEvent('evt_same', 'acc_1', failed, 1)),
      ...Array.from({ length: 6 }, (_, n) => (n % 2 === 0 ? b : a).applyEvent(`evt_other_${n}`, 'acc_1', failed, 1)),
    ]);
    expect(outcomes.slice(0, 10).filter((o) => o.applied)).toHaveLength(1);
    expect(outcomes.slice(10).every((o) => o.applied)).toBe(true);
    // One entry per applied event: none lost to a concurrent write of the same account, none applied twice.
    expect((await a.get('acc_1'))!.endedSubscriptions).toHaveLength(7);
  });

  it('records an event of no known account without a state, and leaves a state alone when the change returns nothing', async () => {
    const store = (await fixture.open()).billing;
    expect(await store.applyEvent('evt_x', undefined, () => subscribed('acc_1'), 1)).toMatchObject({ applied: true, state: undefined });
    expect(await store.hasProcessed('evt_x')).toBe(true);
    expect(await store.get('acc_1')).toBeUndefined();
    await store.applyEvent('evt_1', 'acc_1', () => subscribed('acc_1'), 2);
    expect(await store.applyEvent('evt_2', 'acc_1', () => undefined, 3)).toMatchObject({ applied: true, state: { updatedAt: 2 } });
  });

  it('refuses a state of another account, and writes nothing then', async () => {
    const store = (await fixture.open()).billing;
    await expect(Promise.resolve().then(() => store.applyEvent('evt_1', 'acc_1', () => subscribed('acc_2'), 1))).rejects.toThrow(/acc_2/);
    expect(await store.hasProcessed('evt_1')).toBe(false);
    // The store still works after a refused change.
    expect((await store.applyEvent('evt_1', 'acc_1', () => subscribed('acc_1'), 2)).applied).toBe(true);
  });
});

describe('the LMDB billing store', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('shares the environment with the local provider books', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'billing-store-'));
    dirs.push(dir);
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
