import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../accounts/accountStore.js';
import { MemoryBillingStore, MemoryLocalBillingLedger } from '../../accounts/billingMemoryStore.js';
import type { PlanName } from '../../accounts/plans.js';
import { applyBillingEvent } from './applyBillingEvent.js';
import type { BillingEvent } from './billingProvider.js';
import { addMonth, LOCAL_PRICES, LocalProvider, localBillingSecret } from './localProvider.js';
import { StripeProvider } from './stripeProvider.js';

const SECRET = 'whsec_local_test';
const NOW = Date.UTC(2026, 0, 31, 12) ; // 31 January: a month later is the last of February
let account: Account;
let billing: MemoryBillingStore;
let delivered: BillingEvent[];
let provider: LocalProvider;
let clock: number;

// The Stripe provider's own verification, with the local secret and prices: the local events take the production path.
const stripePath = new StripeProvider({ secretKey: 'sk_unused', webhookSecret: SECRET, prices: LOCAL_PRICES }, () => undefined, {
  createCheckoutSession: () => Promise.reject(new Error('no network')),
  createPortalSession: () => Promise.reject(new Error('no network')),
});

const accounts = {
  accountById: (id: string) => (id === account.id ? account : undefined),
  setPlanById: (_id: string, plan: PlanName) => (account = { ...account, plan }),
};

beforeEach(() => {
  account = { id: 'acc_1', email: 'a@example.com', plan: 'trial', createdAt: '2026-01-01T00:00:00Z' };
  billing = new MemoryBillingStore();
  delivered = [];
  clock = NOW;
  provider = new LocalProvider({
    secret: SECRET,
    ledger: new MemoryLocalBillingLedger(),
    now: () => clock,
    deliver: async (payload, header) => {
      const event = stripePath.verifyWebhook(Buffer.from(payload), header);
      delivered.push(event);
      await applyBillingEvent(event, { billing, accounts, now: Math.floor(clock / 1000) });
    },
  });
});

async function pay(plan: 'pro' | 'business' = 'pro', card: 'good' | 'failing' = 'good') {
  const url = await provider.checkoutUrl(account, plan, { success: 'http://x/dashboard/billing?checkout=success', cancel: 'http://x/dashboard/billing' });
  const token = new URL(url, 'http://x').searchParams.get('session');
  const session = provider.openSession(token, account.id)!;
  expect(session).toMatchObject({ plan, accountId: 'acc_1' });
  return { session, outcome: await provider.completeCheckout(session, account, card) };
}

describe('the local provider', () => {
  it('sends Stripe-shaped events, signed as Stripe signs them, that the Stripe verification accepts: a checkout makes the account pro', async () => {
    const { outcome } = await pay('pro');
    expect(outcome).toBe('paid');
    expect(delivered.map((e) => e.providerType)).toEqual(['customer.subscription.created', 'invoice.paid', 'customer.subscription.updated', 'checkout.session.completed']);
    expect(delivered.every((e) => /^evt_local_/.test(e.id))).toBe(true);
    expect(delivered[2]).toMatchObject({ kind: 'subscription', accountId: 'acc_1', subscription: { status: 'active', plan: 'pro', currentPeriodEnd: addMonth(NOW / 1000) } });
    expect(account.plan).toBe('pro');
    expect(billing.get('acc_1')).toMatchObject({ status: 'active', plan: 'pro', currentPeriodEnd: Date.UTC(2026, 1, 28, 12) / 1000 });
  });

  it('uses a checkout session once, refuses another account\'s or a forged one, and sends a subscriber to no second subscription', async () => {
    const { session } = await pay('pro');
    expect(await provider.completeCheckout(session, account, 'good')).toBe('used');
    const second = await provider.checkoutUrl(account, 'business', { success: 's', cancel: 'c' });
    const token = new URL(second, 'http://x').searchParams.get('session')!;
    expect(provider.openSession(token, 'acc_other')).toBeUndefined();
    expect(provider.openSession(`${token}x`, 'acc_1')).toBeUndefined();
    expect(await provider.completeCheckout(provider.openSession(token, 'acc_1')!, account, 'good')).toBe('already_subscribed');
    clock += 2 * 3600 * 1000;
    expect(provider.openSession(token, 'acc_1')).toBeUndefined();
  });

  it('declines a failing card (a notice, no plan), then takes the good one on the same subscription', async () => {
    expect((await pay('business', 'failing')).outcome).toBe('declined');
    expect(account.plan).toBe('trial');
    expect(billing.get('acc_1')).toMatchObject({ status: 'incomplete', paymentFailed: { at: NOW / 1000 } });
    expect((await pay('business')).outcome).toBe('paid');
    expect(account.plan).toBe('business');
    expect(billing.get('acc_1')?.paymentFailed).toBeUndefined();
    expect(new Set(delivered.filter((e) => e.kind === 'subscription').map((e) => (e as { subscription: { id: string } }).subscription.id)).size).toBe(1);
  });

  it('switches, cancels at period end, keeps the plan to the end, then trial', async () => {
    await pay('pro');
    expect(await provider.portalAction(account, 'switch', 'business')).toBe('done');
    expect(account.plan).toBe('business');
    expect(await provider.portalAction(account, 'cancel')).toBe('done');
    expect(billing.get('acc_1')?.cancelAtPeriodEnd).toBe(true);
    expect(account.plan).toBe('business');
    expect(LocalProvider.possibleActions(provider.record('acc_1'))).toContain('resume');
    expect(await provider.portalAction(account, 'period_end')).toBe('done');
    expect(delivered.at(-1)).toMatchObject({ providerType: 'customer.subscription.deleted', created: addMonth(NOW / 1000) });
    expect(account.plan).toBe('trial');
    expect(await provider.portalAction(account, 'cancel')).toBe('not_possible');
  });

  it('renews at period end; a failed renewal shows a notice and keeps the plan until paid or ended', async () => {
    await pay('pro');
    await provider.portalAction(account, 'period_end');
    expect(billing.get('acc_1')).toMatchObject({ status: 'active', currentPeriodEnd: addMonth(addMonth(NOW / 1000)) });
    await provider.portalAction(account, 'period_end_failing');
    expect(billing.get('acc_1')).toMatchObject({ status: 'past_due', paymentFailed: {} });
    expect(account.plan).toBe('pro');
    clock += 60_000; // the retry is later than the failure
    await provider.portalAction(account, 'pay_now');
    expect(billing.get('acc_1')?.paymentFailed).toBeUndefined();
    await provider.portalAction(account, 'period_end_failing');
    expect(account.plan).toBe('pro');
    await provider.portalAction(account, 'end_now');
    expect(account.plan).toBe('trial');
    expect(billing.get('acc_1')).toMatchObject({ status: 'canceled', paymentFailed: undefined });
    // And a new checkout starts a new subscription, dated after the advanced clock.
    expect((await pay('pro')).outcome).toBe('paid');
    expect(account.plan).toBe('pro');
  });

  it('opens no portal before a first checkout', async () => {
    await expect(provider.portalUrl(account, 'http://x/dashboard/billing')).rejects.toThrow(/no billing customer/);
  });

  it('keeps its webhook secret in the data directory, made once', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'billing-secret-'));
    try {
      const first = localBillingSecret(dir, {});
      expect(first).toMatch(/^whsec_local_[0-9a-f]{48}$/);
      expect(localBillingSecret(dir, {})).toBe(first);
      expect(localBillingSecret(dir, { LOCAL_BILLING_SECRET: 'whsec_given' })).toBe('whsec_given');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
