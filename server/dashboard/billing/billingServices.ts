// The billing services of a serving thread: the billing store, the provider chosen by BILLING_PROVIDER, and the local
// test provider when it is the one. The dashboard's services carry them (dashboardTypes.ts), the billing routes use
// them (billingRoutes.ts), the server opens them (process/serve.ts); they live here, apart from the routes, so the
// dashboard's shared types need no route module.
import { LmdbLocalBillingLedger } from '../../accounts/lmdbBillingStore.js';
import type { BillingStore } from '../../accounts/billingStore.js';
import type { BillingProvider } from './billingProvider.js';
import { httpDelivery, LocalProvider, localBillingSecret } from './localProvider.js';
import { StripeProvider, stripeSettingsFromEnv } from './stripeProvider.js';

export interface BillingServices {
  store: BillingStore;
  provider: BillingProvider;
  /** The local test provider, when it is the provider (its pages answer 404 otherwise). */
  local?: LocalProvider;
  /** Closes what billingServices opened (the local provider's books; the store is the caller's). */
  close(): Promise<void>;
}

/**
 * The billing services of a serving thread, from the environment: BILLING_PROVIDER `local` (the default) or
 * `stripe`. `webhookUrl` is where the local provider delivers its events (the server's own /webhooks/billing).
 */
export function billingServices(store: BillingStore, dataDir: string, env: NodeJS.ProcessEnv, webhookUrl: () => string): BillingServices {
  const kind = env.BILLING_PROVIDER || 'local';
  if (kind === 'stripe') {
    const provider = new StripeProvider(stripeSettingsFromEnv(env), async (accountId) => (await store.get(accountId))?.customerId);
    return { store, provider, close: async () => {} };
  }
  if (kind !== 'local') throw new Error(`BILLING_PROVIDER must be local or stripe, not "${kind}"`);
  const ledger = LmdbLocalBillingLedger.open(dataDir);
  const local = new LocalProvider({ secret: localBillingSecret(dataDir, env), ledger, deliver: httpDelivery(() => env.LOCAL_BILLING_WEBHOOK_URL || webhookUrl()) });
  return {
    store,
    provider: local,
    local,
    async close() {
      await ledger.close();
    },
  };
}
