// The dashboard's home: the signed-in account (its e-mail and plan), the way to its keys, usage, billing and
// passkeys, and signing out. Without a session it is the sign-in page.
import { sha256 } from '../accounts/identityStore.js';
import { API_REFERENCE_PATH, DOCS_PATH } from '../links.js';
import { html } from '../web/html.js';
import { clearSessionCookie, isToken, SESSION_COOKIE } from './cookies.js';
import { CSRF_FIELD } from './csrf.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';
import type { DashboardContext, DashboardReply, DashboardRequest } from './dashboardTypes.js';
import { DASHBOARD_WORDS } from './dashboardWords.js';
import { renderSignIn, SIGNED_OUT_PARAM } from './signIn.js';

/** GET /dashboard */
export function homePage(_request: DashboardRequest, context: DashboardContext): DashboardReply {
  const account = context.account;
  if (!account) return renderSignIn(context);
  const w = DASHBOARD_WORDS[context.language];
  const limits = context.services.plans[account.plan];
  const number = (n: number): string => n.toLocaleString(context.language === 'tr' ? 'tr-TR' : 'en-GB');
  const main = html`<h1>${w.dashboard}</h1>
<h2>${w.account}</h2>
<dl class="facts">
<dt>${w.email}</dt><dd>${account.email}</dd>
<dt>${w.plan}</dt><dd>${w.planNames[account.plan]} (${w.planLimits(number(limits.perMinute), number(limits.perMonth))})</dd>
</dl>
<ul class="list">
<li><a href="${DASHBOARD_PATHS.keys}">${w.nav.keys}</a></li>
<li><a href="${DASHBOARD_PATHS.usage}">${w.nav.usage}</a></li>
<li><a href="${DASHBOARD_PATHS.billing}">${w.nav.billing}</a></li>
<li><a href="${DASHBOARD_PATHS.passkeys}">${w.nav.passkeys}</a></li>
<li><a href="${DOCS_PATH}">${w.gettingStarted}</a></li>
<li><a href="${API_REFERENCE_PATH}">${w.apiReference}</a></li>
</ul>
<form method="post" action="${DASHBOARD_PATHS.signOut}">
<input type="hidden" name="${CSRF_FIELD}" value="${context.csrfToken}">
<button type="submit">${w.signOut}</button>
</form>`;
  return { status: 200, body: context.page({ title: w.dashboard, main }) };
}

/** POST /dashboard/sign-out: the session ends on the server, and its cookie is removed. */
export async function signOut(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  if (context.session) await context.services.identity.endSession(context.session.tokenHash);
  const token = request.cookies.get(SESSION_COOKIE);
  if (isToken(token)) await context.services.identity.endSession(sha256(token));
  // The sign-in page says so ("You are signed out").
  return { status: 303, location: `${DASHBOARD_PATHS.signIn}?${SIGNED_OUT_PARAM}=1`, cookies: [clearSessionCookie()] };
}
