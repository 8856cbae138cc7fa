// /pricing: the plans from the table the limits use (ctx.plans, PLANS_FILE applied), so the page says what a 429
// will say, and the prices the billing page and the checkout say.
import { PLAN_NAMES, usdAmount, type Plan, type PlanName, type Plans } from '../accounts/plans.js';
import { AUTHENTICATION_DOCS_PATH, DASHBOARD_ENTRY, DASHBOARD_PATH, DOCS_PATH, ERRORS_DOCS_PATH, LANGUAGE_HOME_PATH, MCP_DOCS_PATH, PRICING_PATH } from '../links.js';
import { docsPage } from './docsFrame.js';
import { html } from '../web/html.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { formatNumber, WORDS } from './words.js';

export const PLAN_TITLES: Readonly<Record<PlanName, { title: string; for: string }>> = {
  trial: { title: 'Trial', for: 'Every new account: try the API and build against it.' },
  pro: { title: 'Pro', for: 'An app or a site in production.' },
  business: { title: 'Business', for: 'High traffic and many places.' },
};

/** "1,000". */
export const limitText = (value: number): string => formatNumber(value, 'en');

/** "9 USD a month", or "Free, no card" for the trial. */
export const priceText = (plan: Plan): string => (plan.monthlyPriceUsd === 0 ? 'Free, no card' : `${usdAmount(plan.monthlyPriceUsd, 'en')} USD a month`);

function plansTable(plans: Plans) {
  return html`<table class="stack">
<caption>Plans, their prices and their limits</caption>
<thead><tr><th scope="col">Plan</th><th scope="col">Price</th><th scope="col">Requests per minute</th><th scope="col">Requests per month</th><th scope="col">For</th></tr></thead>
<tbody>
${PLAN_NAMES.map((name) => html`<tr id="${name}"><th scope="row">${PLAN_TITLES[name].title}</th><td data-label="Price">${priceText(plans[name])}</td><td data-label="Requests per minute">${limitText(plans[name].perMinute)}</td><td data-label="Requests per month">${limitText(plans[name].perMonth)}</td><td data-label="For">${PLAN_TITLES[name].for}</td></tr>\n`)}</tbody>
</table>`;
}

export function pricingPage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (request.path !== PRICING_PATH) return undefined;
  const main = html`<h1>Pricing</h1>
<p class="lede">Every plan has the whole API and the MCP server: all operations, methods and places. Plans differ in how many
requests they allow.</p>
${plansTable(ctx.plans)}
<p><a href="${DASHBOARD_PATH}">${DASHBOARD_ENTRY.en}</a>: a new account starts on the trial plan, and moves to another plan
from there. <a href="${DOCS_PATH}">Getting started</a> shows the first call.</p>
<h2 id="billing">Paying</h2>
<ul>
<li id="trial-ends">The trial does not end: it is free for as long as you use it, within its limits, and asks for no card.</li>
<li>Pro and Business are monthly subscriptions in US dollars, paid by card at the checkout the dashboard opens. A plan starts
when the payment is confirmed.</li>
<li>Cancel at any time from the dashboard: the plan stays to the end of the month paid for, then the account is on the trial
plan again, with its keys.</li>
</ul>
<h2 id="counting">How requests count</h2>
<ul>
<li>The limits are the account's, shared by all its keys.</li>
<li>Every API request with a valid key counts once, whatever its status, except one refused with 429.</li>
<li>MCP tool calls count like API requests: each <code>tools/call</code> once (<a href="${MCP_DOCS_PATH}">MCP server</a>);
listing the tools counts nothing.</li>
<li>The minute is a fixed 60-second window; the month is the calendar month in UTC.</li>
<li>Past a limit, the answer is 429 (<a href="${ERRORS_DOCS_PATH}#rate_limit_exceeded"><code>rate_limit_exceeded</code></a>,
<a href="${ERRORS_DOCS_PATH}#quota_exceeded"><code>quota_exceeded</code></a>) with <code>Retry-After</code>. Every answer says
where you stand in its <a href="${AUTHENTICATION_DOCS_PATH}#limits">rate-limit and quota headers</a>.</li>
</ul>`;
  return docsPage(request, {
    path: PRICING_PATH,
    title: 'Pricing',
    description: 'The Prayer Times API plans, trial, pro and business, with their prices and their requests per minute and per month.',
    crumbs: [
      { name: WORDS.en.home, path: LANGUAGE_HOME_PATH.en },
      { name: 'Pricing', path: PRICING_PATH },
    ],
    nav: false,
    main,
  });
}
