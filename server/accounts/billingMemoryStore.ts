// A BillingStore and a LocalBillingLedger in memory: for tests, and as the reference of what the interface means.
import type { BillingState, BillingStore, EventOutcome, LocalBillingLedger, LocalSubscriptionRecord } from './billingStore.js';

export class MemoryBillingStore implements BillingStore {
  readonly states = new Map<string, BillingState>();
  private readonly customers = new Map<string, string>();
  private readonly subscriptions = new Map<string, string>();
  readonly events = new Set<string>();

  get(accountId: string): BillingState | undefined {
    return this.states.get(accountId);
  }

  accountIdByCustomer(customerId: string): string | undefined {
    return this.customers.get(customerId);
  }

  accountIdBySubscription(subscriptionId: string): string | undefined {
    return this.subscriptions.get(subscriptionId);
  }

  hasProcessed(eventId: string): boolean {
    return this.events.has(eventId);
  }

  applyEvent(eventId: string, accountId: string | undefined, change: (current: BillingState | undefined) => BillingState | undefined, now: number): EventOutcome {
    if (this.events.has(eventId)) return { applied: false, duplicate: true };
    const before = accountId ? this.states.get(accountId) : undefined;
    let state = before;
    if (accountId) {
      const next = change(before);
      if (next) {
        if (next.accountId !== accountId) throw new Error(`billing state of ${next.accountId} given for ${accountId}`);
        state = structuredClone({ ...next, updatedAt: now });
        this.states.set(accountId, state);
        if (state.customerId) this.customers.set(state.customerId, accountId);
        if (state.subscriptionId) this.subscriptions.set(state.subscriptionId, accountId);
        for (const id of state.endedSubscriptions) if (!this.subscriptions.has(id)) this.subscriptions.set(id, accountId);
      }
    }
    this.events.add(eventId);
    return { applied: true, before, state };
  }

  async close(): Promise<void> {}
}

export class MemoryLocalBillingLedger implements LocalBillingLedger {
  private readonly records = new Map<string, LocalSubscriptionRecord>();

  get(accountId: string): LocalSubscriptionRecord | undefined {
    const record = this.records.get(accountId);
    return record && structuredClone(record);
  }

  put(record: LocalSubscriptionRecord): void {
    this.records.set(record.accountId, structuredClone(record));
  }
}
