// The plans and their limits: one table, which an operator may override with a JSON file named by PLANS_FILE
// (`{"business": {"perMinute": 100000, "perMonth": 100000000}}`), read at start-up through the same code path.
import { readFileSync } from 'node:fs';

export const PLAN_NAMES = ['trial', 'pro', 'business'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  perMinute: number;
  perMonth: number;
}

export type Plans = Readonly<Record<PlanName, PlanLimits>>;

export const DEFAULT_PLANS: Plans = {
  trial: { perMinute: 10, perMonth: 1_000 },
  pro: { perMinute: 60, perMonth: 100_000 },
  business: { perMinute: 300, perMonth: 1_000_000 },
};

export const isPlanName = (name: string): name is PlanName => (PLAN_NAMES as readonly string[]).includes(name);

/** The plan table with the overrides applied; a malformed override is refused with a message naming the problem. */
export function resolvePlans(overrides: unknown = {}): Plans {
  if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) throw new Error('plans must be a JSON object of plan names');
  const plans: Record<PlanName, PlanLimits> = { ...DEFAULT_PLANS };
  for (const [name, limits] of Object.entries(overrides)) {
    if (!isPlanName(name)) throw new Error(`unknown plan "${name}" (plans: ${PLAN_NAMES.join(', ')})`);
    const merged = { ...plans[name], ...(limits as object) } as Record<string, unknown>;
    for (const field of ['perMinute', 'perMonth'] as const) {
      const value = merged[field];
      if (!Number.isInteger(value) || (value as number) < 1) throw new Error(`plan "${name}": ${field} must be a positive integer`);
    }
    plans[name] = { perMinute: merged.perMinute as number, perMonth: merged.perMonth as number };
  }
  return plans;
}

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
