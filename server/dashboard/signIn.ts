// Sign-in by e-mail (contract, "Developer dashboard"): the address form, sending a code and a link, the code form
// (only the browser that asked can use the code: its `__Host-signin` cookie is bound to the request), and the link's
// confirmation page, whose GET consumes nothing (mail scanners fetch links) and whose POST signs in. The answer to a
// send is the same whether or not the address has an account; a new address gets a trial account on first sign-in.
import { emailKey } from '../accounts/emailAddress.js';
import { newSignIn, randomToken, SESSION_TTL_MS, sha256, type SignInRefusal } from '../accounts/identityStore.js';
import { log } from '../log.js';
import { html, type Html } from '../web/html.js';
import { clearSigninCookie, isToken, SESSION_COOKIE, sessionCookie } from './cookies.js';
import { CSRF_FIELD } from './csrf.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';
import type { DashboardContext, DashboardReply, DashboardRequest } from './dashboardTypes.js';
import { DASHBOARD_WORDS, type DashboardWords } from './dashboardWords.js';
import { signInMessage } from './mail/signInMessage.js';
import { landingPath, NEXT_FIELD, safeNext, withNext } from './nextPath.js';
import { PASSKEY_SCRIPTS, passkeySignInBlock } from './passkeys/passkeyPages.js';

const HOUR_MS = 3_600_000;
/** Sends a browser may ask for one address in an hour. */
export const SENDS_PER_ADDRESS_PER_HOUR = 5;
/** Sends one client address (the connection's, or X-Forwarded-For from a TRUST_PROXY proxy) may ask for in an hour. */
export const SENDS_PER_CLIENT_PER_HOUR = 20;

const MAX_EMAIL_LENGTH = 254;

/**
 * A plausible address as typed, trimmed (mail goes to it, pages show it), and its key (emailAddress.ts: what accounts
 * and the per-address send limit go by); undefined when it is not one.
 */
export function plausibleEmail(input: string): { address: string; key: string } | undefined {
  const address = input.trim();
  if (address.length > MAX_EMAIL_LENGTH) return undefined;
  if (!/^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/.test(address)) return undefined;
  const key = emailKey(address);
  return key === undefined ? undefined : { address, key };
}

const notice = (text: string | undefined): Html | undefined => text === undefined ? undefined : html`<p class="note" role="alert">${text}</p>\n`;

const csrfField = (context: DashboardContext): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${context.signinCsrfToken}">`;

/** The page to land on after signing in, carried by each sign-in form (nextPath.ts). */
const nextField = (next: string | undefined): Html | undefined => next === undefined ? undefined : html`\n<input type="hidden" name="${NEXT_FIELD}" value="${next}">`;

// A text field with the e-mail keyboard, not type="email": browsers refuse a local part that is not ASCII there
// (`ÇAĞRI@örnek.com.tr` could not be sent) and rewrite an IDN domain to punycode; the server checks the address.
function emailForm(context: DashboardContext, w: DashboardWords, value = '', next?: string): Html {
  return html`<form class="choose" method="post" action="${DASHBOARD_PATHS.signInEmail}">
${csrfField(context)}${nextField(next)}
<label for="email">${w.emailLabel}</label>
<input id="email" name="email" type="text" inputmode="email" autocomplete="email" autocapitalize="off" spellcheck="false" required maxlength="${MAX_EMAIL_LENGTH}" value="${value}">
<button type="submit">${w.sendCode}</button>
</form>`;
}

/** The sign-in page: the address form, and signing in with a passkey; `next`, the page to land on after it. */
export function renderSignIn(context: DashboardContext, status = 200, message?: string, value?: string, extra: { next?: string; signedOut?: boolean } = {}): DashboardReply {
  const w = DASHBOARD_WORDS[context.language];
  const main = html`<h1>${w.signInTitle}</h1>
${extra.signedOut && html`<p class="note" role="status">${w.signedOutNotice}</p>\n`}${notice(message)}<p class="lede">${w.signInLede}</p>
${emailForm(context, w, value, extra.next)}
<p>${w.newHere}</p>
${passkeySignInBlock(context, extra.next)}`;
  return { status, body: context.page({ title: w.signInTitle, main, scripts: PASSKEY_SCRIPTS }) };
}

