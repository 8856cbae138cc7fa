// The billing routes: the billing page, starting a checkout, opening the portal, the provider's webhook, and the local
// test provider's checkout and portal pages. Handlers of the dashboard's route table (dashboardRoutes.ts); the surface
// checks sessions and CSRF before them (the webhook: neither, its signature is its check). Their services come in
// `context.services.billing` (billingServices.ts, opened per serving thread).
import { log } from '../../log.js';
import { html } from '../../web/html.js';
import { isPaidPlan } from '../../accounts/billingStore.js';
import type { DashboardContext, DashboardReply, DashboardRequest, DashboardRoute } from '../dashboardTypes.js';
import { applyBillingEvent } from './applyBillingEvent.js';
import { NoCustomerError, WebhookVerificationError } from './billingProvider.js';
import { confirmed } from '../confirmPage.js';
import { ASK_PARAM, ASKED_ACTIONS, BILLING_PATHS, billingContent, localCheckoutContent, localPortalConfirmContent, localPortalContent } from './billingPages.js';
import type { BillingServices } from './billingServices.js';
import { BILLING_WORDS } from './billingWords.js';
import { LOCAL_PORTAL_ACTIONS, LocalProvider, type LocalPortalAction } from './localProvider.js';

const billingOf = (context: DashboardContext): BillingServices | undefined => context.services.billing;

const notFound = (context: DashboardContext): DashboardReply => {
  const title = context.language === 'tr' ? 'Bulunamadı' : 'Not found';
  return { status: 404, body: context.page({ title, main: html`<h1>${title}</h1>\n` }), code: 'not_found' };
};

const seconds = (context: DashboardContext): number => Math.floor(context.services.now() / 1000);
const billingUrl = (context: DashboardContext, query = ''): string => `${context.services.publicBaseUrl()}${BILLING_PATHS.billing}${query}`;

async function page(context: DashboardContext, status: number, message?: string): Promise<DashboardReply> {
  const billing = billingOf(context);
  if (!billing || !context.account) return notFound(context);
  const state = await billing.store.get(context.account.id);
  const main = billingContent({
    language: context.language,
    account: context.account,
    plans: context.services.plans,
    state,
    csrf: context.csrfToken,
    provider: billing.provider.name,
    message,
  });
  return { status, body: context.page({ title: BILLING_WORDS[context.language].title, main }) };
}

/** GET /dashboard/billing (?checkout=success|cancel after the provider's page, ?portal=none). */
export function billingPage(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = BILLING_WORDS[context.language];
  const messages: Record<string, string> = { success: w.checkoutDone, cancel: w.checkoutCancelled };
  const message = messages[request.query.get('checkout') ?? ''] ?? (request.query.get('portal') === 'none' ? w.noSubscription : undefined);
  return page(context, 200, message);
}

/** POST /dashboard/billing/checkout (field `plan`): to the provider's checkout, or to the portal when subscribed already. */
export async function startCheckout(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const billing = billingOf(context);
  const account = context.account;
  if (!billing || !account) return notFound(context);
  const plan = request.form.get('plan') ?? '';
  if (!isPaidPlan(plan)) return page(context, 400, BILLING_WORDS[context.language].badPlan);
  const state = await billing.store.get(account.id);
  const subscribed = !!state?.subscriptionId && ['active', 'trialing', 'past_due'].includes(state.status);
  try {
    const location = subscribed
      ? await billing.provider.portalUrl(account, billingUrl(context))
      : await billing.provider.checkoutUrl(account, plan, { success: billingUrl(context, '?checkout=success'), cancel: billingUrl(context, '?checkout=cancel') });
    return { status: 303, location };
  } catch (error) {
    log('error', 'billing_checkout_failed', { requestId: request.requestId, accountId: account.id, error: String(error) });
    return page(context, 502, BILLING_WORDS[context.language].providerFailed);
  }
}

