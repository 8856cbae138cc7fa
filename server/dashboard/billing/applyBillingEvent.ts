// One verified provider event applied to the billing store and the account's plan. The rules (docs/billing.md):
// - each event id applies once (the store records it in the same transaction as the state);
// - out of order safe: a subscription state older than the one applied (the event's `created`; on a tie, the
//   subscription's own period end) never overwrites it; `incomplete` never follows a paid state; an ended
//   subscription is never brought back by a late update, and a `deleted` beats any update;
// - a paid plan starts when the provider confirms payment: a checkout completed as paid, an invoice paid, or the
//   subscription active; cancelling at period end keeps the plan until the provider's `deleted` at period end;
// - a failed payment sets a notice and keeps the plan (past_due) until a later payment or the subscription's end;
// - the subscription ended: the account is on trial.
// The plan reaches the API through AccountStore.setPlanById, whose version bump every serving thread (fleet mode: every
// server) picks up within a second.
import type { AccountStore } from '../../accounts/accountStore.js';
import {
  emptyBillingState,
  planOfState,
  type BillingState,
  type BillingStore,
} from '../../accounts/billingStore.js';
import type { PlanName } from '../../accounts/plans.js';
import type { BillingEvent } from './billingProvider.js';

export type ApplyResult =
  /** The state changed; `plan` is the account's plan now, `planChanged` whether this event moved it. */
  | { result: 'applied'; accountId: string; plan: PlanName; planChanged: boolean }
  /** Recorded, but it changed nothing (older than what is known, of an ended subscription, of no interest). */
  | { result: 'ignored'; accountId?: string; reason: string }
  /** This event id was applied before. */
  | { result: 'duplicate' }
  /** No account matches its account id, subscription or customer: recorded, nothing else. */
  | { result: 'unknown_account' };

export interface BillingDependencies {
  billing: BillingStore;
  accounts: Pick<AccountStore, 'accountById' | 'setPlanById'>;
  /** Unix seconds. */
  now: number;
}

const subscriptionIdOf = (event: BillingEvent): string | undefined =>
  event.kind === 'subscription' ? event.subscription.id : event.kind === 'other' ? undefined : event.subscriptionId;

/** The account an event is about: the one named at checkout, else the one of its subscription, else of its customer. */
export async function accountOfEvent(event: BillingEvent, billing: BillingStore): Promise<string | undefined> {
  const subscriptionId = subscriptionIdOf(event);
  return (
    event.accountId ??
    (subscriptionId ? await billing.accountIdBySubscription(subscriptionId) : undefined) ??
    (event.customerId ? await billing.accountIdByCustomer(event.customerId) : undefined)
  );
}

const isEnded = (state: BillingState, subscriptionId: string): boolean => state.endedSubscriptions.includes(subscriptionId);

/** Whether the state's current subscription is one that is or may become paid (neither ended nor expired). */
const currentIsLive = (state: BillingState): boolean =>
  !!state.subscriptionId && !isEnded(state, state.subscriptionId) && state.status !== 'canceled' && state.status !== 'incomplete_expired';

/** Whether an event about `subscriptionId` may speak for the account: its current one, or a newer one replacing it. */
function concernsCurrent(state: BillingState, subscriptionId: string, created: number): boolean {
  if (isEnded(state, subscriptionId)) return false;
  if (state.subscriptionId === subscriptionId || !currentIsLive(state)) return true;
  return created >= state.updatedFromEvent;
}

/** A fresh view of another subscription: what was known of the previous one does not carry over. */
function switchedTo(state: BillingState, subscriptionId: string): BillingState {
  if (state.subscriptionId === subscriptionId) return state;
  return { ...state, subscriptionId, status: 'incomplete', currentPeriodEnd: undefined, cancelAtPeriodEnd: false, paymentFailed: undefined };
}

const later = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : Math.max(a, b));