/** The code form, after a send (naming the address) or after a refused code. */
function renderCodeForm(context: DashboardContext, status: number, options: { email?: string; message?: string; next?: string }): DashboardReply {
  const w = DASHBOARD_WORDS[context.language];
  const minutes = Math.max(1, Math.round(context.services.signInTtlMs / 60_000));
  const main = html`<h1>${w.checkMailTitle}</h1>
${notice(options.message)}${options.email !== undefined && html`<p class="lede">${w.checkMail(options.email, minutes)}</p>\n`}<form class="choose" method="post" action="${DASHBOARD_PATHS.signInCode}">
${csrfField(context)}${nextField(options.next)}
<label for="code">${w.codeLabel}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
<button type="submit">${w.signIn}</button>
</form>
<p>${w.orLink}</p>
<p><a href="${withNext(DASHBOARD_PATHS.signIn, options.next)}">${w.anotherAddress}</a></p>`;
  return { status, body: context.page({ title: w.checkMailTitle, main }) };
}

/** A refused code or link: the message, and the way to ask again. */
function renderRefused(context: DashboardContext, message: string, next?: string): DashboardReply {
  const w = DASHBOARD_WORDS[context.language];
  const main = html`<h1>${w.signInTitle}</h1>
${notice(message)}${emailForm(context, w, '', next)}`;
  return { status: 400, body: context.page({ title: w.signInTitle, main }) };
}

/** The query parameter of the page sign-out lands on, for its notice. */
export const SIGNED_OUT_PARAM = 'signed-out';

/**
 * GET /dashboard/sign-in (signed in or not: signing in again, or as someone else, rotates the session);
 * `?next=` the dashboard page to land on, `?signed-out=1` after signing out.
 */
export function signInPage(request: DashboardRequest, context: DashboardContext): DashboardReply {
  return renderSignIn(context, 200, undefined, undefined, { next: safeNext(request.query.get(NEXT_FIELD)), signedOut: request.query.get(SIGNED_OUT_PARAM) === '1' });
}

/** POST /dashboard/sign-in/email: the same answer for every plausible address, known or not. */
export async function sendCode(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = DASHBOARD_WORDS[context.language];
  const given = request.form.get('email') ?? '';
  const next = safeNext(request.form.get(NEXT_FIELD));
  const plausible = plausibleEmail(given);
  if (!plausible) return renderSignIn(context, 400, w.badEmail, given.slice(0, MAX_EMAIL_LENGTH), { next });
  const email = plausible.address;
  const { identity, mailer } = context.services;
  const now = context.services.now();
  // Both limits in one step: a send refused for its address costs its client nothing.
  const allowed = await identity.hit(
    [
      { key: `send:address:${sha256(plausible.key)}`, limit: SENDS_PER_ADDRESS_PER_HOUR },
      { key: `send:client:${request.clientAddress}`, limit: SENDS_PER_CLIENT_PER_HOUR },
    ],
    HOUR_MS,
    now,
  );
  if (!allowed) {
    log('warn', 'dashboard_send_limited', { requestId: request.requestId, client: request.clientAddress });
    return { ...renderCodeForm(context, 429, { email, message: w.sendLimited, next }), code: 'send_limited' };
  }
  const { code, linkToken, input } = newSignIn(email, context.signinCookie, now, context.services.signInTtlMs);
  await identity.createSignIn(input);
  // The link keeps the page asked for too (a path of the dashboard, nothing secret).
  const link = withNext(`${context.services.publicBaseUrl()}${DASHBOARD_PATHS.signInLink}?token=${linkToken}`, next);
  try {
    await mailer.send(signInMessage(context.language, email, code, link, context.services.signInTtlMs));
  } catch (error) {
    log('error', 'dashboard_mail_failed', { requestId: request.requestId, error: String(error) });
    return { ...renderCodeForm(context, 503, { message: w.mailFailed, next }), code: 'mail_failed' };
  }
  return renderCodeForm(context, 200, { email, next });
}

