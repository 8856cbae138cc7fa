// Billing state behind one interface: per account what the payment provider told us (customer, subscription,
// subscribed plan, status, period end, cancel at period end, a failed-payment notice), the ids of the provider's
// events already applied (each applies once), and lookups by customer and subscription id. The embedded
// implementation is LMDB (lmdbBillingStore.ts) in the accounts environment; fleet mode puts Redis behind the same
// methods (redisBillingStore.ts), so they are Awaitable. Values in, values out. Times are Unix seconds, as the providers give them.
import type { Awaitable } from './awaitable.js';
import type { PlanName } from './plans.js';

export type PaidPlan = Exclude<PlanName, 'trial'>;
export const PAID_PLANS: readonly PaidPlan[] = ['pro', 'business'];
export const isPaidPlan = (name: string): name is PaidPlan => (PAID_PLANS as readonly string[]).includes(name);

/**
 * The subscription's status as the provider names it (Stripe's words): `incomplete` before the first payment,
 * `active`/`trialing` paid, `past_due` a renewal failed and is being retried, `canceled` ended; `none` before any.
 */
export type SubscriptionStatus =
  | 'none'
  | 'incomplete'
  | 'incomplete_expired'
  | 'active'
  | 'trialing'
  | 'past_due'
  | 'unpaid'
  | 'paused'
  | 'canceled';

/** The statuses in which the subscribed plan is the account's plan (a failed renewal keeps it until the provider ends it). */
export const PLAN_KEEPING_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

export interface PaymentFailedNotice {
  /** When the payment failed (the event's time). */
  at: number;
  invoiceId?: string;
}

export interface BillingState {
  accountId: string;
  customerId?: string;
  subscriptionId?: string;
  /** The plan the subscription pays for. */
  plan?: PaidPlan;
  status: SubscriptionStatus;
  currentPeriodEnd?: number;
  cancelAtPeriodEnd: boolean;
  /** Shown on the billing page until a later payment succeeds or the subscription ends. */
  paymentFailed?: PaymentFailedNotice;
  /** The `created` time of the newest event whose subscription state was applied: older states never overwrite it. */
  updatedFromEvent: number;
  /** The newest payment confirmation (invoice paid, checkout paid): an older failure sets no notice. */
  lastPaidAt?: number;
  /** Subscriptions of this account the provider has ended: no later-delivered update brings one back. */
  endedSubscriptions: string[];
  /** When this record last changed (wall clock, for operators). */
  updatedAt: number;
}

export const emptyBillingState = (accountId: string, now: number): BillingState => ({
  accountId,
  status: 'none',
  cancelAtPeriodEnd: false,
  updatedFromEvent: 0,
  endedSubscriptions: [],
  updatedAt: now,
});

/** The account plan a billing state gives: the subscribed plan while the subscription is paid for, else trial. */
export function planOfState(state: BillingState | undefined): PlanName {
  if (!state || !state.plan || !state.subscriptionId) return 'trial';
  if (state.endedSubscriptions.includes(state.subscriptionId)) return 'trial';
  return PLAN_KEEPING_STATUSES.includes(state.status) ? state.plan : 'trial';
}

export type EventOutcome =
  /** First time: `change` ran and its result (if any) was stored. */
  | { applied: true; before: BillingState | undefined; state: BillingState | undefined }
  /** The event id was processed before: nothing ran. */
  | { applied: false; duplicate: true };

export interface BillingStore {
  get(accountId: string): Awaitable<BillingState | undefined>;
  accountIdByCustomer(customerId: string): Awaitable<string | undefined>;
  accountIdBySubscription(subscriptionId: string): Awaitable<string | undefined>;
  /** Whether an event id was processed already. */
  hasProcessed(eventId: string): Awaitable<boolean>;
  /**
   * Applies one provider event atomically and once: when `eventId` is new, `change` gets the account's current state
   * (accountId undefined: no account, the event is only recorded) and returns the next one (undefined: unchanged);
   * the state, its customer and subscription lookups and the event id are written together. `change` must be pure:
   * the Redis store may run it again when another server changed the account's state meanwhile.
   */
  applyEvent(
    eventId: string,
    accountId: string | undefined,
    change: (current: BillingState | undefined) => BillingState | undefined,
    now: number,
  ): Awaitable<EventOutcome>;
  close(): Promise<void>;
}

/**
 * The local test provider's own books (what the provider knows, as Stripe's side would): one record per account.
 * Always in the server's own DATA_DIR, also in fleet mode (it stands for the provider, which is not shared state of
 * ours): with several servers, its portal works on the server that ran the checkout.
 */
export interface LocalSubscriptionRecord {
  accountId: string;
  customerId: string;
  subscriptionId?: string;
  plan?: PaidPlan;
  status: SubscriptionStatus;
  created?: number;
  periodStart?: number;
  periodEnd?: number;
  cancelAtPeriodEnd: boolean;
  /** The provider's clock for this customer (a test clock): events are dated no earlier than this. */
  clock: number;
  /** Checkout sessions already paid (single use). */
  completedSessions: string[];
}

export interface LocalBillingLedger {
  get(accountId: string): LocalSubscriptionRecord | undefined;
  put(record: LocalSubscriptionRecord): void;
}