/** POST /dashboard/billing/portal: to the provider's page for changing or cancelling. */
export async function openPortal(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const billing = billingOf(context);
  const account = context.account;
  if (!billing || !account) return notFound(context);
  try {
    return { status: 303, location: await billing.provider.portalUrl(account, billingUrl(context)) };
  } catch (error) {
    if (error instanceof NoCustomerError) return { status: 303, location: `${BILLING_PATHS.billing}?portal=none` };
    log('error', 'billing_portal_failed', { requestId: request.requestId, accountId: account.id, error: String(error) });
    return page(context, 502, BILLING_WORDS[context.language].providerFailed);
  }
}

const json = (status: number, value: unknown, code?: string): DashboardReply => ({
  status,
  body: JSON.stringify(value),
  contentType: 'application/json; charset=utf-8',
  ...(code ? { code } : {}),
});

/** POST /webhooks/billing: raw body, the provider's signature; 200 {received:true} once applied (or known already). */
export async function receiveWebhook(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const billing = billingOf(context);
  if (!billing) return json(404, { error: { code: 'not_found', message: 'billing is not set up on this server' } }, 'not_found');
  let event;
  try {
    event = billing.provider.verifyWebhook(request.raw ?? Buffer.alloc(0), request.headers['stripe-signature'] || undefined, context.services.now());
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    log('warn', 'billing_webhook_refused', { requestId: request.requestId, problem: error.problem });
    return json(400, { error: { code: error.problem, message: error.message } }, error.problem);
  }
  const result = await applyBillingEvent(event, { billing: billing.store, accounts: context.services.accounts, now: seconds(context) });
  log('info', 'billing_event', { requestId: request.requestId, eventId: event.id, type: event.providerType, ...result });
  return json(200, { received: true });
}

// --- the local test provider's pages ---

function localOf(context: DashboardContext): LocalProvider | undefined {
  return context.account ? billingOf(context)?.local : undefined;
}

function localCheckoutReply(context: DashboardContext, local: LocalProvider, token: string | null, status: number, message?: string): DashboardReply {
  const value = local.openSession(token, context.account!.id);
  const w = BILLING_WORDS[context.language];
  const main = localCheckoutContent({
    language: context.language,
    session: value && token ? { token, value } : undefined,
    plans: context.services.plans,
    csrf: context.csrfToken,
    message: message ?? (value ? undefined : w.sessionInvalid),
  });
  return { status: value ? status : 400, body: context.page({ title: w.testCheckoutTitle, main }) };
}

/** GET /dashboard/billing/local/checkout?session=… */
export function localCheckoutPage(request: DashboardRequest, context: DashboardContext): DashboardReply {
  const local = localOf(context);
  if (!local) return notFound(context);
  return localCheckoutReply(context, local, request.query.get('session'), 200);
}

/** POST /dashboard/billing/local/checkout (fields `session`, `action`: pay | fail | cancel). */
export async function localCheckoutAction(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const local = localOf(context);
  if (!local) return notFound(context);
  const token = request.form.get('session');
  const session = local.openSession(token, context.account!.id);
  if (!session) return localCheckoutReply(context, local, token, 400);
  const w = BILLING_WORDS[context.language];
  const action = request.form.get('action');
  if (action === 'cancel') return { status: 303, location: session.cancelUrl };
  if (action !== 'pay' && action !== 'fail') return localCheckoutReply(context, local, token, 400);
  const outcome = await local.completeCheckout(session, context.account!, action === 'pay' ? 'good' : 'failing');
  if (outcome === 'paid') return { status: 303, location: session.successUrl };
  const messages = { declined: w.declined, already_subscribed: w.alreadySubscribed, used: w.sessionUsed, invalid: w.sessionInvalid } as const;
  return localCheckoutReply(context, local, token, outcome === 'declined' ? 402 : 409, messages[outcome]);
}

/** Only our own billing page is a place to return to (no open redirect). */
function returnUrlOf(value: string | null, context: DashboardContext): string {
  const base = context.services.publicBaseUrl();
  if (value && (value === BILLING_PATHS.billing || value.startsWith(`${base}${BILLING_PATHS.billing}`))) return value;
  return BILLING_PATHS.billing;
}

