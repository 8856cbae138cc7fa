import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../accounts/accountStore.js';
import { NoCustomerError, WebhookVerificationError } from './billingProvider.js';
import { StripeProvider, stripeSettingsFromEnv, type StripeSessionsClient } from './stripeProvider.js';

const SECRET = 'whsec_test_secret';
const settings = { secretKey: 'sk_test_x', webhookSecret: SECRET, prices: { pro: 'price_pro', business: 'price_business' } };
const account: Account = { id: 'acc_1', email: 'a@example.com', plan: 'trial', createdAt: '2026-01-01T00:00:00.000Z' };

function recordingClient(): StripeSessionsClient & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    createCheckoutSession: async (params) => (calls.push(params), { url: 'https://checkout.example/cs_1' }),
    createPortalSession: async (params) => (calls.push(params), { url: 'https://portal.example/ps_1' }),
  };
}

const provider = (customers: Record<string, string> = {}, client = recordingClient()) => new StripeProvider(settings, (id) => customers[id], client);

const subscriptionEvent = {
  id: 'evt_sub_1',
  object: 'event',
  api_version: Stripe.API_VERSION,
  created: 1_800_000_000,
  type: 'customer.subscription.updated',
  data: {
    object: {
      id: 'sub_1',
      object: 'subscription',
      customer: 'cus_1',
      status: 'active',
      cancel_at_period_end: true,
      metadata: { account_id: 'acc_1', plan: 'pro' },
      items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', current_period_end: 1_802_000_000, price: { id: 'price_business', object: 'price' } }] },
    },
  },
};

const sign = (payload: string, secret = SECRET, timestamp?: number): string => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
const failure = (run: () => unknown): WebhookVerificationError => {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('no error thrown');
};

describe('the Stripe provider: webhook verification with events signed by the stripe package', () => {
  const body = JSON.stringify(subscriptionEvent);

  it('accepts a valid signature and translates the event (the period end from the subscription item, the plan from the price)', () => {
    const event = provider().verifyWebhook(Buffer.from(body), sign(body));
    expect(event).toEqual({
      id: 'evt_sub_1',
      created: 1_800_000_000,
      providerType: 'customer.subscription.updated',
      customerId: 'cus_1',
      accountId: 'acc_1',
      kind: 'subscription',
      subscription: { id: 'sub_1', status: 'active', plan: 'business', currentPeriodEnd: 1_802_000_000, cancelAtPeriodEnd: true, endedAt: undefined },
    });
  });

  it('refuses a signature made with another secret', () => {
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), sign(body, 'whsec_other'))).problem).toBe('invalid_signature');
  });

  it('refuses a tampered body', () => {
    const tampered = body.replace('"status":"active"', '"status":"canceled"');
    expect(tampered).not.toBe(body);
    expect(failure(() => provider().verifyWebhook(Buffer.from(tampered), sign(body))).problem).toBe('invalid_signature');
  });

  it('refuses a timestamp older than five minutes', () => {
    const old = Math.floor(Date.now() / 1000) - 301;
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), sign(body, SECRET, old))).problem).toBe('invalid_signature');
    // Within the tolerance it passes.
    expect(provider().verifyWebhook(Buffer.from(body), sign(body, SECRET, old + 60)).id).toBe('evt_sub_1');
  });

  it('refuses a timestamp more than five minutes ahead (the stripe package takes any future one), at the given time of receipt', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), sign(body, SECRET, now + 301))).message).toContain('ahead');
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), sign(body, SECRET, now + 3600))).problem).toBe('invalid_signature');
    expect(provider().verifyWebhook(Buffer.from(body), sign(body, SECRET, now + 240)).id).toBe('evt_sub_1');
    // Received an hour later, an hour ahead is on time; received now, an hour behind is not.
    expect(provider().verifyWebhook(Buffer.from(body), sign(body, SECRET, now + 3600), (now + 3600) * 1000).id).toBe('evt_sub_1');
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), sign(body, SECRET, now), (now + 3600) * 1000)).problem).toBe('invalid_signature');
  });

  it('refuses a missing or malformed header', () => {
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), undefined)).problem).toBe('missing_signature');
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), '')).problem).toBe('missing_signature');
    expect(failure(() => provider().verifyWebhook(Buffer.from(body), 'garbage')).problem).toBe('invalid_signature');
  });

  it('refuses a signed body that is no event', () => {
    for (const bad of ['not json', '{"id":"evt_1"}']) {
      expect(failure(() => provider().verifyWebhook(Buffer.from(bad), sign(bad))).problem).toBe('invalid_payload');
    }
  });

  it('translates checkout, invoice and deletion events of the current API version', () => {
    const p = provider();
    const deliver = (type: string, object: object) => {
      const payload = JSON.stringify({ id: `evt_${type}`, object: 'event', created: 1_800_000_100, type, data: { object } });
      return p.verifyWebhook(Buffer.from(payload), sign(payload));
    };
    expect(deliver('checkout.session.completed', { id: 'cs_1', mode: 'subscription', client_reference_id: 'acc_1', customer: 'cus_1', subscription: 'sub_1', payment_status: 'paid', metadata: { plan: 'pro' } })).toMatchObject({
      kind: 'checkout_completed', accountId: 'acc_1', customerId: 'cus_1', subscriptionId: 'sub_1', plan: 'pro', paid: true,
    });
    expect(deliver('checkout.session.completed', { id: 'cs_2', mode: 'payment' })).toMatchObject({ kind: 'other' });
    const invoice = {
      id: 'in_1', customer: 'cus_1',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1', metadata: { account_id: 'acc_1' } } },
      lines: { data: [{ period: { start: 1_800_000_000, end: 1_802_600_000 }, pricing: { price_details: { price: 'price_pro' } } }] },
    };
    expect(deliver('invoice.paid', invoice)).toMatchObject({ kind: 'invoice_paid', accountId: 'acc_1', subscriptionId: 'sub_1', invoiceId: 'in_1', plan: 'pro', periodEnd: 1_802_600_000 });
    expect(deliver('invoice.payment_failed', invoice)).toMatchObject({ kind: 'invoice_payment_failed', subscriptionId: 'sub_1', invoiceId: 'in_1' });
    expect(deliver('customer.subscription.deleted', { ...subscriptionEvent.data.object, status: 'canceled', ended_at: 1_800_000_050 })).toMatchObject({
      kind: 'subscription', subscription: { id: 'sub_1', status: 'canceled', endedAt: 1_800_000_050 },
    });
    expect(deliver('customer.created', { id: 'cus_1' })).toMatchObject({ kind: 'other', id: 'evt_customer.created' });
  });
});

