// Stripe-signed webhook deliveries: the signature checked by the `stripe` package's own `webhooks.constructEvent`
// (HMAC-SHA256 over `timestamp.body`, five minutes of tolerance), then the event translated into a BillingEvent.
// constructEvent refuses only a timestamp older than the tolerance; one dated ahead of it is refused here (signedAt).
// Both providers use this: Stripe's deliveries and the local test provider's, which are signed the same way.
// Shapes read are those of Stripe's current API version: a subscription's period is on its item
// (`items.data[0].current_period_end`), an invoice names its subscription under `parent.subscription_details`.
import { stripePackage } from './stripePackage.js';
import { isPaidPlan, type PaidPlan, type SubscriptionStatus } from '../../accounts/billingStore.js';
import { WebhookVerificationError, type BillingEvent, type SubscriptionSnapshot } from './billingProvider.js';

/** Which paid plan each provider price id stands for. */
export type PricePlans = ReadonlyMap<string, PaidPlan>;

/** The metadata keys set at checkout on the session and the subscription, so every event can name its account. */
export const METADATA_ACCOUNT = 'account_id';
export const METADATA_PLAN = 'plan';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

type Json = Record<string, unknown>;

const object = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const seconds = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
/** An id given as a string or as an expanded object. */
const idOf = (value: unknown): string | undefined => text(value) ?? text(object(value)?.id);
const firstOf = (list: unknown): Json | undefined => {
  const data = object(list)?.data;
  return Array.isArray(data) ? object(data[0]) : undefined;
};

const STATUSES: readonly SubscriptionStatus[] = ['incomplete', 'incomplete_expired', 'active', 'trialing', 'past_due', 'unpaid', 'paused', 'canceled'];
const statusOf = (value: unknown): SubscriptionStatus => (STATUSES as readonly unknown[]).includes(value) ? (value as SubscriptionStatus) : 'incomplete';

function planOf(prices: PricePlans, priceId: string | undefined, metadata: Json | undefined): PaidPlan | undefined {
  const byPrice = priceId ? prices.get(priceId) : undefined;
  if (byPrice) return byPrice;
  const named = text(metadata?.[METADATA_PLAN]);
  return named && isPaidPlan(named) ? named : undefined;
}

function subscriptionSnapshot(subscription: Json, prices: PricePlans, deleted: boolean): SubscriptionSnapshot {
  const item = firstOf(subscription.items);
  const price = object(item?.price);
  const status = deleted ? 'canceled' : statusOf(subscription.status);
  return {
    id: text(subscription.id) ?? '',
    status,
    plan: planOf(prices, text(price?.id) ?? text(object(item?.plan)?.id), object(subscription.metadata)),
    currentPeriodEnd: seconds(item?.current_period_end) ?? seconds(subscription.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    endedAt: deleted ? (seconds(subscription.ended_at) ?? seconds(subscription.canceled_at) ?? 0) : undefined,
  };
}

/** Translates a parsed Stripe event (already verified) into a BillingEvent. */
export function billingEventOfStripe(event: Json, prices: PricePlans): BillingEvent {
  const id = text(event.id);
  const type = text(event.type);
  const created = seconds(event.created);
  const data = object(object(event.data)?.object);
  if (!id || !type || created === undefined || !data) throw new WebhookVerificationError('invalid_payload', 'the body is not an event: id, type, created and data.object are needed');
  const base = { id, created, providerType: type, customerId: idOf(data.customer) };
  const metadata = object(data.metadata);
  switch (type) {
    case 'checkout.session.completed': {
      if (data.mode !== undefined && data.mode !== 'subscription') return { ...base, kind: 'other' };
      return {
        ...base,
        accountId: text(data.client_reference_id) ?? text(metadata?.[METADATA_ACCOUNT]),
        kind: 'checkout_completed',
        subscriptionId: idOf(data.subscription),
        plan: planOf(prices, undefined, metadata),
        paid: data.payment_status === 'paid' || data.payment_status === 'no_payment_required',
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return {
        ...base,
        accountId: text(metadata?.[METADATA_ACCOUNT]),
        kind: 'subscription',
        subscription: subscriptionSnapshot(data, prices, type === 'customer.subscription.deleted'),
      };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const details = object(object(data.parent)?.subscription_details);
      const subscriptionId = idOf(details?.subscription) ?? idOf(data.subscription);
      const detailsMetadata = object(details?.metadata);
      const accountId = text(detailsMetadata?.[METADATA_ACCOUNT]);
      const invoiceId = text(data.id) ?? '';
      if (type === 'invoice.payment_failed') return { ...base, accountId, kind: 'invoice_payment_failed', subscriptionId, invoiceId };
      const line = firstOf(data.lines);
      const linePrice = text(object(object(line?.pricing)?.price_details)?.price) ?? idOf(line?.price);
      return {
        ...base,
        accountId,
        kind: 'invoice_paid',
        subscriptionId,
        invoiceId,
        plan: planOf(prices, linePrice, detailsMetadata),
        periodEnd: seconds(object(line?.period)?.end),
      };
    }
    default:
      return { ...base, kind: 'other' };
  }
}

/**
 * The signature's timestamp (`t=`, Unix seconds) read as the `stripe` package reads it (the last `t=` item, parseInt),
 * so that the time checked is the one its HMAC covered; NaN when there is none.
 */
export function signedAt(signatureHeader: string): number {
  let seconds = Number.NaN;
  for (const item of signatureHeader.split(',')) {
    const [name, value] = item.split('=');
    if (name === 't') seconds = parseInt(value, 10);
  }
  return seconds;
}

/**
 * Verifies a delivery with the `stripe` package and translates it. Throws WebhookVerificationError: no header, a
 * signature that does not match the body with this secret, a timestamp more than the tolerance before or after
 * `receivedAtMs`, a body that is no event.
 */
export function verifyStripeSignedEvent(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  secret: string,
  prices: PricePlans,
  receivedAtMs = Date.now(),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): BillingEvent {
  if (!signatureHeader) throw new WebhookVerificationError('missing_signature', 'the Stripe-Signature header is missing');
  let event: unknown;
  try {
    event = stripePackage().webhooks.constructEvent(rawBody, signatureHeader, secret, toleranceSeconds, undefined, receivedAtMs);
  } catch (error) {
    if (error instanceof stripePackage().errors.StripeSignatureVerificationError) {
      throw new WebhookVerificationError('invalid_signature', error.message.split('\n')[0]);
    }
    // The signature held but the body is no JSON.
    throw new WebhookVerificationError('invalid_payload', 'the body is not a JSON event');
  }
  // A signature that holds but is dated ahead: a clock far off, or one made to be replayed later.
  const ahead = signedAt(signatureHeader) - Math.floor(receivedAtMs / 1000);
  if (!(ahead <= toleranceSeconds)) {
    throw new WebhookVerificationError('invalid_signature', `Timestamp outside the tolerance zone: more than ${toleranceSeconds} s ahead of this server's clock`);
  }
  const parsed = object(event);
  if (!parsed) throw new WebhookVerificationError('invalid_payload', 'the body is not a JSON object');
  return billingEventOfStripe(parsed, prices);
}
