// The one payment-provider interface of the dashboard: where to send the browser to pay or to manage a subscription,
// and the provider's webhook deliveries verified and translated into provider-neutral BillingEvents. Two providers
// implement it: Stripe (stripeProvider.ts) and the built-in local test provider (localProvider.ts), which signs its
// events exactly as Stripe does so both are verified and translated by the same code (stripeEvents.ts).
import type { Account } from '../../accounts/accountStore.js';
import type { PaidPlan, SubscriptionStatus } from '../../accounts/billingStore.js';

export interface ReturnUrls {
  /** Where the provider sends the browser after a completed checkout. */
  success: string;
  /** Where it sends the browser when the user gives up. */
  cancel: string;
}

/** A subscription as an event describes it (times in Unix seconds). */
export interface SubscriptionSnapshot {
  id: string;
  status: SubscriptionStatus;
  /** The plan its price pays for; undefined for a price this server does not know. */
  plan?: PaidPlan;
  currentPeriodEnd?: number;
  cancelAtPeriodEnd: boolean;
  /** Set when the provider has ended the subscription (a `deleted` event). */
  endedAt?: number;
}

interface EventBase {
  /** The provider's event id: each is applied once. */
  id: string;
  /** When the provider created the event (Unix seconds): orders subscription states. */
  created: number;
  /** The provider's own name for the event (`customer.subscription.updated`…), for the log. */
  providerType: string;
  /** The account the provider was told at checkout (Stripe: client_reference_id, or the metadata we set). */
  accountId?: string;
  customerId?: string;
}

export type BillingEvent = EventBase &
  (
    | { kind: 'checkout_completed'; subscriptionId?: string; plan?: PaidPlan; paid: boolean }
    | { kind: 'subscription'; subscription: SubscriptionSnapshot }
    | { kind: 'invoice_paid'; subscriptionId?: string; invoiceId: string; plan?: PaidPlan; periodEnd?: number }
    | { kind: 'invoice_payment_failed'; subscriptionId?: string; invoiceId: string }
    /** Verified, but of a type billing does not act on: recorded as processed, nothing else. */
    | { kind: 'other' }
  );

export type WebhookProblem = 'missing_signature' | 'invalid_signature' | 'invalid_payload';

/** A webhook delivery that must be refused (400): no, a wrong or an expired signature, or a body that is no event. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly problem: WebhookProblem,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** The portal was asked for by an account the provider knows no customer of. */
export class NoCustomerError extends Error {
  constructor(accountId: string) {
    super(`no billing customer for account ${accountId}`);
    this.name = 'NoCustomerError';
  }
}

export interface BillingProvider {
  readonly name: 'stripe' | 'local';
  /** Where to send the browser to pay for `plan` (a hosted checkout page). */
  checkoutUrl(account: Account, plan: PaidPlan, returnUrls: ReturnUrls): Promise<string>;
  /** Where to send the browser to change or cancel the subscription (throws NoCustomerError before any checkout). */
  portalUrl(account: Account, returnUrl: string): Promise<string>;
  /**
   * Checks the signature over the raw body, and its timestamp within five minutes of `receivedAtMs` either way, and
   * translates the event; throws WebhookVerificationError.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAtMs?: number): BillingEvent;
}
