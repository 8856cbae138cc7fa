// The handlers of a key's settings page (routes in dashboardRoutes.ts; the surface checks the session, and CSRF on
// the POST, first): show the name and restrictions of one of the signed-in account's keys, and save them. The lists
// are read here, at write time (keyRestrictions.ts), so the request path only compares.
import type { KeyRecord } from '../accounts/accountStore.js';
import { keyIdOf, normalizeKeyName } from '../accounts/keys.js';
import { parseOrigins, parseRanges } from '../accounts/keyRestrictions.js';
import type { DashboardContext, DashboardReply, DashboardRequest } from './dashboardTypes.js';
import { keySettingsPage, SETTINGS_FIELDS, SETTINGS_WORDS, type KeySettingsOptions } from './keySettingsPage.js';
import { keyNotFoundPage, keySettingsPath, keyView, type PageContent } from './keysPage.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';

/** Query parameter of the redirect after a save. */
const SAVED_PARAM = 'saved';
/** The longest text of a list field kept to show again (the form body is 16 KiB at most anyway). */
const MAX_FIELD_TEXT = 4000;

const page = (context: DashboardContext, status: number, content: PageContent): DashboardReply => ({ status, body: context.page(content) });

/** The signed-in account's key of the URL's id, or undefined (a malformed id, another account's key, none). */
function ownKey(request: DashboardRequest, context: DashboardContext): KeyRecord | undefined {
  const id = request.params.id ?? '';
  if (!/^[0-9a-f]{16}$/.test(id)) return undefined;
  return context.services.accounts.keysOf(context.account!.id).find((k) => keyIdOf(k.hash) === id);
}

const notFound = (context: DashboardContext): DashboardReply => ({ ...page(context, 404, keyNotFoundPage(context.language)), code: 'key_not_found' });

function settingsReply(context: DashboardContext, status: number, record: KeyRecord, rest: Pick<KeySettingsOptions, 'values' | 'errors' | 'saved'>): DashboardReply {
  const key = keyView(record);
  const usageHref = `${DASHBOARD_PATHS.usage}?key=${key.id}`;
  return page(context, status, keySettingsPage({ language: context.language, key, csrf: context.csrfToken, usageHref, ...rest }));
}

/** GET /dashboard/keys/:id */
export function keySettings(request: DashboardRequest, context: DashboardContext): DashboardReply {
  const record = ownKey(request, context);
  if (!record) return notFound(context);
  const values = { name: record.name, origins: (record.allowedOrigins ?? []).join('\n'), ranges: (record.allowedRanges ?? []).join('\n') };
  return settingsReply(context, 200, record, { values, saved: request.query.get(SAVED_PARAM) === '1' });
}

/** POST /dashboard/keys/:id (fields name, origins, ranges): saved and back to the page (303), or 400 with the problems. */
export async function saveKeySettings(request: DashboardRequest, context: DashboardContext): Promise<DashboardReply> {
  const record = ownKey(request, context);
  if (!record) return notFound(context);
  const w = SETTINGS_WORDS[context.language];
  const values = {
    name: (request.form.get(SETTINGS_FIELDS.name) ?? '').slice(0, MAX_FIELD_TEXT),
    origins: (request.form.get(SETTINGS_FIELDS.origins) ?? '').slice(0, MAX_FIELD_TEXT),
    ranges: (request.form.get(SETTINGS_FIELDS.ranges) ?? '').slice(0, MAX_FIELD_TEXT),
  };
  const name = normalizeKeyName(values.name);
  const origins = parseOrigins(values.origins);
  const ranges = parseRanges(values.ranges);
  const errors: KeySettingsOptions['errors'] = {};
  if (name === undefined) errors.name = w.nameMissing;
  if ('problem' in origins) errors.origins = w.problem(origins.problem);
  if ('problem' in ranges) errors.ranges = w.problem(ranges.problem);
  if (name === undefined || 'problem' in origins || 'problem' in ranges) {
    return { ...settingsReply(context, 400, record, { values, errors }), code: 'key_settings_invalid' };
  }
  const updated = await context.services.accounts.updateKeyOf(context.account!.id, record.hash, { name, allowedOrigins: origins.ok, allowedRanges: ranges.ok });
  if (!updated) return notFound(context);
  return { status: 303, location: `${keySettingsPath(keyIdOf(record.hash))}?${SAVED_PARAM}=1`, code: 'key_settings_saved' };
}
