// The fleet-mode BillingStore: each account's billing state (JSON), the customer and subscription lookups and the ids
// of the provider events applied, in Redis. A provider may deliver an event to any server, and again: applyEvent is an
// optimistic transaction (WATCH the event id and the account's state, read, run the change, MULTI/EXEC the writes and
// the event id), so of two servers applying the same event one EXEC succeeds and the other finds it processed; an
// event that raced another of the same account runs its change again on the newer state.
//
// WATCH belongs to a connection, and any EXEC on it ends every WATCH: the transactions run one at a time on a
// connection of this store's own. The plan a state gives reaches the API through the account store's setPlanById
// (applyBillingEvent.ts), whose change log every server follows.
import type { Redis } from 'ioredis';
import type { BillingState, BillingStore, EventOutcome } from './billingStore.js';
import { redisKeys } from './redisKeys.js';

/** Tries of one event when other servers keep changing the same account's state meanwhile. */
const MAX_TRIES = 10;

export class RedisBillingStore implements BillingStore {
  /** The transactions, one after another on `transactions`. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** Reads (shared with the other stores). */
    private readonly redis: Redis,
    /** WATCH/MULTI/EXEC only: this store's own, closed with it. */
    private readonly transactions: Redis,
  ) {}

  async get(accountId: string): Promise<BillingState | undefined> {
    const json = await this.redis.get(redisKeys.billingState(accountId));
    return json === null ? undefined : (JSON.parse(json) as BillingState);
  }

  async accountIdByCustomer(customerId: string): Promise<string | undefined> {
    return (await this.redis.get(redisKeys.billingCustomer(customerId))) ?? undefined;
  }

  async accountIdBySubscription(subscriptionId: string): Promise<string | undefined> {
    return (await this.redis.get(redisKeys.billingSubscription(subscriptionId))) ?? undefined;
  }

  async hasProcessed(eventId: string): Promise<boolean> {
    return (await this.redis.exists(redisKeys.billingEvent(eventId))) === 1;
  }

  applyEvent(
    eventId: string,
    accountId: string | undefined,
    change: (current: BillingState | undefined) => BillingState | undefined,
    now: number,
  ): Promise<EventOutcome> {
    const result = this.queue.then(() => this.transaction(eventId, accountId, change, now));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async transaction(
    eventId: string,
    accountId: string | undefined,
    change: (current: BillingState | undefined) => BillingState | undefined,
    now: number,
  ): Promise<EventOutcome> {
    const redis = this.transactions;
    const eventKey = redisKeys.billingEvent(eventId);
    const stateKey = accountId && redisKeys.billingState(accountId);
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      await redis.watch(...(stateKey ? [eventKey, stateKey] : [eventKey]));
      let writes: ReturnType<Redis['multi']>;
      let before: BillingState | undefined;
      let state: BillingState | undefined;
      try {
        if ((await redis.exists(eventKey)) === 1) {
          await redis.unwatch();
          return { applied: false, duplicate: true };
        }
        const json = stateKey ? await redis.get(stateKey) : null;
        before = json === null ? undefined : (JSON.parse(json) as BillingState);
        state = before;
        const next = accountId ? change(before) : undefined;
        if (next && accountId) {
          if (next.accountId !== accountId) throw new Error(`billing state of ${next.accountId} given for ${accountId}`);
          state = { ...next, updatedAt: now };
        }
        // Queued here, sent as MULTI…EXEC by exec(): nothing is written unless every watched key is as read.
        writes = redis.multi();
        if (state !== before && accountId && state) {
          writes.set(redisKeys.billingState(accountId), JSON.stringify(state));
          if (state.customerId) writes.set(redisKeys.billingCustomer(state.customerId), accountId);
          if (state.subscriptionId) writes.set(redisKeys.billingSubscription(state.subscriptionId), accountId);
          for (const id of state.endedSubscriptions) writes.set(redisKeys.billingSubscription(id), accountId, 'NX');
        }
        writes.set(eventKey, JSON.stringify(accountId ? { at: now, accountId } : { at: now }), 'NX');
      } catch (error) {
        await redis.unwatch().catch(() => undefined);
        throw error;
      }
      const results = await writes.exec();
      if (results === null) continue; // a watched key changed: read again
      const failed = results.find(([error]) => error);
      if (failed) throw failed[0];
      return { applied: true, before, state };
    }
    throw new Error(`billing event ${eventId}: the account's state kept changing; the provider will deliver it again`);
  }

  async close(): Promise<void> {
    await this.queue;
    this.transactions.disconnect();
  }
}
