// Every dashboard route, in one table: method, path, whether it needs a session, its CSRF check, its body kind and
// its handler. Adding a page or a form is one entry here and one module beside it; the surface (dashboardSurface.ts)
// does the matching, body reading and checks for every route alike. Rules (checked when the table is compiled): every
// POST is CSRF-checked (`session`, or `signin` for the forms used before a session exists), except raw-body webhooks.
import type { DashboardRoute } from './dashboardTypes.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';
import { homePage, signOut } from './home.js';
import { createKey, keysList, revokeKey, revokeKeyPage, usageOverview } from './keysAndUsage.js';
import { keySettings, saveKeySettings } from './keySettings.js';
import { BILLING_ROUTES } from './billing/billingRoutes.js';
import { PASSKEY_ROUTES } from './passkeys/passkeyRoutes.js';
import { confirmLinkPage, signInPage, redeemCode, redeemLink, sendCode } from './signIn.js';

export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [
  // Home: the account, or the sign-in page without a session (the handler decides, so `session: false`).
  { method: 'GET', path: DASHBOARD_PATHS.home, session: false, csrf: 'none', body: 'none', handler: homePage },
  { method: 'POST', path: DASHBOARD_PATHS.signOut, session: true, csrf: 'session', body: 'form', handler: signOut },

  // Sign-in by e-mail (signIn.ts).
  { method: 'GET', path: DASHBOARD_PATHS.signIn, session: false, csrf: 'none', body: 'none', handler: signInPage },
  { method: 'POST', path: DASHBOARD_PATHS.signInEmail, session: false, csrf: 'signin', body: 'form', handler: sendCode },
  { method: 'POST', path: DASHBOARD_PATHS.signInCode, session: false, csrf: 'signin', body: 'form', handler: redeemCode },
  { method: 'GET', path: DASHBOARD_PATHS.signInLink, session: false, csrf: 'none', body: 'none', handler: confirmLinkPage },
  { method: 'POST', path: DASHBOARD_PATHS.signInLink, session: false, csrf: 'signin', body: 'form', handler: redeemLink },

  // Keys and usage (keysAndUsage.ts; the pages in keysPage.ts, usagePage.ts, usageChart.ts).
  { method: 'GET', path: DASHBOARD_PATHS.keys, session: true, csrf: 'none', body: 'none', handler: keysList },
  { method: 'POST', path: DASHBOARD_PATHS.keys, session: true, csrf: 'session', body: 'form', handler: createKey },
  // Revoking asks first: the GET is the confirmation page, whose form POSTs with the confirmation (confirmPage.ts).
  { method: 'GET', path: `${DASHBOARD_PATHS.keys}/:id/revoke`, session: true, csrf: 'none', body: 'none', handler: revokeKeyPage },
  { method: 'POST', path: `${DASHBOARD_PATHS.keys}/:id/revoke`, session: true, csrf: 'session', body: 'form', handler: revokeKey },
  { method: 'GET', path: DASHBOARD_PATHS.usage, session: true, csrf: 'none', body: 'none', handler: usageOverview },
  // A key's settings: its name and restrictions (keySettings.ts, keySettingsPage.ts).
  { method: 'GET', path: `${DASHBOARD_PATHS.keys}/:id`, session: true, csrf: 'none', body: 'none', handler: keySettings },
  { method: 'POST', path: `${DASHBOARD_PATHS.keys}/:id`, session: true, csrf: 'session', body: 'form', handler: saveKeySettings },

  // Passkeys (server/dashboard/passkeys/passkeyRoutes.ts): the page /dashboard/passkeys, registering (`json` bodies, the
  // CSRF token in X-CSRF-Token), removing (a form), and signing in with one under /dashboard/sign-in/passkey.
  ...PASSKEY_ROUTES,

  // Billing (server/dashboard/billing/billingRoutes.ts): /dashboard/billing, /dashboard/billing/checkout,
  // /dashboard/billing/portal, the local test provider's checkout and portal pages, and the provider's webhook, the one
  // route without CSRF (its signature is the check; body `raw`, up to 1 MiB): POST /webhooks/billing.
  ...BILLING_ROUTES,
];
