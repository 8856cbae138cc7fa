// BILLING_PROVIDER=local (the default): a built-in stand-in for Stripe. It serves its own clearly marked TEST checkout
// and portal pages (billingPages.ts, routes in billingRoutes.ts), keeps its own books (LocalBillingLedger: what
// Stripe's side would know), and on every action sends the events Stripe would send, shaped like Stripe's (current API
// version: the period on the subscription item, the invoice's subscription under `parent.subscription_details`),
// signed exactly as Stripe signs them (the `stripe` package's `webhooks.generateTestHeaderString`) and POSTed to the
// server's own `/webhooks/billing`, where the same code as for Stripe verifies them (`webhooks.constructEvent`).
// Checkout sessions are HMAC-signed tokens (no storage), single use. A per-customer clock, like Stripe's test clocks,
// lets "simulate the period end" date events at the end of the period.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripePackage } from './stripePackage.js';
import type { Account } from '../../accounts/accountStore.js';
import { isPaidPlan, type LocalBillingLedger, type LocalSubscriptionRecord, type PaidPlan } from '../../accounts/billingStore.js';
import { NoCustomerError, type BillingEvent, type BillingProvider, type ReturnUrls } from './billingProvider.js';
import { METADATA_ACCOUNT, METADATA_PLAN, verifyStripeSignedEvent } from './stripeEvents.js';

export const LOCAL_PRICES: Readonly<Record<PaidPlan, string>> = { pro: 'price_local_pro', business: 'price_local_business' };
const LOCAL_PRICE_PLANS = new Map(Object.entries(LOCAL_PRICES).map(([plan, price]) => [price, plan as PaidPlan]));

export const LOCAL_CHECKOUT_PATH = '/dashboard/billing/local/checkout';
export const LOCAL_PORTAL_PATH = '/dashboard/billing/local/portal';
const SESSION_TTL_SECONDS = 3600;

/**
 * The local webhook secret: LOCAL_BILLING_SECRET, else DATA_DIR/billing/local-webhook-secret, made once (the first
 * thread to start writes it; the others read it) and kept.
 */
