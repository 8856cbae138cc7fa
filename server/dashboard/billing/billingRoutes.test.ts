import Stripe from 'stripe';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../../accounts/accountStore.js';
import { MemoryBillingStore, MemoryLocalBillingLedger } from '../../accounts/billingMemoryStore.js';
import { DEFAULT_PLANS, type PlanName } from '../../accounts/plans.js';
import { html, type Html } from '../../web/html.js';
import type { DashboardContext, DashboardReply, DashboardRequest } from '../dashboardTypes.js';
import { LocalProvider } from './localProvider.js';
import {
  billingPage,
  localCheckoutAction,
  localCheckoutPage,
  localPortalAction,
  localPortalPage,
  openPortal,
  receiveWebhook,
  startCheckout,
} from './billingRoutes.js';
import type { BillingServices } from './billingServices.js';

const SECRET = 'whsec_routes';
const BASE = 'http://localhost:8080';
let account: Account;
let services: BillingServices;

const accounts = {
  accountById: (id: string) => (id === account.id ? account : undefined),
  setPlanById: (_id: string, plan: PlanName) => (account = { ...account, plan }),
};

function context(language: 'en' | 'tr' = 'en', signedIn = true): DashboardContext {
  return {
    services: { accounts, plans: DEFAULT_PLANS, publicBaseUrl: () => BASE, now: () => Date.now(), billing: services } as unknown as DashboardContext['services'],
    language,
    account: signedIn ? account : undefined,
    csrfToken: 'csrf-token-1',
    signinCsrfToken: '',
    signinCookie: '',
    page: ({ title, main }: { title: string; main: Html }) => html`<title>${title}</title>${main}`,
  };
}

function request(method: 'GET' | 'POST', url: string, fields: Record<string, string> = {}, raw?: Buffer, headers: Record<string, string> = {}): DashboardRequest {
  const parsed = new URL(url, BASE);
  return {
    method, path: parsed.pathname, params: {}, query: parsed.searchParams, form: new URLSearchParams(fields), raw, headers, cookies: new Map(), clientAddress: 'direct', requestId: 'r1',
  };
}

const text = (reply: DashboardReply): string => String(reply.body);

beforeEach(() => {
  account = { id: 'acc_1', email: 'a@example.com', plan: 'trial', createdAt: '2026-01-01T00:00:00Z' };
  const store = new MemoryBillingStore();
  const local: LocalProvider = new LocalProvider({
    secret: SECRET,
    ledger: new MemoryLocalBillingLedger(),
    // Delivered to the webhook handler, as the HTTP POST to /webhooks/billing would.
    deliver: async (payload, signature) => {
      const reply = await receiveWebhook(request('POST', '/webhooks/billing', {}, Buffer.from(payload), { 'stripe-signature': signature }), context());
      if (reply.status !== 200) throw new Error(`webhook ${reply.status}: ${text(reply)}`);
    },
  });
  services = { store, provider: local, local, close: async () => {} };
});

