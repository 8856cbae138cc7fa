// The billing pages' content, as pure functions of what they show (escaped by `html`), in Turkish and English: the
// billing page (plan, limits, subscription, notices, the checkout and portal forms), and the local test provider's
// checkout and portal pages. The dashboard's frame (context.page) wraps them.
import type { Account } from '../../accounts/accountStore.js';
import { PAID_PLANS, type BillingState, type LocalSubscriptionRecord, type PaidPlan, type SubscriptionStatus } from '../../accounts/billingStore.js';
import { usdAmount, type Plan, type Plans } from '../../accounts/plans.js';
import type { SiteLanguage } from '../../links.js';
import { html, type Html } from '../../web/html.js';
import { confirmationContent } from '../confirmPage.js';
import { BILLING_WORDS } from './billingWords.js';
import { LOCAL_CHECKOUT_PATH, LOCAL_PORTAL_PATH, LocalProvider, type LocalCheckoutSession, type LocalPortalAction } from './localProvider.js';

export const BILLING_PATHS = {
  billing: '/dashboard/billing',
  checkout: '/dashboard/billing/checkout',
  portal: '/dashboard/billing/portal',
  localCheckout: LOCAL_CHECKOUT_PATH,
  localPortal: LOCAL_PORTAL_PATH,
  webhook: '/webhooks/billing',
} as const;