export function localBillingSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOCAL_BILLING_SECRET) return env.LOCAL_BILLING_SECRET;
  const file = path.join(dataDir, 'billing', 'local-webhook-secret');
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `whsec_local_${randomBytes(24).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

export interface LocalCheckoutSession {
  id: string;
  accountId: string;
  plan: PaidPlan;
  successUrl: string;
  cancelUrl: string;
  expiresAt: number;
}

export type LocalPortalAction = 'switch' | 'cancel' | 'resume' | 'end_now' | 'pay_now' | 'period_end' | 'period_end_failing';
export const LOCAL_PORTAL_ACTIONS: readonly LocalPortalAction[] = ['switch', 'cancel', 'resume', 'end_now', 'pay_now', 'period_end', 'period_end_failing'];

export type CheckoutOutcome = 'paid' | 'declined' | 'already_subscribed' | 'used' | 'invalid';
export type PortalOutcome = 'done' | 'not_possible';

export interface LocalProviderOptions {
  secret: string;
  ledger: LocalBillingLedger;
  /** POSTs one signed event body to the server's `/webhooks/billing`; rejects when it is not answered 2xx. */
  deliver: (payload: string, signatureHeader: string) => Promise<void>;
  /** Wall clock, milliseconds. */
  now?: () => number;
}

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');
const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** One calendar month later (UTC), in seconds. */
export function addMonth(seconds: number): number {
  const date = new Date(seconds * 1000);
  const day = date.getUTCDate();
  date.setUTCMonth(date.getUTCMonth() + 1);
  if (date.getUTCDate() !== day) date.setUTCDate(0); // 31 January → the last of February
  return Math.floor(date.getTime() / 1000);
}

/** A delivery to a URL, as Stripe makes it: JSON body, `Stripe-Signature` header. */
export function httpDelivery(url: () => string): LocalProviderOptions['deliver'] {
  return async (payload, signatureHeader) => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signatureHeader, 'user-agent': 'local-billing-provider' },
      body: payload,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
  };
}

export class LocalProvider implements BillingProvider {
  readonly name = 'local' as const;
  private readonly now: () => number;

  constructor(private readonly options: LocalProviderOptions) {
    this.now = options.now ?? Date.now;
  }

  // --- BillingProvider ---

  async checkoutUrl(account: Account, plan: PaidPlan, returnUrls: ReturnUrls): Promise<string> {
    const session: LocalCheckoutSession = {
      id: `cs_local_${hex(12)}`,
      accountId: account.id,
      plan,
      successUrl: returnUrls.success,
      cancelUrl: returnUrls.cancel,
      expiresAt: Math.floor(this.now() / 1000) + SESSION_TTL_SECONDS,
    };
    return `${LOCAL_CHECKOUT_PATH}?session=${encodeURIComponent(this.sealSession(session))}`;
  }

  async portalUrl(account: Account, returnUrl: string): Promise<string> {
    if (!this.options.ledger.get(account.id)) throw new NoCustomerError(account.id);
    return `${LOCAL_PORTAL_PATH}?return=${encodeURIComponent(returnUrl)}`;
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAtMs?: number): BillingEvent {
    return verifyStripeSignedEvent(rawBody, signatureHeader, this.options.secret, LOCAL_PRICE_PLANS, receivedAtMs);
  }

  // --- checkout sessions: signed tokens ---

  private mac(payload: string): Buffer {
    return createHmac('sha256', `checkout:${this.options.secret}`).update(payload).digest();
  }

  sealSession(session: LocalCheckoutSession): string {
    const payload = base64url(JSON.stringify(session));
    return `${payload}.${base64url(this.mac(payload))}`;
  }

  /** The session a token stands for, if it is ours, unexpired and of this account. */
  openSession(token: string | null | undefined, accountId: string): LocalCheckoutSession | undefined {
    if (!token) return undefined;
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return undefined;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let session: LocalCheckoutSession;
    try {
      session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LocalCheckoutSession;
    } catch {
      return undefined;
    }
    if (session.accountId !== accountId || !isPaidPlan(session.plan) || session.expiresAt < Math.floor(this.now() / 1000)) return undefined;
    return session;
  }

  // --- the books ---

  record(accountId: string): LocalSubscriptionRecord | undefined {
    return this.options.ledger.get(accountId);
  }

  private recordOf(accountId: string): LocalSubscriptionRecord {
    return (
      this.options.ledger.get(accountId) ?? {
        accountId,
        customerId: `cus_local_${accountId.replace(/^acc_/, '')}`,
        status: 'none',
        cancelAtPeriodEnd: false,
        clock: 0,
        completedSessions: [],
      }
    );
  }

  /** The provider's now for a customer: the wall clock, or later when its test clock was advanced. */
  private clockOf(record: LocalSubscriptionRecord): number {
    return Math.max(Math.floor(this.now() / 1000), record.clock);
  }

  static isLive(record: LocalSubscriptionRecord | undefined): boolean {
    return !!record?.subscriptionId && (record.status === 'active' || record.status === 'past_due' || record.status === 'trialing');
  }

  // --- checkout ---

  async completeCheckout(session: LocalCheckoutSession, account: Account, card: 'good' | 'failing'): Promise<CheckoutOutcome> {
    const record = this.recordOf(account.id);
    if (record.completedSessions.includes(session.id)) return 'used';
    if (LocalProvider.isLive(record)) return 'already_subscribed';
    const t = this.clockOf(record);
    const events: object[] = [];
    if (!record.subscriptionId || record.status !== 'incomplete') {
      Object.assign(record, {
        subscriptionId: `sub_local_${hex(12)}`,
        plan: session.plan,
        status: 'incomplete',
        created: t,
        periodStart: t,
        periodEnd: addMonth(t),
        cancelAtPeriodEnd: false,
      });
      events.push(this.event('customer.subscription.created', this.subscriptionObject(record, account), t));
    } else {
      record.plan = session.plan;
    }
    if (card === 'failing') {
      events.push(this.event('invoice.payment_failed', this.invoiceObject(record, account, false), t));
      await this.commit(record, events);
      return 'declined';
    }
    record.status = 'active';
    record.periodStart = t;
    record.periodEnd = addMonth(t);
    record.completedSessions = [...record.completedSessions.slice(-20), session.id];
    events.push(this.event('invoice.paid', this.invoiceObject(record, account, true), t));
    events.push(this.event('customer.subscription.updated', this.subscriptionObject(record, account), t, { status: 'incomplete' }));
    events.push(this.event('checkout.session.completed', this.checkoutObject(session, record), t));
    await this.commit(record, events);
    return 'paid';
  }

  // --- portal ---

  /** What the portal can do for this record now. */
  static possibleActions(record: LocalSubscriptionRecord | undefined): LocalPortalAction[] {
    if (!LocalProvider.isLive(record)) return [];
    const actions: LocalPortalAction[] = ['switch', record!.cancelAtPeriodEnd ? 'resume' : 'cancel'];
    if (record!.status === 'past_due') actions.push('pay_now');
    actions.push('period_end', 'period_end_failing', 'end_now');
    return actions;
  }

  async portalAction(account: Account, action: LocalPortalAction, plan?: PaidPlan): Promise<PortalOutcome> {
    const record = this.options.ledger.get(account.id);
    if (!record || !LocalProvider.possibleActions(record).includes(action)) return 'not_possible';
    let t = this.clockOf(record);
    const events: object[] = [];
    const updated = (previous: object) => events.push(this.event('customer.subscription.updated', this.subscriptionObject(record, account), t, previous));
    switch (action) {
      case 'switch': {
        const to = plan ?? (record.plan === 'pro' ? 'business' : 'pro');
        if (to === record.plan) return 'not_possible';
        const previous = this.subscriptionObject(record, account).items;
        record.plan = to;
        updated({ items: previous });
        break;
      }
      case 'cancel':
      case 'resume':
        record.cancelAtPeriodEnd = action === 'cancel';
        updated({ cancel_at_period_end: !record.cancelAtPeriodEnd });
        break;
      case 'end_now':
        record.status = 'canceled';
        events.push(this.event('customer.subscription.deleted', this.subscriptionObject(record, account, t), t));
        break;
      case 'pay_now':
        record.status = 'active';
        events.push(this.event('invoice.paid', this.invoiceObject(record, account, true), t));
        updated({ status: 'past_due' });
        break;
      case 'period_end':
      case 'period_end_failing': {
        // The customer's test clock moves to the end of the period, and what Stripe does then happens.
        t = Math.max(t, record.periodEnd ?? t);
        record.clock = t;
        if (record.cancelAtPeriodEnd) {
          record.status = 'canceled';
          events.push(this.event('customer.subscription.deleted', this.subscriptionObject(record, account, t), t));
          break;
        }
        const previous = { status: record.status, items: this.subscriptionObject(record, account).items };
        record.periodStart = t;
        record.periodEnd = addMonth(t);
        if (action === 'period_end') {
          record.status = 'active';
          events.push(this.event('invoice.paid', this.invoiceObject(record, account, true), t));
        } else {
          record.status = 'past_due';
          events.push(this.event('invoice.payment_failed', this.invoiceObject(record, account, false), t));
        }
        updated(previous);
        break;
      }
    }
    await this.commit(record, events);
    return 'done';
  }

  // --- events, as Stripe shapes and signs them ---

  /** Writes the books, then delivers the events in order (each signed with the current time, as Stripe does). */
  private async commit(record: LocalSubscriptionRecord, events: object[]): Promise<void> {
    this.options.ledger.put(record);
    for (const event of events) {
      const payload = JSON.stringify(event, null, 2);
      await this.options.deliver(payload, stripePackage().webhooks.generateTestHeaderString({ payload, secret: this.options.secret }));
    }
  }

  private event(type: string, object: object, created: number, previousAttributes?: object): object {
    return {
      id: `evt_local_${hex(12)}`,
      object: 'event',
      api_version: stripePackage().API_VERSION,
      created,
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  private metadata(record: LocalSubscriptionRecord): Record<string, string> {
    return { [METADATA_ACCOUNT]: record.accountId, [METADATA_PLAN]: record.plan ?? '' };
  }

  private subscriptionObject(record: LocalSubscriptionRecord, account: Account, endedAt?: number): Record<string, unknown> {
    const price = { id: LOCAL_PRICES[record.plan ?? 'pro'], object: 'price', currency: 'usd', recurring: { interval: 'month', interval_count: 1 }, type: 'recurring' };
    return {
      id: record.subscriptionId,
      object: 'subscription',
      customer: record.customerId,
      status: record.status,
      cancel_at_period_end: record.cancelAtPeriodEnd,
      cancel_at: record.cancelAtPeriodEnd ? (record.periodEnd ?? null) : null,
      canceled_at: endedAt ?? null,
      ended_at: endedAt ?? null,
      created: record.created ?? null,
      start_date: record.created ?? null,
      collection_method: 'charge_automatically',
      livemode: false,
      metadata: this.metadata(record),
      description: `Test subscription of ${account.email}`,
      items: {
        object: 'list',
        data: [
          {
            id: `si_${record.subscriptionId?.replace(/^sub_/, '')}`,
            object: 'subscription_item',
            current_period_start: record.periodStart,
            current_period_end: record.periodEnd,
            price,
            quantity: 1,
            subscription: record.subscriptionId,
          },
        ],
        has_more: false,
        total_count: 1,
      },
    };
  }

  private invoiceObject(record: LocalSubscriptionRecord, account: Account, paid: boolean): Record<string, unknown> {
    return {
      id: `in_local_${hex(12)}`,
      object: 'invoice',
      customer: record.customerId,
      customer_email: account.email,
      status: paid ? 'paid' : 'open',
      billing_reason: record.created === record.periodStart ? 'subscription_create' : 'subscription_cycle',
      currency: 'usd',
      livemode: false,
      attempted: true,
      attempt_count: 1,
      period_start: record.periodStart,
      period_end: record.periodStart,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: record.subscriptionId, metadata: this.metadata(record) } },
      lines: {
        object: 'list',
        data: [
          {
            id: `il_local_${hex(8)}`,
            object: 'line_item',
            period: { start: record.periodStart, end: record.periodEnd },
            pricing: { type: 'price_details', price_details: { price: LOCAL_PRICES[record.plan ?? 'pro'], product: 'prod_local' } },
            quantity: 1,
          },
        ],
        has_more: false,
      },
    };
  }

  private checkoutObject(session: LocalCheckoutSession, record: LocalSubscriptionRecord): Record<string, unknown> {
    return {
      id: session.id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: session.accountId,
      customer: record.customerId,
      subscription: record.subscriptionId,
      metadata: { [METADATA_ACCOUNT]: session.accountId, [METADATA_PLAN]: session.plan },
      success_url: session.successUrl,
      cancel_url: session.cancelUrl,
      livemode: false,
    };
  }
}
