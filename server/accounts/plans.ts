// The plans, their limits and their prices: one table, which an operator may override with a JSON file named by
// PLANS_FILE (`{"business": {"perMinute": 100000, "perMonth": 100000000, "monthlyPriceUsd": 49}}`), read at start-up
// through the same code path. The prices are what the pages show (/pricing, the billing page, the checkout); what a
// payment provider charges is its own price object, named in the configuration (STRIPE_PRICE_PRO, …).
import { readFileSync } from 'node:fs';

export const PLAN_NAMES = ['trial', 'pro', 'business'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  perMinute: number;
  perMonth: number;
}

/** A plan: its limits and what it costs. */
export interface Plan extends PlanLimits {
  /**
   * US dollars a month, at most two decimals: 0 for the trial (free, no card, no end: a plan of its own, limited by its
   * requests rather than by time), more than 0 for a paid plan.
   */
  monthlyPriceUsd: number;
}

export type Plans = Readonly<Record<PlanName, Plan>>;

export const DEFAULT_PLANS: Plans = {
  trial: { perMinute: 10, perMonth: 1_000, monthlyPriceUsd: 0 },
  pro: { perMinute: 60, perMonth: 100_000, monthlyPriceUsd: 9 },
  business: { perMinute: 300, perMonth: 1_000_000, monthlyPriceUsd: 49 },
};

export const isPlanName = (name: string): name is PlanName => (PLAN_NAMES as readonly string[]).includes(name);

/** The plan table with the overrides applied; a malformed override is refused with a message naming the problem. */
export function resolvePlans(overrides: unknown = {}): Plans {
  if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) throw new Error('plans must be a JSON object of plan names');
  const plans: Record<PlanName, Plan> = { ...DEFAULT_PLANS };
  for (const [name, limits] of Object.entries(overrides)) {
    if (!isPlanName(name)) throw new Error(`unknown plan "${name}" (plans: ${PLAN_NAMES.join(', ')})`);
    const merged = { ...plans[name], ...(limits as object) } as Record<string, unknown>;
    for (const field of ['perMinute', 'perMonth'] as const) {
      const value = merged[field];
      if (!Number.isInteger(value) || (value as number) < 1) throw new Error(`plan "${name}": ${field} must be a positive integer`);
    }
    const price = merged.monthlyPriceUsd;
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || Math.abs(Math.round(price * 100) - price * 100) > 1e-6) {
      throw new Error(`plan "${name}": monthlyPriceUsd must be a number of US dollars with at most two decimals`);
    }
    // The trial has no checkout, and a paid plan's checkout needs something to charge.
    if (name === 'trial' && price !== 0) throw new Error('plan "trial": monthlyPriceUsd must be 0 (the trial is free, with no card)');
    if (name !== 'trial' && price === 0) throw new Error(`plan "${name}": monthlyPriceUsd must be more than 0 (a paid plan is bought at the checkout)`);
    plans[name] = { perMinute: merged.perMinute as number, perMonth: merged.perMonth as number, monthlyPriceUsd: price };
  }
  return plans;
}

/** An amount of US dollars as a locale writes it: whole dollars bare ("49"), else with the cents ("9.50", "9,50"). */
export const usdAmount = (amount: number, locale: string): string =>
  amount.toLocaleString(locale, Number.isInteger(amount) ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function loadPlans(file: string | undefined): Plans {
  if (!file) return resolvePlans({});
  let overrides: unknown;
  try {
    overrides = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`PLANS_FILE ${file}: ${(error as Error).message}`);
  }
  try {
    return resolvePlans(overrides);
  } catch (error) {
    throw new Error(`PLANS_FILE ${file}: ${(error as Error).message}`);
  }
}
