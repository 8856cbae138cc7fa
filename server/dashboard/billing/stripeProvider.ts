// BILLING_PROVIDER=stripe: Stripe Checkout (subscription mode, the plan's price, client_reference_id = the account id)
// and the Stripe Billing Portal, through the `stripe` package; webhook deliveries verified with
// `stripe.webhooks.constructEvent` (stripeEvents.ts). The two session calls go through a small client interface so
// tests inject one: nothing here reaches the network in tests.
import type Stripe from 'stripe';
import { stripePackage } from './stripePackage.js';
import type { Account } from '../../accounts/accountStore.js';
import type { Awaitable } from '../../accounts/awaitable.js';
import type { PaidPlan } from '../../accounts/billingStore.js';
import { NoCustomerError, type BillingEvent, type BillingProvider, type ReturnUrls } from './billingProvider.js';
import { METADATA_ACCOUNT, METADATA_PLAN, verifyStripeSignedEvent, type PricePlans } from './stripeEvents.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  prices: Readonly<Record<PaidPlan, string>>;
}

/** The Stripe settings from the environment; throws naming every one that is missing. */
export function stripeSettingsFromEnv(env: NodeJS.ProcessEnv): StripeSettings {
  const names = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_BUSINESS'] as const;
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`BILLING_PROVIDER=stripe needs ${missing.join(', ')}`);
  return {
    secretKey: env.STRIPE_SECRET_KEY!,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    prices: { pro: env.STRIPE_PRICE_PRO!, business: env.STRIPE_PRICE_BUSINESS! },
  };
}

/** The two Stripe API calls the provider makes. */
export interface StripeSessionsClient {
  createCheckoutSession(params: Stripe.Checkout.SessionCreateParams): Promise<{ url: string | null }>;
  createPortalSession(params: Stripe.BillingPortal.SessionCreateParams): Promise<{ url: string }>;
}

export function stripeSessionsClient(secretKey: string): StripeSessionsClient {
  const stripe = new (stripePackage())(secretKey, { maxNetworkRetries: 2, timeout: 10_000 });
  return {
    createCheckoutSession: (params) => stripe.checkout.sessions.create(params),
    createPortalSession: (params) => stripe.billingPortal.sessions.create(params),
  };
}

export const pricePlansOf = (prices: Readonly<Record<PaidPlan, string>>): PricePlans =>
  new Map(Object.entries(prices).map(([plan, price]) => [price, plan as PaidPlan]));

export class StripeProvider implements BillingProvider {
  readonly name = 'stripe' as const;
  private readonly pricePlans: PricePlans;

  constructor(
    private readonly settings: StripeSettings,
    /** The provider customer billing knows for an account (from the billing store). */
    private readonly customerOf: (accountId: string) => Awaitable<string | undefined>,
    private readonly client: StripeSessionsClient = stripeSessionsClient(settings.secretKey),
  ) {
    this.pricePlans = pricePlansOf(settings.prices);
  }

  async checkoutUrl(account: Account, plan: PaidPlan, returnUrls: ReturnUrls): Promise<string> {
    const metadata = { [METADATA_ACCOUNT]: account.id, [METADATA_PLAN]: plan };
    const customer = await this.customerOf(account.id);
    const session = await this.client.createCheckoutSession({
      mode: 'subscription',
      line_items: [{ price: this.settings.prices[plan], quantity: 1 }],
      client_reference_id: account.id,
      ...(customer ? { customer } : { customer_email: account.email }),
      metadata,
      subscription_data: { metadata },
      success_url: returnUrls.success,
      cancel_url: returnUrls.cancel,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return session.url;
  }

  async portalUrl(account: Account, returnUrl: string): Promise<string> {
    const customer = await this.customerOf(account.id);
    if (!customer) throw new NoCustomerError(account.id);
    const session = await this.client.createPortalSession({ customer, return_url: returnUrl });
    return session.url;
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAtMs?: number): BillingEvent {
    return verifyStripeSignedEvent(rawBody, signatureHeader, this.settings.webhookSecret, this.pricePlans, receivedAtMs);
  }
}
