// The dashboard's vocabulary: a route (one entry of dashboardRoutes.ts), the request a handler sees, the context it
// works with, and the reply it gives. The surface (dashboardSurface.ts) does everything around a handler: matching,
// the bounded body, content type, cookies, the session, CSRF, language, headers; a handler only decides.
import type { CurrentUsage } from '../access/quota.js';
import type { Account, AccountStore } from '../accounts/accountStore.js';
import type { IdentityStore, Session } from '../accounts/identityStore.js';
import type { PasskeyStore } from '../accounts/passkeyStore.js';
import type { Plans } from '../accounts/plans.js';
import type { SiteLanguage } from '../links.js';
import type { AssetName } from '../web/assets.js';
import type { Html } from '../web/html.js';
import type { Mailer } from './mail/mailer.js';
import type { BillingServices } from './billing/billingServices.js';

export type DashboardMethod = 'GET' | 'POST';

/**
 * How a POST body is read: `form` (application/x-www-form-urlencoded, up to 16 KiB), `json` (application/json, up to
 * 64 KiB: WebAuthn), `raw` (any type, up to 1 MiB, bytes as sent: webhooks, whose signature covers the raw body).
 */
export type BodyKind = 'none' | 'form' | 'json' | 'raw';

export const BODY_LIMITS: Readonly<Record<BodyKind, number>> = { none: 0, form: 16 * 1024, json: 64 * 1024, raw: 1024 * 1024 };

/**
 * Which CSRF check a POST gets: `session` (the session's form token in the field `csrf`, and a same-origin `Origin`
 * or `Sec-Fetch-Site: same-origin`), `signin` (the same with the token of the pre-session `__Host-signin` cookie, for
 * the sign-in forms), `none` (webhooks only: their signature is their check). GET routes are never checked: they
 * change nothing.
 */
export type CsrfCheck = 'session' | 'signin' | 'none';

export interface DashboardRoute {
  method: DashboardMethod;
  /** `/dashboard/keys`, or with `:name` segments (`/dashboard/keys/:id/revoke`), which land in `request.params`. */
  path: string;
  /** Needs a session: without one, a GET is sent to the sign-in page, a POST refused (403). */
  session: boolean;
  csrf: CsrfCheck;
  body: BodyKind;
  handler: DashboardHandler;
}

export type DashboardHandler = (request: DashboardRequest, context: DashboardContext) => DashboardReply | Promise<DashboardReply>;

export interface DashboardRequest {
  method: DashboardMethod;
  /** The path without the query. */
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The form fields of a `form` body (empty otherwise). */
  form: URLSearchParams;
  /** The parsed value of a `json` body. */
  json?: unknown;
  /** The bytes of a `raw` body. */
  raw?: Buffer;
  /** The headers the surface reads (lower-case names, '' when absent): see DASHBOARD_HEADERS. */
  headers: Readonly<Record<string, string>>;
  cookies: ReadonlyMap<string, string>;
  /** The client's address: the connection's peer, or behind a trusted proxy (TRUST_PROXY) the one it forwards (edge/clientAddress.ts). */
  clientAddress: string;
  requestId: string;
}

/** The services a handler may use; one set per serving thread. Other parts of the dashboard add theirs here. */
export interface DashboardServices {
  accounts: AccountStore;
  identity: IdentityStore;
  mailer: Mailer;
  plans: Plans;
  /** The public base URL (PUBLIC_BASE_URL, or http://localhost:<port>): links in mail. */
  publicBaseUrl(): string;
  /** Origins a state-changing request may come from (PUBLIC_BASE_URL's, or the server's own). */
  allowedOrigins(): readonly string[];
  now(): number;
  /** How long a sign-in code and link work (SIGN_IN_TTL_MS; SIGN_IN_TTL_SECONDS for tests only). */
  signInTtlMs: number;
  /** This minute's and this month's counts of an account, read without counting (usage page); absent when access control is off. */
  currentUsage?(account: Account, now: number): CurrentUsage | Promise<CurrentUsage>;
  /** Passkeys: credentials and WebAuthn challenges (passkeys/). */
  passkeys: PasskeyStore;
  /** Billing: store, provider (BILLING_PROVIDER), the local test provider; its routes answer 404 without it. */
  billing?: BillingServices;
}

export interface DashboardContext {
  services: DashboardServices;
  language: SiteLanguage;
  /** The signed-in account and its session, when there is one (always, on routes that need one). */
  account?: Account;
  session?: { tokenHash: string; data: Session };
  /**
   * The value for the hidden `csrf` field of this page's forms: the session's token when signed in, else the
   * `__Host-signin` cookie's (the surface sets that cookie when a page needs it).
   */
  csrfToken: string;
  /** The token for the sign-in forms (`csrf: 'signin'` routes), from the `__Host-signin` cookie. */
  signinCsrfToken: string;
  /** The `__Host-signin` cookie's value (set by the surface when absent). */
  signinCookie: string;
  /** Renders a page in the dashboard's frame (language, navigation, switch link, noindex). */
  page(frame: PageFrame): Html;
}

export interface PageFrame {
  title: string;
  main: Html;
  /** Scripts of server/web/assets/ the page loads (deferred, in this order); none by default. */
  scripts?: readonly AssetName[];
}

export interface DashboardReply {
  status: number;
  /** An HTML page (Html) or text; none for a redirect. */
  body?: Html | string;
  /** Defaults to HTML. */
  contentType?: string;
  /** With 303 (after a POST) or 302. */
  location?: string;
  /** Set-Cookie values (see cookies.ts). */
  cookies?: readonly string[];
  headers?: Readonly<Record<string, string>>;
  /** The error code for the log line. */
  code?: string;
}