/** The next state for one event, or a reason to leave it as it is. Pure. */
export function nextBillingState(current: BillingState | undefined, event: BillingEvent, accountId: string, now: number): BillingState | string {
  const state = current ?? emptyBillingState(accountId, now);
  const customerId = event.customerId ?? state.customerId;
  switch (event.kind) {
    case 'other':
      return `${event.providerType} is not acted on`;

    case 'checkout_completed': {
      const id = event.subscriptionId;
      if (!id) return { ...state, customerId };
      if (!concernsCurrent(state, id, event.created)) return 'the checkout is of an ended or older subscription';
      const next = { ...switchedTo(state, id), customerId };
      next.plan = id === state.subscriptionId ? (state.plan ?? event.plan) : (event.plan ?? state.plan);
      if (event.paid) {
        next.lastPaidAt = later(state.lastPaidAt, event.created);
        if (next.status === 'none' || next.status === 'incomplete') {
          next.status = 'active';
          next.updatedFromEvent = Math.max(state.updatedFromEvent, event.created);
        }
        if (next.paymentFailed && next.paymentFailed.at <= event.created) next.paymentFailed = undefined;
      }
      return next;
    }

    case 'subscription': {
      const snapshot = event.subscription;
      if (snapshot.endedAt !== undefined) {
        // Deleted: final for this subscription, whatever arrives after it.
        if (isEnded(state, snapshot.id)) return 'the subscription had ended already';
        const endedSubscriptions = [...state.endedSubscriptions, snapshot.id];
        if (state.subscriptionId && state.subscriptionId !== snapshot.id && currentIsLive(state)) {
          return { ...state, customerId, endedSubscriptions };
        }
        return {
          ...state,
          customerId,
          subscriptionId: snapshot.id,
          plan: snapshot.plan ?? state.plan,
          status: 'canceled',
          cancelAtPeriodEnd: false,
          paymentFailed: undefined,
          currentPeriodEnd: state.subscriptionId === snapshot.id ? state.currentPeriodEnd : snapshot.currentPeriodEnd,
          updatedFromEvent: Math.max(state.updatedFromEvent, event.created),
          endedSubscriptions,
        };
      }
      if (!concernsCurrent(state, snapshot.id, event.created)) return 'the subscription has ended, or a newer one replaced it';
      if (state.subscriptionId === snapshot.id) {
        if (event.created < state.updatedFromEvent) return 'an older state of the subscription';
        if (
          event.created === state.updatedFromEvent &&
          snapshot.currentPeriodEnd !== undefined &&
          state.currentPeriodEnd !== undefined &&
          snapshot.currentPeriodEnd < state.currentPeriodEnd
        ) {
          return 'an older period of the subscription';
        }
        if (snapshot.status === 'incomplete' && state.status !== 'none' && state.status !== 'incomplete') return 'incomplete after a payment';
      }
      const base = switchedTo(state, snapshot.id);
      const next: BillingState = {
        ...base,
        customerId,
        plan: snapshot.plan ?? base.plan ?? state.plan,
        status: snapshot.status,
        currentPeriodEnd: snapshot.currentPeriodEnd ?? base.currentPeriodEnd,
        cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
        updatedFromEvent: Math.max(state.updatedFromEvent, event.created),
      };
      if (next.status === 'active' && next.paymentFailed && next.paymentFailed.at < event.created) next.paymentFailed = undefined;
      return next;
    }

    case 'invoice_paid': {
      const id = event.subscriptionId ?? state.subscriptionId;
      if (!id) return { ...state, customerId, lastPaidAt: later(state.lastPaidAt, event.created) };
      if (!concernsCurrent(state, id, event.created)) return 'the invoice is of an ended or older subscription';
      const next = { ...switchedTo(state, id), customerId };
      next.plan = next.plan ?? event.plan ?? state.plan;
      next.lastPaidAt = later(state.lastPaidAt, event.created);
      next.currentPeriodEnd = later(next.currentPeriodEnd, event.periodEnd);
      if (next.paymentFailed && next.paymentFailed.at <= event.created) next.paymentFailed = undefined;
      const confirms = next.status === 'none' || next.status === 'incomplete' || (next.status === 'past_due' && event.created >= state.updatedFromEvent);
      if (confirms) {
        next.status = 'active';
        next.updatedFromEvent = Math.max(state.updatedFromEvent, event.created);
      }
      return next;
    }

    case 'invoice_payment_failed': {
      const id = event.subscriptionId ?? state.subscriptionId;
      if (!id) return 'a failed invoice of no subscription';
      if (!concernsCurrent(state, id, event.created)) return 'the invoice is of an ended or older subscription';
      if (state.subscriptionId === id && state.lastPaidAt !== undefined && state.lastPaidAt >= event.created) return 'a later payment succeeded';
      const next = { ...switchedTo(state, id), customerId };
      if (!next.paymentFailed || next.paymentFailed.at <= event.created) next.paymentFailed = { at: event.created, invoiceId: event.invoiceId };
      return next;
    }
  }
}

/** Applies one verified event: the billing state once per event id, then the account's plan if the state moves it. */
export async function applyBillingEvent(event: BillingEvent, dependencies: BillingDependencies): Promise<ApplyResult> {
  const { billing, accounts, now } = dependencies;
  let accountId = await accountOfEvent(event, billing);
  if (accountId && !accounts.accountById(accountId)) accountId = undefined;
  let ignored: string | undefined;
  const outcome = await billing.applyEvent(
    event.id,
    accountId,
    (current) => {
      ignored = undefined; // the change may run again (the Redis store retries when the state moved meanwhile)
      const next = nextBillingState(current, event, accountId!, now);
      if (typeof next === 'string') {
        ignored = next;
        return undefined;
      }
      return next;
    },
    now,
  );
  if (!outcome.applied) return { result: 'duplicate' };
  if (!accountId) return { result: 'unknown_account' };
  if (ignored !== undefined) return { result: 'ignored', accountId, reason: ignored };
  const plan = planOfState(outcome.state);
  const account = accounts.accountById(accountId);
  const planChanged = !!account && account.plan !== plan;
  if (planChanged) await accounts.setPlanById(accountId, plan);
  return { result: 'applied', accountId, plan, planChanged };
}
