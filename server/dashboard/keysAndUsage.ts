// The handlers of the keys and usage pages (routes in dashboardRoutes.ts; the surface checks the session, and CSRF
// on the POSTs, before any of them runs). The pages themselves are pure (keysPage.ts, usagePage.ts).
import { currentUsage } from '../access/quota.js';
import { keyIdOf, normalizeKeyName, utcDay } from '../accounts/keys.js';
import type { DashboardContext, DashboardReply, DashboardRequest } from './dashboardTypes.js';
import { confirmed } from './confirmPage.js';
import { createdKeyPage, keyNotFoundPage, keysPage, keyView, KEYS_PATH, KEYS_WORDS, NAME_FIELD, revokeConfirmPage, revokePath, type PageContent } from './keysPage.js';
import { formatCount, usagePage, usageRange } from './usagePage.js';
import { KEY_PARAM, keyUsageSection } from './keyUsageSection.js';
import type { Html } from '../web/html.js';

const page = (context: DashboardContext, status: number, content: PageContent): DashboardReply => ({ status, body: context.page(content) });

/** Query parameter of the redirect after a revocation: the revoked key's id, for the notice. */
const REVOKED_PARAM = 'revoked';

function listPage(context: DashboardContext, status: number, extra: { notice?: string; nameError?: string; nameValue?: string } = {}): DashboardReply {
  const account = context.account!;
  const keys = context.services.accounts.keysOf(account.id).map(keyView);
  return page(context, status, keysPage({ language: context.language, keys, csrf: context.csrfToken, ...extra }));
}

/** GET /dashboard/keys */
export function keysList(request: DashboardRequest, context: DashboardContext): DashboardReply {
  const revoked = request.query.get(REVOKED_PARAM);
  let notice: string | undefined;
  if (revoked) {
    const record = context.services.accounts.keysOf(context.account!.id).find((k) => keyIdOf(k.hash) === revoked && k.revokedAt);
    if (record) {
      const view = keyView(record);
      notice = KEYS_WORDS[context.language].revokedNotice(view.name || KEYS_WORDS[context.language].unnamed, view.shown);
    }
  }
  return listPage(context, 200, { notice });
}

/** POST /dashboard/keys (field `name`): the new key, shown this once (the surface answers no-store). */
export async function createKey(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const given = request.form.get(NAME_FIELD) ?? '';
  const name = normalizeKeyName(given);
  if (name === undefined) return listPage(context, 400, { nameError: KEYS_WORDS[context.language].nameMissing, nameValue: given.slice(0, 200) });
  const { key, record } = await context.services.accounts.createKeyFor(context.account!.id, name);
  return { ...page(context, 200, createdKeyPage({ language: context.language, key, name: record.name, apiBase: context.services.publicBaseUrl() })), code: 'key_created' };
}

/** The signed-in account's key that `:id` names, if any. */
function keyOfRequest(request: DashboardRequest, context: DashboardContext) {
  const id = request.params.id ?? '';
  return /^[0-9a-f]{16}$/.test(id) ? context.services.accounts.keysOf(context.account!.id).find((k) => keyIdOf(k.hash) === id) : undefined;
}

/** GET /dashboard/keys/:id/revoke: asks first (confirmPage.ts); a key revoked already goes back to the list saying so. */
export function revokeKeyPage(request: DashboardRequest, context: DashboardContext): DashboardReply {
  const record = keyOfRequest(request, context);
  if (!record) return { ...page(context, 404, keyNotFoundPage(context.language)), code: 'key_not_found' };
  const key = keyView(record);
  if (record.revokedAt) return { status: 303, location: `${KEYS_PATH}?${REVOKED_PARAM}=${key.id}` };
  return page(context, 200, revokeConfirmPage({ language: context.language, key, csrf: context.csrfToken }));
}

/**
 * POST /dashboard/keys/:id/revoke: only a key of the signed-in account, and only from the page that asked (its
 * `confirm` field); then back to the list (303). Without the confirmation nothing changes: 303 to that page.
 */
export async function revokeKey(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const account = context.account!;
  const id = request.params.id ?? '';
  const record = keyOfRequest(request, context);
  if (!record) return { ...page(context, 404, keyNotFoundPage(context.language)), code: 'key_not_found' };
  if (!confirmed(request.form)) return { status: 303, location: revokePath(id), code: 'not_confirmed' };
  await context.services.accounts.revokeKeyOf(account.id, record.hash);
  return { status: 303, location: `${KEYS_PATH}?${REVOKED_PARAM}=${id}` };
}

/** GET /dashboard/usage */
export async function usageOverview(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const account = context.account!;
  const { services } = context;
  const now = services.now();
  // The serving thread's shared counts, read without counting; with access control off, nothing is counted.
  const current = (await services.currentUsage?.(account, now)) ?? currentUsage(undefined, services.plans[account.plan], now);
  const { fromDay, toDay } = usageRange(utcDay(now));
  const days = await services.accounts.dailyUsage(account.id, fromDay, toDay);
  const byKey = await keyUsageOf(request, context, fromDay, toDay);
  if (byKey === undefined) return { ...page(context, 404, keyNotFoundPage(context.language)), code: 'key_not_found' };
  return page(context, 200, usagePage({ language: context.language, plan: account.plan, current, days, byKey }));
}

/**
 * The usage page's section by key and operation (`?key=` one of the account's keys: that key, with its days);
 * undefined when `?key=` names no key of the account.
 */
async function keyUsageOf(request: DashboardRequest, context: DashboardContext, fromDay: string, toDay: string): Promise<Html | undefined> {
  const account = context.account!;
  const keys = context.services.accounts.keysOf(account.id).map(keyView);
  const asked = request.query.get(KEY_PARAM) ?? '';
  if (asked !== '' && !keys.some((k) => k.id === asked)) return undefined;
  const selected = asked === '' ? undefined : asked;
  const entries = await context.services.accounts.keyUsage(account.id, fromDay, toDay);
  const formatNumber = (n: number): string => formatCount(context.language, n);
  return keyUsageSection({ language: context.language, keys, entries, fromDay, toDay, selected, formatNumber });
}