const locale = (language: SiteLanguage): string => (language === 'tr' ? 'tr-TR' : 'en-GB');
const number = (language: SiteLanguage, n: number): string => n.toLocaleString(locale(language));
/** A day, as the reader's language writes it (UTC: the provider's periods are instants). */
export const day = (language: SiteLanguage, seconds: number): string =>
  new Date(seconds * 1000).toLocaleDateString(locale(language), { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** A plan's price from the plan table (PLANS_FILE applied): "9 USD a month", or the trial's free and endless. */
export const planPrice = (language: SiteLanguage, plan: Plan): string =>
  plan.monthlyPriceUsd === 0 ? BILLING_WORDS[language].trialPrice : BILLING_WORDS[language].monthlyPrice(usdAmount(plan.monthlyPriceUsd, locale(language)));

const csrfField = (csrf: string): Html => html`<input type="hidden" name="csrf" value="${csrf}">`;
const note = (text: string | undefined): Html | undefined => (text ? html`<p class="note" role="alert">${text}</p>\n` : undefined);
const testBanner = (language: SiteLanguage): Html => html`<p class="note" role="note"><strong>${BILLING_WORDS[language].testBanner}</strong></p>\n`;

export interface BillingView {
  language: SiteLanguage;
  account: Account;
  plans: Plans;
  state: BillingState | undefined;
  /** The value of the hidden `csrf` field of the forms. */
  csrf: string;
  provider: 'stripe' | 'local';
  /** A one-line message (after a checkout, a refused form…). */
  message?: string;
}

/**
 * A subscription's state in words: a live one cancelled at its period's end says so, with the day it ends ("Cancelled:
 * Pro until 26 December 2026, then Trial"), never "Active (Pro)"; an ended one "Ended"; otherwise the provider's status
 * with the plan it pays for.
 */
export function subscriptionStatus(language: SiteLanguage, s: { status: SubscriptionStatus; plan?: PaidPlan; cancelAtPeriodEnd: boolean; periodEnd?: number }): string {
  const w = BILLING_WORDS[language];
  if (s.plan && s.cancelAtPeriodEnd && s.periodEnd !== undefined && LIVE_STATUSES.includes(s.status)) return w.cancelledUntil(w.planNames[s.plan], day(language, s.periodEnd));
  return s.plan && s.status !== 'canceled' ? `${w.statuses[s.status]} (${w.planNames[s.plan]})` : w.statuses[s.status];
}

/** The statuses in which a subscription still runs (and pays for its plan). */
const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

/** The billing page's main content: GET /dashboard/billing. */
export function billingContent(view: BillingView): Html {
  const { language, account, plans, state } = view;
  const w = BILLING_WORDS[language];
  const limits = plans[account.plan];
  const status = state?.status ?? 'none';
  const subscribed = !!state?.subscriptionId && status !== 'canceled' && status !== 'incomplete_expired' && status !== 'none';
  const offered = PAID_PLANS.filter((plan) => plan !== account.plan);
  return html`<h1>${w.title}</h1>
${view.provider === 'local' && testBanner(language)}${note(view.message)}${
    state?.paymentFailed && html`<p class="note" role="alert"><strong>${w.paymentFailed(day(language, state.paymentFailed.at))}</strong></p>\n`
  }<dl class="facts">
<dt>${w.currentPlan}</dt><dd>${w.planNames[account.plan]}</dd>
<dt>${w.limits}</dt><dd>${w.planLimits(number(language, limits.perMinute), number(language, limits.perMonth))}</dd>
<dt>${w.price}</dt><dd>${planPrice(language, limits)}</dd>
<dt>${w.status}</dt><dd>${subscriptionStatus(language, { status, plan: subscribed ? state?.plan : undefined, cancelAtPeriodEnd: !!state?.cancelAtPeriodEnd, periodEnd: state?.currentPeriodEnd })}</dd>
${subscribed && state?.currentPeriodEnd !== undefined && html`<dt>${w.periodEnd}</dt><dd>${day(language, state.currentPeriodEnd)}</dd>\n`}</dl>
${subscribed && state?.cancelAtPeriodEnd && state.currentPeriodEnd !== undefined && html`<p class="note">${w.cancelNote(day(language, state.currentPeriodEnd))}</p>\n`}${
    !subscribed &&
    html`<h2>${w.choosePlan}</h2>
<div class="plans">
${offered.map(
  (plan) => html`<section>
<h3>${w.planNames[plan]}</h3>
<p><strong>${planPrice(language, plans[plan])}</strong></p>
<p>${w.planLimits(number(language, plans[plan].perMinute), number(language, plans[plan].perMonth))}</p>
<form method="post" action="${BILLING_PATHS.checkout}">
${csrfField(view.csrf)}
<input type="hidden" name="plan" value="${plan}">
<button type="submit">${w.subscribeTo(w.planNames[plan])}</button>
</form>
</section>
`,
)}</div>
`
  }${
    state?.customerId &&
    html`<h2>${w.manage}</h2>
<p class="lede">${w.manageHint}</p>
<form method="post" action="${BILLING_PATHS.portal}">
${csrfField(view.csrf)}
<button type="submit">${w.manage}</button>
</form>
`
  }`;
}

export interface LocalCheckoutView {
  language: SiteLanguage;
  /** The session, with its token; undefined when the token was not good. */
  session?: { token: string; value: LocalCheckoutSession };
  /** The plan table: the checkout says what the plan costs. */
  plans: Plans;
  csrf: string;
  message?: string;
}

/** The local provider's test checkout: GET /dashboard/billing/local/checkout?session=… */
export function localCheckoutContent(view: LocalCheckoutView): Html {
  const w = BILLING_WORDS[view.language];
  const head = html`<h1>${w.testCheckoutTitle}</h1>
${testBanner(view.language)}<p class="lede"><strong>${w.testCheckoutLede}</strong></p>
${note(view.message)}`;
  if (!view.session) return html`${head}<p><a href="${BILLING_PATHS.billing}">${w.backToBilling}</a></p>\n`;
  const { token, value } = view.session;
  const button = (action: string, label: string): Html => html`<button type="submit" name="action" value="${action}">${label}</button>`;
  return html`${head}<p>${w.subscription(w.planNames[value.plan])}</p>
<p><strong>${w.checkoutCharge(usdAmount(view.plans[value.plan].monthlyPriceUsd, locale(view.language)))}</strong></p>
<form class="choose" method="post" action="${BILLING_PATHS.localCheckout}">
${csrfField(view.csrf)}
<input type="hidden" name="session" value="${token}">
${button('pay', w.pay)}
${button('fail', w.payFailing)}
${button('cancel', w.cancel)}
</form>
`;
}

export interface LocalPortalView {
  language: SiteLanguage;
  record: LocalSubscriptionRecord | undefined;
  csrf: string;
  returnUrl: string;
  message?: string;
}

/** The local provider's test portal: GET /dashboard/billing/local/portal */
export function localPortalContent(view: LocalPortalView): Html {
  const { language, record } = view;
  const w = BILLING_WORDS[language];
  const actions = LocalProvider.possibleActions(record);
  const button = (action: LocalPortalAction, label: string, plan?: PaidPlan): Html =>
    html`<form method="post" action="${BILLING_PATHS.localPortal}">
${csrfField(view.csrf)}
<input type="hidden" name="return" value="${view.returnUrl}">
${plan && html`<input type="hidden" name="plan" value="${plan}">\n`}<button type="submit" name="action" value="${action}">${label}</button>
</form>
`;
  // Cancelling and ending go through a page that asks first (localPortalConfirmContent): a GET form to it.
  const ask = (action: LocalPortalAction, label: string): Html =>
    html`<form method="get" action="${BILLING_PATHS.localPortal}">
<input type="hidden" name="return" value="${view.returnUrl}">
<input type="hidden" name="${ASK_PARAM}" value="${action}">
<button type="submit">${label}</button>
</form>
`;
  const other: PaidPlan | undefined = record?.plan === 'pro' ? 'business' : record?.plan === 'business' ? 'pro' : undefined;
  return html`<h1>${w.testPortalTitle}</h1>
${testBanner(language)}<p class="lede"><strong>${w.testPortalLede}</strong></p>
${note(view.message)}${
    record && actions.length > 0
      ? html`<dl class="facts">
<dt>${w.status}</dt><dd>${subscriptionStatus(language, { status: record.status, plan: record.plan, cancelAtPeriodEnd: record.cancelAtPeriodEnd, periodEnd: record.periodEnd })}</dd>
${record.periodEnd !== undefined && html`<dt>${w.periodEnd}</dt><dd>${day(language, record.periodEnd)}</dd>\n`}</dl>
${record.cancelAtPeriodEnd && record.periodEnd !== undefined && html`<p class="note">${w.cancelNote(day(language, record.periodEnd))}</p>\n`}<div class="choose">
${actions.includes('switch') && other && button('switch', w.switchTo(w.planNames[other]), other)}${actions.includes('cancel') && ask('cancel', w.cancelAtPeriodEnd)}${
          actions.includes('resume') && button('resume', w.resume)
        }${actions.includes('pay_now') && button('pay_now', w.payNow)}${button('period_end', w.simulatePeriodEnd)}${button('period_end_failing', w.simulatePeriodEndFailing)}${ask('end_now', w.endNow)}</div>
`
      : html`<p>${w.nothingToManage}</p>\n`
  }<p><a href="${view.returnUrl}">${w.backToBilling}</a></p>
`;
}

/** The query parameter of the portal's GET that asks before a permanent action (`?ask=cancel`, `?ask=end_now`). */
export const ASK_PARAM = 'ask';
/** The portal's actions that ask first. */
export const ASKED_ACTIONS: readonly LocalPortalAction[] = ['cancel', 'end_now'];

/** The local portal's page that asks before cancelling at period end or ending now (the POST form confirms it). */
export function localPortalConfirmContent(view: LocalPortalView & { action: 'cancel' | 'end_now' }): Html {
  const { language, record } = view;
  const w = BILLING_WORDS[language];
  const plan = w.planNames[record?.plan ?? 'pro'];
  const periodEnd = record?.periodEnd !== undefined ? day(language, record.periodEnd) : '';
  return html`${testBanner(language)}${confirmationContent({
    question: view.action === 'cancel' ? w.cancelQuestion(plan) : w.endQuestion(plan),
    consequence: view.action === 'cancel' ? w.cancelConsequence(periodEnd) : w.endConsequence,
    action: BILLING_PATHS.localPortal,
    fields: { action: view.action, return: view.returnUrl },
    confirmLabel: view.action === 'cancel' ? w.cancelAtPeriodEnd : w.endConfirm,
    back: { href: `${BILLING_PATHS.localPortal}?return=${encodeURIComponent(view.returnUrl)}`, label: w.keepSubscription },
    csrf: view.csrf,
  })}`;
}
