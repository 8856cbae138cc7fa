// The `stripe` package, loaded on first use: it is large (about 20 MB of memory in each serving thread that loads
// it), and a thread that never signs or verifies a billing event, or calls Stripe, need not hold it.
import { createRequire } from 'node:module';
import type Stripe from 'stripe';

const require = createRequire(import.meta.url);
let loaded: typeof Stripe | undefined;

export function stripePackage(): typeof Stripe {
  return (loaded ??= require('stripe') as typeof Stripe);
}