describe('the billing routes', () => {
  it('shows the plan, its limits and the checkout forms with the CSRF field, in English and Turkish, marked as test mode', async () => {
    const en = text(await billingPage(request('GET', '/dashboard/billing'), context()));
    expect(en).toContain('<dt>Current plan</dt><dd>Trial</dd>');
    expect(en).toContain('10 requests a minute, 1,000 a month');
    expect(en).toContain('TEST MODE');
    expect(en).toMatch(/<form method="post" action="\/dashboard\/billing\/checkout">\s*<input type="hidden" name="csrf" value="csrf-token-1">\s*<input type="hidden" name="plan" value="pro">/);
    expect(en).toContain('name="plan" value="business"');
    expect(en).not.toContain('/dashboard/billing/portal');
    const tr = text(await billingPage(request('GET', '/dashboard/billing'), context('tr')));
    expect(tr).toContain('<dt>Geçerli plan</dt><dd>Deneme</dd>');
    expect(tr).toContain('dakikada 10, ayda 1.000 istek');
  });

  it('runs a whole local checkout: form → test checkout page → Pay → signed events → the plan is pro', async () => {
    const started = await startCheckout(request('POST', '/dashboard/billing/checkout', { plan: 'pro', csrf: 'csrf-token-1' }), context());
    expect(started.status).toBe(303);
    expect(started.location).toMatch(/^\/dashboard\/billing\/local\/checkout\?session=/);
    const checkoutPage = text(localCheckoutPage(request('GET', started.location!), context()));
    expect(checkoutPage).toContain('This is a test checkout: no card is charged.');
    expect(checkoutPage).toContain('name="csrf" value="csrf-token-1"');
    for (const label of ['>Pay<', '>Pay with a failing card<', '>Cancel<']) expect(checkoutPage).toContain(label);
    const token = new URL(started.location!, BASE).searchParams.get('session')!;

    const paid = await localCheckoutAction(request('POST', '/dashboard/billing/local/checkout', { session: token, action: 'pay' }), context());
    expect(paid).toMatchObject({ status: 303, location: `${BASE}/dashboard/billing?checkout=success` });
    expect(account.plan).toBe('pro');
    const after = text(await billingPage(request('GET', '/dashboard/billing?checkout=success'), context()));
    expect(after).toContain('<dt>Current plan</dt><dd>Pro</dd>');
    expect(after).toContain('Active (Pro)');
    expect(after).toContain('action="/dashboard/billing/portal"');

    // Subscribed: a second checkout goes to the portal instead.
    const again = await startCheckout(request('POST', '/dashboard/billing/checkout', { plan: 'business' }), context());
    expect(again.location).toMatch(/^\/dashboard\/billing\/local\/portal\?return=/);
  });

  it('shows the declined card, and cancels back to the billing page', async () => {
    const started = await startCheckout(request('POST', '/dashboard/billing/checkout', { plan: 'business' }), context());
    const token = new URL(started.location!, BASE).searchParams.get('session')!;
    const declined = await localCheckoutAction(request('POST', '/dashboard/billing/local/checkout', { session: token, action: 'fail' }), context());
    expect(declined.status).toBe(402);
    expect(text(declined)).toContain('The card was declined (test)');
    expect(account.plan).toBe('trial');
    expect(text(await billingPage(request('GET', '/dashboard/billing'), context()))).toMatch(/payment of .* failed/);
    const cancelled = await localCheckoutAction(request('POST', '/dashboard/billing/local/checkout', { session: token, action: 'cancel' }), context());
    expect(cancelled.location).toBe(`${BASE}/dashboard/billing?checkout=cancel`);
  });

  it('runs the local portal: cancel at period end (note shown), simulate the period end → trial', async () => {
    const started = await startCheckout(request('POST', '/dashboard/billing/checkout', { plan: 'pro' }), context());
    const token = new URL(started.location!, BASE).searchParams.get('session')!;
    await localCheckoutAction(request('POST', '/dashboard/billing/local/checkout', { session: token, action: 'pay' }), context());
    const portal = await openPortal(request('POST', '/dashboard/billing/portal'), context());
    expect(portal.location).toBe(`/dashboard/billing/local/portal?return=${encodeURIComponent(`${BASE}/dashboard/billing`)}`);
    const portalPage = text(localPortalPage(request('GET', portal.location!), context()));
    for (const label of ['Switch to Business', 'Cancel at period end', 'Simulate period end', 'End subscription now']) expect(portalPage).toContain(label);

    // Cancelling asks first: the portal's button GETs the question; a POST without the confirmation changes nothing.
    expect(portalPage).toMatch(/<form method="get" action="\/dashboard\/billing\/local\/portal">\s*<input type="hidden" name="return" value="[^"]*">\s*<input type="hidden" name="ask" value="cancel">/);
    const unasked = await localPortalAction(request('POST', '/dashboard/billing/local/portal', { action: 'cancel', return: `${BASE}/dashboard/billing` }), context());
    expect(unasked.status).toBe(303);
    expect(unasked.location).toBe(`/dashboard/billing/local/portal?return=${encodeURIComponent(`${BASE}/dashboard/billing`)}&ask=cancel`);
    expect(text(await billingPage(request('GET', '/dashboard/billing'), context()))).toContain('Active (Pro)');
    const question = text(localPortalPage(request('GET', unasked.location!), context()));
    expect(question).toContain('Cancel the Pro subscription at the end of the period?');
    expect(question).toMatch(/<input type="hidden" name="confirm" value="yes">\s*<input type="hidden" name="action" value="cancel">/);
    const cancelled = await localPortalAction(request('POST', '/dashboard/billing/local/portal', { action: 'cancel', confirm: 'yes', return: `${BASE}/dashboard/billing` }), context());
    expect(cancelled.status).toBe(303);
    const cancelledPage = text(await billingPage(request('GET', '/dashboard/billing'), context()));
    expect(cancelledPage).toContain('Your subscription is cancelled: the plan stays until');
    // Not "Active (Pro)" any more: cancelled, the plan until the period's end.
    expect(cancelledPage).not.toContain('Active (Pro)');
    expect(cancelledPage).toMatch(/<dd>Cancelled: Pro until \d{1,2} [A-Z][a-z]+ \d{4}, then Trial<\/dd>/);
    expect(text(localPortalPage(request('GET', portal.location!), context()))).toMatch(/<dd>Cancelled: Pro until [^<]+, then Trial<\/dd>/);
    // Nothing left to cancel: the question is not asked (409), and ending now still asks first.
    expect(localPortalPage(request('GET', `${portal.location!}&ask=cancel`), context()).status).toBe(409);
    expect(text(localPortalPage(request('GET', `${portal.location!}&ask=end_now`), context()))).toContain('End the Pro subscription now?');
    expect(account.plan).toBe('pro');
    await localPortalAction(request('POST', '/dashboard/billing/local/portal', { action: 'period_end' }), context());
    expect(account.plan).toBe('trial');
    const page = text(await billingPage(request('GET', '/dashboard/billing'), context()));
    expect(page).toContain('<dd>Ended</dd>');
    expect(page).toContain('name="plan" value="pro"');
    // A return address elsewhere is not followed.
    const elsewhere = text(localPortalPage(request('GET', '/dashboard/billing/local/portal?return=https://evil.example/'), context()));
    expect(elsewhere).not.toContain('evil.example');
  });

  it('refuses a bad plan, and sends an account with no customer back from the portal', async () => {
    expect((await startCheckout(request('POST', '/dashboard/billing/checkout', { plan: 'trial' }), context())).status).toBe(400);
    expect(await openPortal(request('POST', '/dashboard/billing/portal'), context())).toEqual({ status: 303, location: '/dashboard/billing?portal=none' });
  });

  it('answers the webhook 400 with a JSON error for a bad signature or body, 200 {received:true} for a good one, and the same again for a redelivery', async () => {
    const payload = JSON.stringify({ id: 'evt_x', object: 'event', created: 1_800_000_000, type: 'customer.created', data: { object: { id: 'cus_9' } } });
    const post = (body: string, signature: string) => receiveWebhook(request('POST', '/webhooks/billing', {}, Buffer.from(body), signature ? { 'stripe-signature': signature } : {}), context(undefined, false));
    const bad = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }));
    expect(bad.status).toBe(400);
    expect(bad.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(text(bad))).toMatchObject({ error: { code: 'invalid_signature' } });
    expect(JSON.parse(text(await post(payload, ''))).error.code).toBe('missing_signature');
    const good = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }));
    expect(good.status).toBe(200);
    expect(JSON.parse(text(good))).toEqual({ received: true });
    expect((await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }))).status).toBe(200);
    expect(await services.store.hasProcessed('evt_x')).toBe(true);
  });

  it('answers 404 for the local pages when the provider is Stripe', async () => {
    services = { ...services, local: undefined };
    expect(localCheckoutPage(request('GET', '/dashboard/billing/local/checkout?session=x'), context()).status).toBe(404);
  });
});
