import { beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../accounts/accountStore.js';
import { MemoryBillingStore } from '../../accounts/billingMemoryStore.js';
import type { PaidPlan, SubscriptionStatus } from '../../accounts/billingStore.js';
import type { PlanName } from '../../accounts/plans.js';
import { applyBillingEvent, type ApplyResult } from './applyBillingEvent.js';
import type { BillingEvent } from './billingProvider.js';

const T0 = 1_800_000_000;
const MONTH = 30 * 86_400;

class FakeAccounts {
  readonly accounts = new Map<string, Account>([['acc_1', { id: 'acc_1', email: 'a@example.com', plan: 'trial', createdAt: '2026-01-01T00:00:00Z' }]]);
  planChanges = 0;
  accountById(id: string): Account | undefined {
    return this.accounts.get(id);
  }
  setPlanById(id: string, plan: PlanName): Account {
    const account = { ...this.accounts.get(id)!, plan };
    this.accounts.set(id, account);
    this.planChanges++;
    return account;
  }
  plan(): PlanName {
    return this.accounts.get('acc_1')!.plan;
  }
}

let billing: MemoryBillingStore;
let accounts: FakeAccounts;
let counter = 0;
beforeEach(() => {
  billing = new MemoryBillingStore();
  accounts = new FakeAccounts();
  counter = 0;
});

const apply = (event: BillingEvent): Promise<ApplyResult> => applyBillingEvent(event, { billing, accounts, now: event.created });
const state = () => billing.get('acc_1');
const nextId = () => `evt_${++counter}`;

const checkout = (created: number, plan: PaidPlan = 'pro', paid = true, subscriptionId = 'sub_1'): BillingEvent => ({
  id: nextId(), created, providerType: 'checkout.session.completed', accountId: 'acc_1', customerId: 'cus_1', kind: 'checkout_completed', subscriptionId, plan, paid,
});
const subscription = (
  created: number,
  fields: { status?: SubscriptionStatus; plan?: PaidPlan; periodEnd?: number; cancel?: boolean; deleted?: boolean; id?: string; accountId?: string } = {},
): BillingEvent => ({
  id: nextId(),
  created,
  providerType: fields.deleted ? 'customer.subscription.deleted' : 'customer.subscription.updated',
  customerId: 'cus_1',
  accountId: fields.accountId,
  kind: 'subscription',
  subscription: {
    id: fields.id ?? 'sub_1',
    status: fields.deleted ? 'canceled' : (fields.status ?? 'active'),
    plan: fields.plan ?? 'pro',
    currentPeriodEnd: fields.periodEnd ?? T0 + MONTH,
    cancelAtPeriodEnd: fields.cancel ?? false,
    endedAt: fields.deleted ? created : undefined,
  },
});
const invoicePaid = (created: number, periodEnd = T0 + MONTH, subscriptionId = 'sub_1'): BillingEvent => ({
  id: nextId(), created, providerType: 'invoice.paid', customerId: 'cus_1', kind: 'invoice_paid', subscriptionId, invoiceId: `in_${created}`, periodEnd,
});
const invoiceFailed = (created: number, subscriptionId = 'sub_1'): BillingEvent => ({
  id: nextId(), created, providerType: 'invoice.payment_failed', customerId: 'cus_1', kind: 'invoice_payment_failed', subscriptionId, invoiceId: `in_${created}`,
});

/** Stripe's order for a paid checkout: the subscription created incomplete, the invoice paid, active, the session completed. */
async function upgrade(plan: PaidPlan = 'pro', at = T0): Promise<void> {
  await apply(subscription(at, { status: 'incomplete', plan, accountId: 'acc_1' }));
  expect(accounts.plan()).toBe('trial');
  await apply(invoicePaid(at));
  await apply(subscription(at, { status: 'active', plan }));
  await apply(checkout(at, plan));
}

describe('applying billing events', () => {
  it('upgrades when the provider confirms payment, not before', async () => {
    await apply(subscription(T0, { status: 'incomplete', accountId: 'acc_1' }));
    expect(accounts.plan()).toBe('trial');
    expect(state()).toMatchObject({ status: 'incomplete', subscriptionId: 'sub_1', customerId: 'cus_1' });
    expect(await apply(invoicePaid(T0 + 1))).toEqual({ result: 'applied', accountId: 'acc_1', plan: 'pro', planChanged: true });
    expect(accounts.plan()).toBe('pro');
    expect(state()).toMatchObject({ status: 'active', plan: 'pro', currentPeriodEnd: T0 + MONTH, cancelAtPeriodEnd: false });
  });

  it('upgrades on a paid checkout alone (the account named by client_reference_id), not on an unpaid one', async () => {
    await apply(checkout(T0, 'business', false));
    expect(accounts.plan()).toBe('trial');
    await apply(checkout(T0 + 1, 'business', true));
    expect(accounts.plan()).toBe('business');
    expect(billing.accountIdByCustomer('cus_1')).toBe('acc_1');
    expect(billing.accountIdBySubscription('sub_1')).toBe('acc_1');
  });

  it('switches pro to business', async () => {
    await upgrade('pro');
    expect(accounts.plan()).toBe('pro');
    await apply(subscription(T0 + 100, { plan: 'business' }));
    expect(accounts.plan()).toBe('business');
    expect(state()?.plan).toBe('business');
  });

  it('keeps the plan to the end of the period after a cancel, then trial on the deletion', async () => {
    await upgrade();
    await apply(subscription(T0 + 100, { cancel: true }));
    expect(accounts.plan()).toBe('pro');
    expect(state()).toMatchObject({ cancelAtPeriodEnd: true, status: 'active', currentPeriodEnd: T0 + MONTH });
    await apply(subscription(T0 + MONTH, { deleted: true }));
    expect(accounts.plan()).toBe('trial');
    expect(state()).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false, endedSubscriptions: ['sub_1'] });
  });

  it('resumes a cancelled-at-period-end subscription', async () => {
    await upgrade();
    await apply(subscription(T0 + 100, { cancel: true }));
    await apply(subscription(T0 + 200, { cancel: false }));
    expect(state()?.cancelAtPeriodEnd).toBe(false);
    expect(accounts.plan()).toBe('pro');
  });

  it('sets a notice on a failed payment, keeps the plan, and clears it when a later payment succeeds', async () => {
    await upgrade();
    const renewal = T0 + MONTH;
    await apply(invoiceFailed(renewal));
    await apply(subscription(renewal, { status: 'past_due', periodEnd: renewal + MONTH }));
    expect(state()).toMatchObject({ status: 'past_due', paymentFailed: { at: renewal, invoiceId: `in_${renewal}` } });
    expect(accounts.plan()).toBe('pro');
    await apply(invoicePaid(renewal + 3600, renewal + MONTH));
    expect(state()?.paymentFailed).toBeUndefined();
    expect(state()?.status).toBe('active');
    expect(accounts.plan()).toBe('pro');
  });

  it('returns to trial when the provider ends the subscription after failed payments', async () => {
    await upgrade();
    await apply(invoiceFailed(T0 + MONTH));
    await apply(subscription(T0 + MONTH, { status: 'past_due', periodEnd: T0 + 2 * MONTH }));
    expect(accounts.plan()).toBe('pro');
    await apply(subscription(T0 + MONTH + 7 * 86_400, { deleted: true, periodEnd: T0 + 2 * MONTH }));
    expect(accounts.plan()).toBe('trial');
    expect(state()?.paymentFailed).toBeUndefined();
  });

  it('applies the same event id once', async () => {
    const paid = checkout(T0);
    expect((await apply(paid)).result).toBe('applied');
    const cancel = subscription(T0 + 10, { deleted: true });
    await apply(cancel);
    expect(accounts.plan()).toBe('trial');
    // A redelivery of the checkout changes nothing, and neither does a redelivery of the deletion.
    expect(await apply(paid)).toEqual({ result: 'duplicate' });
    expect(await apply(cancel)).toEqual({ result: 'duplicate' });
    expect(accounts.plan()).toBe('trial');
    expect(accounts.planChanges).toBe(2);
  });

  it('never lets an update delivered after the deletion bring the subscription back', async () => {
    await upgrade();
    await apply(subscription(T0 + MONTH, { deleted: true }));
    // Sent before the deletion, delivered after it; and one dated later still (a deleted subscription is final).
    expect(await apply(subscription(T0 + 100, { cancel: true }))).toMatchObject({ result: 'ignored' });
    expect(await apply(subscription(T0 + MONTH + 5, { status: 'active' }))).toMatchObject({ result: 'ignored' });
    expect(await apply(invoicePaid(T0 + MONTH + 6))).toMatchObject({ result: 'ignored' });
    expect(accounts.plan()).toBe('trial');
    expect(state()?.status).toBe('canceled');
  });

  it('never lets an older update overwrite a newer one', async () => {
    await upgrade('pro');
    const newer = subscription(T0 + 200, { plan: 'business' });
    const older = subscription(T0 + 100, { plan: 'pro', cancel: true });
    await apply(newer);
    expect(await apply(older)).toMatchObject({ result: 'ignored', reason: 'an older state of the subscription' });
    expect(state()).toMatchObject({ plan: 'business', cancelAtPeriodEnd: false });
    expect(accounts.plan()).toBe('business');
  });

  it('is not set back by Stripe\'s usual same-second reordering (incomplete delivered last)', async () => {
    const created = subscription(T0, { status: 'incomplete', accountId: 'acc_1' });
    await apply(checkout(T0));
    await apply(subscription(T0, { status: 'active' }));
    await apply(invoicePaid(T0));
    await apply(created);
    expect(state()?.status).toBe('active');
    expect(accounts.plan()).toBe('pro');
  });

  it('sets no notice for a failure delivered after a later payment', async () => {
    await upgrade();
    const failed = invoiceFailed(T0 + MONTH);
    await apply(invoicePaid(T0 + MONTH + 60, T0 + 2 * MONTH));
    expect(await apply(failed)).toMatchObject({ result: 'ignored', reason: 'a later payment succeeded' });
    expect(state()?.paymentFailed).toBeUndefined();
  });

  it('takes up a new subscription after an ended one, and ignores a late deletion of the old one', async () => {
    await upgrade('pro');
    await apply(subscription(T0 + MONTH, { deleted: true }));
    expect(accounts.plan()).toBe('trial');
    await apply(checkout(T0 + 2 * MONTH, 'business', true, 'sub_2'));
    expect(state()).toMatchObject({ subscriptionId: 'sub_2', plan: 'business', status: 'active' });
    expect(accounts.plan()).toBe('business');
    expect(await apply(subscription(T0 + MONTH, { deleted: true }))).toMatchObject({ result: 'ignored' });
    expect(accounts.plan()).toBe('business');
  });

  it('records an event of an unknown customer (or of an account that does not exist) and changes nothing', async () => {
    const stray = invoicePaid(T0, T0 + MONTH, 'sub_unknown');
    expect(await apply({ ...stray, customerId: 'cus_unknown' })).toEqual({ result: 'unknown_account' });
    expect(billing.hasProcessed(stray.id)).toBe(true);
    expect(await apply({ ...checkout(T0), accountId: 'acc_missing' })).toEqual({ result: 'unknown_account' });
    expect(billing.states.size).toBe(0);
    expect(accounts.plan()).toBe('trial');
  });

  it('finds the account by customer id once the checkout linked it', async () => {
    await apply(checkout(T0, 'pro', false));
    expect(await apply(invoicePaid(T0 + 1))).toMatchObject({ result: 'applied', accountId: 'acc_1', plan: 'pro' });
  });

  it('records events of other types without acting', async () => {
    await apply(checkout(T0));
    expect(await apply({ id: 'evt_other', created: T0, providerType: 'customer.created', customerId: 'cus_1', kind: 'other' })).toMatchObject({ result: 'ignored' });
    expect(billing.hasProcessed('evt_other')).toBe(true);
  });
});
