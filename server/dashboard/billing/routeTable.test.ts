import { describe, expect, it } from 'vitest';
import { DASHBOARD_ROUTES } from '../dashboardRoutes.js';
import { compileRoutes } from '../routing.js';

describe('the billing routes in the dashboard table', () => {
  it('compile with the others and match', () => {
    const router = compileRoutes(DASHBOARD_ROUTES);
    for (const [method, path] of [['GET', '/dashboard/billing'], ['POST', '/dashboard/billing/checkout'], ['POST', '/dashboard/billing/portal'], ['GET', '/dashboard/billing/local/checkout'], ['POST', '/dashboard/billing/local/portal'], ['POST', '/webhooks/billing']]) {
      expect(router(method, path)).toHaveProperty('route');
    }
    expect(router('POST', '/webhooks/billing')).toMatchObject({ route: { session: false, csrf: 'none', body: 'raw' } });
  });
});