function localPortalReply(context: DashboardContext, local: LocalProvider, returnUrl: string, status: number, message?: string): DashboardReply {
  const main = localPortalContent({ language: context.language, record: local.record(context.account!.id), csrf: context.csrfToken, returnUrl, message });
  return { status, body: context.page({ title: BILLING_WORDS[context.language].testPortalTitle, main }) };
}

/** GET /dashboard/billing/local/portal?return=… (with `&ask=cancel|end_now`: the page that asks first). */
export function localPortalPage(request: DashboardRequest, context: DashboardContext): DashboardReply {
  const local = localOf(context);
  if (!local) return notFound(context);
  const returnUrl = returnUrlOf(request.query.get('return'), context);
  const ask = request.query.get(ASK_PARAM);
  if (ask === null) return localPortalReply(context, local, returnUrl, 200);
  const record = local.record(context.account!.id);
  const w = BILLING_WORDS[context.language];
  if ((ask !== 'cancel' && ask !== 'end_now') || !LocalProvider.possibleActions(record).includes(ask)) return localPortalReply(context, local, returnUrl, 409, w.notPossible);
  const main = localPortalConfirmContent({ language: context.language, record, csrf: context.csrfToken, returnUrl, action: ask });
  return { status: 200, body: context.page({ title: ask === 'cancel' ? w.cancelQuestion(w.planNames[record?.plan ?? 'pro']) : w.endQuestion(w.planNames[record?.plan ?? 'pro']), main }) };
}

/** POST /dashboard/billing/local/portal (fields `action`, `plan` for a switch, `return`). */
export async function localPortalAction(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const local = localOf(context);
  if (!local) return notFound(context);
  const returnUrl = returnUrlOf(request.form.get('return'), context);
  const action = request.form.get('action') ?? '';
  const plan = request.form.get('plan') ?? undefined;
  if (!(LOCAL_PORTAL_ACTIONS as readonly string[]).includes(action) || (plan !== undefined && !isPaidPlan(plan))) {
    return localPortalReply(context, local, returnUrl, 400, BILLING_WORDS[context.language].notPossible);
  }
  // Cancelling and ending act only from the page that asked (its `confirm` field); else to that page, nothing changed.
  if (ASKED_ACTIONS.includes(action as LocalPortalAction) && !confirmed(request.form)) {
    return { status: 303, location: `${localPortalUrl(returnUrl)}&${ASK_PARAM}=${action}`, code: 'not_confirmed' };
  }
  const outcome = await local.portalAction(context.account!, action as LocalPortalAction, plan as 'pro' | 'business' | undefined);
  if (outcome !== 'done') return localPortalReply(context, local, returnUrl, 409, BILLING_WORDS[context.language].notPossible);
  return { status: 303, location: localPortalUrl(returnUrl) };
}

const localPortalUrl = (returnUrl: string): string => `${BILLING_PATHS.localPortal}?return=${encodeURIComponent(returnUrl)}`;

/** The billing entries of the dashboard's route table. */
export const BILLING_ROUTES: readonly DashboardRoute[] = [
  { method: 'GET', path: BILLING_PATHS.billing, session: true, csrf: 'none', body: 'none', handler: billingPage },
  { method: 'POST', path: BILLING_PATHS.checkout, session: true, csrf: 'session', body: 'form', handler: startCheckout },
  { method: 'POST', path: BILLING_PATHS.portal, session: true, csrf: 'session', body: 'form', handler: openPortal },
  { method: 'GET', path: BILLING_PATHS.localCheckout, session: true, csrf: 'none', body: 'none', handler: localCheckoutPage },
  { method: 'POST', path: BILLING_PATHS.localCheckout, session: true, csrf: 'session', body: 'form', handler: localCheckoutAction },
  { method: 'GET', path: BILLING_PATHS.localPortal, session: true, csrf: 'none', body: 'none', handler: localPortalPage },
  { method: 'POST', path: BILLING_PATHS.localPortal, session: true, csrf: 'session', body: 'form', handler: localPortalAction },
  // The provider's webhook: no session, no CSRF (the signature is the check), the raw body as sent.
  { method: 'POST', path: BILLING_PATHS.webhook, session: false, csrf: 'none', body: 'raw', handler: receiveWebhook },
];