function refusalText(w: DashboardWords, reason: SignInRefusal, attemptsLeft: number | undefined, kind: 'code' | 'link'): string {
  switch (reason) {
    case 'none':
      return kind === 'code' ? w.noPendingCode : w.linkNone;
    case 'expired':
      return kind === 'code' ? w.codeExpired : w.linkExpired;
    case 'used':
      return kind === 'code' ? w.codeUsed : w.linkUsed;
    case 'locked':
      return kind === 'code' ? w.codeLocked : w.linkLocked;
    case 'wrong':
      return w.wrongCode(attemptsLeft ?? 0);
  }
}

/**
 * A new session for an account that just proved itself (by code, link or passkey): the browser's previous session
 * ends (the token rotates at every sign-in), and the cookies to send: the new session's, and the pre-session cookie
 * cleared.
 */
export async function openSession(accountId: string, request: DashboardRequest, context: DashboardContext, how: 'code' | 'link' | 'passkey', newAccount = false): Promise<string[]> {
  const { identity } = context.services;
  const now = context.services.now();
  const previous = request.cookies.get(SESSION_COOKIE);
  if (isToken(previous)) await identity.endSession(sha256(previous));
  const token = randomToken();
  await identity.createSession(sha256(token), { accountId, createdAt: now, expiresAt: now + SESSION_TTL_MS, csrfSecret: randomToken() });
  log('info', 'dashboard_signed_in', { requestId: request.requestId, accountId, newAccount, how });
  return [sessionCookie(token, SESSION_TTL_MS / 1000), clearSigninCookie()];
}

/** A sign-in by e-mail that succeeded: the account (a trial one for a new address), a new session, the page asked for. */
async function startSession(email: string, request: DashboardRequest, context: DashboardContext, how: 'code' | 'link', next: string | undefined): Promise<DashboardReply> {
  const { account, newAccount } = await context.services.accounts.ensureAccount(email);
  return { status: 303, location: landingPath(next), cookies: await openSession(account.id, request, context, how, newAccount) };
}

/** POST /dashboard/sign-in/code: the code of the request this browser made. */
export async function redeemCode(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = DASHBOARD_WORDS[context.language];
  const next = safeNext(request.form.get(NEXT_FIELD));
  const code = (request.form.get('code') ?? '').replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(code)) return renderCodeForm(context, 400, { message: w.badCode, next });
  const result = await context.services.identity.redeemCode(sha256(context.signinCookie), code, context.services.now());
  if (result.ok) return startSession(result.email, request, context, 'code', next);
  const message = refusalText(w, result.reason, result.attemptsLeft, 'code');
  if (result.reason === 'wrong' && (result.attemptsLeft ?? 0) > 0) return { ...renderCodeForm(context, 400, { message, next }), code: 'wrong_code' };
  return { ...renderRefused(context, message, next), code: `code_${result.reason}` };
}

/** GET /dashboard/sign-in/link?token=…: a confirmation page; reads the request, changes nothing. */
export async function confirmLinkPage(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = DASHBOARD_WORDS[context.language];
  const token = request.query.get('token') ?? '';
  const next = safeNext(request.query.get(NEXT_FIELD));
  const state = isToken(token) ? await context.services.identity.peekLink(sha256(token), context.services.now()) : { state: 'none' as const };
  if (state.state !== 'valid') return { ...renderRefused(context, refusalText(w, state.state, undefined, 'link'), next), code: `link_${state.state}` };
  const main = html`<h1>${w.linkTitle(state.email)}</h1>
<p class="lede">${w.linkLede}</p>
<form class="choose" method="post" action="${DASHBOARD_PATHS.signInLink}">
${csrfField(context)}${nextField(next)}
<input type="hidden" name="token" value="${token}">
<button type="submit">${w.signIn}</button>
</form>`;
  return { status: 200, body: context.page({ title: w.signInTitle, main }) };
}

/** POST /dashboard/sign-in/link: signs in the browser that confirmed, once. */
export async function redeemLink(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const w = DASHBOARD_WORDS[context.language];
  const token = request.form.get('token') ?? '';
  const next = safeNext(request.form.get(NEXT_FIELD));
  const result = isToken(token) ? await context.services.identity.redeemLink(sha256(token), context.services.now()) : ({ ok: false, reason: 'none' } as const);
  if (result.ok) return startSession(result.email, request, context, 'link', next);
  return { ...renderRefused(context, refusalText(w, result.reason, undefined, 'link'), next), code: `link_${result.reason}` };
}
