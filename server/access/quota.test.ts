import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, resolvePlans, usdAmount } from '../accounts/plans.js';
import { admit as admitDecision, emptyUsage, nextMonthStart, planQuota, quotaHeaders, type Usage } from './quota.js';
import type { PlanLimits } from '../accounts/plans.js';

const admit = (usage: Usage, limits: PlanLimits, now: number) => {
  const d = admitDecision(usage, planQuota(limits), now);
  return { refused: d.refused, headers: quotaHeaders(d) };
};

const at = (iso: string) => Date.parse(iso);

describe('per-minute window and monthly quota', () => {
  it('counts up to the per-minute limit, then refuses with Retry-After until the window ends', () => {
    const usage = emptyUsage();
    const limits = { perMinute: 3, perMonth: 100 };
    const start = at('2026-11-22T10:00:00.000Z');
    for (let i = 0; i < 3; i++) {
      const d = admit(usage, limits, start + i * 1000);
      expect(d.refused).toBeUndefined();
      expect(d.headers['RateLimit-Remaining']).toBe(String(2 - i));
      expect(d.headers['RateLimit-Reset']).toBe(String(60 - i));
      expect(d.headers['X-Quota-Remaining']).toBe(String(99 - i));
    }
    const refused = admit(usage, limits, start + 20_500);
    expect(refused.refused).toBe('rate_limit_exceeded');
    expect(refused.headers['Retry-After']).toBe('40');
    expect(refused.headers['RateLimit-Remaining']).toBe('0');
    expect(usage.monthCount).toBe(3); // a refusal is not counted
    // The window ends 60 s after its first request; the next one opens a new window.
    const next = admit(usage, limits, start + 60_000);
    expect(next.refused).toBeUndefined();
    expect(next.headers['RateLimit-Remaining']).toBe('2');
    expect(next.headers['RateLimit-Reset']).toBe('60');
  });

  it('a request stamped just before the window opened (another thread opened it first) counts in that window', () => {
    const usage = emptyUsage();
    const limits = { perMinute: 2, perMonth: 100 };
    const start = at('2026-11-22T10:00:00.000Z');
    expect(admit(usage, limits, start).refused).toBeUndefined();
    const earlier = admit(usage, limits, start - 3);
    expect(earlier.refused).toBeUndefined();
    expect(earlier.headers['RateLimit-Remaining']).toBe('0');
    expect(earlier.headers['RateLimit-Reset']).toBe('60'); // never more than a window
    expect(admit(usage, limits, start - 5).refused).toBe('rate_limit_exceeded'); // no second allowance
    // A clock that went back by more than a window starts a new one.
    expect(admit(usage, limits, start - 60_001).refused).toBeUndefined();
    expect(usage.windowStart).toBe(start - 60_001);
  });

  it('refuses past the monthly quota until the first instant of the next UTC month', () => {
    const usage = emptyUsage();
    const limits = { perMinute: 100, perMonth: 2 };
    const now = at('2026-11-30T23:59:00.000Z');
    admit(usage, limits, now);
    admit(usage, limits, now);
    const refused = admit(usage, limits, now + 1000);
    expect(refused.refused).toBe('quota_exceeded');
    expect(refused.headers['X-Quota-Remaining']).toBe('0');
    expect(refused.headers['X-Quota-Reset']).toBe('2026-12-01T00:00:00Z');
    expect(refused.headers['Retry-After']).toBe('59');
    // A new month starts from zero.
    expect(admit(usage, limits, at('2026-12-01T00:00:00.000Z')).refused).toBeUndefined();
    expect(usage.month).toBe('2026-12');
    expect(usage.monthCount).toBe(1);
  });

  it('the quota is checked before the per-minute limit', () => {
    const usage = emptyUsage();
    const limits = { perMinute: 1, perMonth: 1 };
    admit(usage, limits, 0);
    expect(admit(usage, limits, 1).refused).toBe('quota_exceeded');
  });

  it('resets at the first instant of the next month, across the year end', () => {
    expect(new Date(nextMonthStart(at('2026-12-31T23:59:59Z'))).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('plans', () => {
  it('are the contract’s table, prices included', () => {
    expect(DEFAULT_PLANS).toEqual({
      trial: { perMinute: 10, perMonth: 1000, monthlyPriceUsd: 0 },
      pro: { perMinute: 60, perMonth: 100_000, monthlyPriceUsd: 9 },
      business: { perMinute: 300, perMonth: 1_000_000, monthlyPriceUsd: 49 },
    });
  });

  it('take overrides through the same code path, and refuse malformed ones', () => {
    expect(resolvePlans({ business: { perMinute: 100_000, perMonth: 100_000_000 } }).business).toEqual({ perMinute: 100_000, perMonth: 100_000_000, monthlyPriceUsd: 49 });
    expect(resolvePlans({ trial: { perMonth: 5 } }).trial).toEqual({ perMinute: 10, perMonth: 5, monthlyPriceUsd: 0 });
    expect(resolvePlans({ pro: { monthlyPriceUsd: 12.5 } }).pro).toEqual({ perMinute: 60, perMonth: 100_000, monthlyPriceUsd: 12.5 });
    expect(() => resolvePlans({ gold: { perMinute: 1 } })).toThrow(/unknown plan "gold"/);
    expect(() => resolvePlans({ pro: { perMinute: 0 } })).toThrow(/perMinute must be a positive integer/);
    expect(() => resolvePlans([])).toThrow();
  });

  it('take a price in US dollars with at most two decimals: 0 for the trial, more for a paid plan', () => {
    expect(resolvePlans({ pro: { monthlyPriceUsd: 9.99 } }).pro.monthlyPriceUsd).toBe(9.99);
    for (const price of [-1, 9.999, '9', null, Number.POSITIVE_INFINITY]) {
      expect(() => resolvePlans({ pro: { monthlyPriceUsd: price } }), String(price)).toThrow(/plan "pro": monthlyPriceUsd must be a number of US dollars/);
    }
    expect(() => resolvePlans({ trial: { monthlyPriceUsd: 5 } })).toThrow(/plan "trial": monthlyPriceUsd must be 0/);
    expect(() => resolvePlans({ business: { monthlyPriceUsd: 0 } })).toThrow(/plan "business": monthlyPriceUsd must be more than 0/);
  });

  it('write a price as the reader’s locale does', () => {
    expect([usdAmount(9, 'en'), usdAmount(49, 'tr-TR'), usdAmount(9.5, 'en'), usdAmount(9.99, 'tr-TR'), usdAmount(1250, 'en')]).toEqual(['9', '49', '9.50', '9,99', '1,250']);
  });
});
