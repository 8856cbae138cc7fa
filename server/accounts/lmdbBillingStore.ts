// The embedded BillingStore: named databases of the accounts environment (DATA_DIR/accounts). One write transaction
// per provider event holds the state, its lookups and the processed event id, so an event applies once even when two
// threads receive the same delivery. Also the local test provider's books (LocalBillingLedger).
import type { Database, RootDatabase } from 'lmdb';
import { openAccountsEnvironment, type AccountsEnvironment } from './accountsEnvironment.js';
import type { BillingState, BillingStore, EventOutcome, LocalBillingLedger, LocalSubscriptionRecord } from './billingStore.js';

interface ProcessedEvent {
  at: number;
  accountId?: string;
}

export class LmdbBillingStore implements BillingStore {
  private constructor(
    private readonly environment: AccountsEnvironment,
    private readonly root: RootDatabase,
    private readonly states: Database<BillingState, string>,
    private readonly customers: Database<string, string>,
    private readonly subscriptions: Database<string, string>,
    private readonly events: Database<ProcessedEvent, string>,
  ) {}

  static open(dataDir: string): LmdbBillingStore {
    const environment = openAccountsEnvironment(dataDir);
    return new LmdbBillingStore(
      environment,
      environment.root,
      environment.database<BillingState>('billing'),
      environment.database<string>('billingCustomers'),
      environment.database<string>('billingSubscriptions'),
      environment.database<ProcessedEvent>('billingEvents'),
    );
  }

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
    return this.events.get(eventId) !== undefined;
  }

  applyEvent(
    eventId: string,
    accountId: string | undefined,
    change: (current: BillingState | undefined) => BillingState | undefined,
    now: number,
  ): EventOutcome {
    return this.root.transactionSync((): EventOutcome => {
      if (this.events.get(eventId) !== undefined) return { applied: false, duplicate: true };
      const before = accountId ? this.states.get(accountId) : undefined;
      let state = before;
      if (accountId) {
        const next = change(before);
        if (next) {
          if (next.accountId !== accountId) throw new Error(`billing state of ${next.accountId} given for ${accountId}`);
          state = { ...next, updatedAt: now };
          this.states.putSync(accountId, state);
          if (state.customerId) this.customers.putSync(state.customerId, accountId);
          if (state.subscriptionId) this.subscriptions.putSync(state.subscriptionId, accountId);
          for (const id of state.endedSubscriptions) if (this.subscriptions.get(id) === undefined) this.subscriptions.putSync(id, accountId);
        }
      }
      this.events.putSync(eventId, accountId ? { at: now, accountId } : { at: now });
      return { applied: true, before, state };
    });
  }

  async close(): Promise<void> {
    await this.environment.close();
  }
}

/** The local test provider's books, in the same environment. */
export class LmdbLocalBillingLedger implements LocalBillingLedger {
  private constructor(
    private readonly environment: AccountsEnvironment,
    private readonly records: Database<LocalSubscriptionRecord, string>,
  ) {}

  static open(dataDir: string): LmdbLocalBillingLedger {
    const environment = openAccountsEnvironment(dataDir);
    return new LmdbLocalBillingLedger(environment, environment.database<LocalSubscriptionRecord>('billingLocalProvider'));
  }

  get(accountId: string): LocalSubscriptionRecord | undefined {
    return this.records.get(accountId);
  }

  put(record: LocalSubscriptionRecord): void {
    this.records.putSync(record.accountId, record);
  }

  async close(): Promise<void> {
    await this.environment.close();
  }
}

/** The billing store of a data directory (the embedded default). */
export function openBillingStore(dataDir: string): LmdbBillingStore {
  return LmdbBillingStore.open(dataDir);
}