describe('the Stripe provider: sessions, through an injected client (no network)', () => {
  it('opens a subscription-mode checkout with the plan price, the account as client_reference_id and metadata', async () => {
    const client = recordingClient();
    const url = await provider({}, client).checkoutUrl(account, 'business', { success: 'https://x/s', cancel: 'https://x/c' });
    expect(url).toBe('https://checkout.example/cs_1');
    expect(client.calls[0]).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_business', quantity: 1 }],
      client_reference_id: 'acc_1',
      customer_email: 'a@example.com',
      metadata: { account_id: 'acc_1', plan: 'business' },
      subscription_data: { metadata: { account_id: 'acc_1', plan: 'business' } },
      success_url: 'https://x/s',
      cancel_url: 'https://x/c',
    });
    await provider({ acc_1: 'cus_1' }, client).checkoutUrl(account, 'pro', { success: 'https://x/s', cancel: 'https://x/c' });
    expect(client.calls[1]).toMatchObject({ customer: 'cus_1', line_items: [{ price: 'price_pro', quantity: 1 }] });
    expect(client.calls[1]).not.toHaveProperty('customer_email');
  });

  it('opens the billing portal for the known customer, and refuses an account with none', async () => {
    const client = recordingClient();
    expect(await provider({ acc_1: 'cus_1' }, client).portalUrl(account, 'https://x/b')).toBe('https://portal.example/ps_1');
    expect(client.calls[0]).toEqual({ customer: 'cus_1', return_url: 'https://x/b' });
    await expect(provider({}, client).portalUrl(account, 'https://x/b')).rejects.toBeInstanceOf(NoCustomerError);
  });

  it('reads its settings from the environment, naming the missing ones', () => {
    expect(() => stripeSettingsFromEnv({ STRIPE_SECRET_KEY: 'sk' })).toThrow('STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS');
    expect(stripeSettingsFromEnv({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh', STRIPE_PRICE_PRO: 'p1', STRIPE_PRICE_BUSINESS: 'p2' }).prices).toEqual({ pro: 'p1', business: 'p2' });
  });
});
