// Where a sign-in lands: the dashboard page that was asked for (`next`), kept through the e-mail code, the link and
// the passkey sign-in. Only a path of the dashboard on this site is taken; anything else (another site `//evil`,
// `/\evil`, an absolute URL, a path outside /dashboard, dot segments, control characters) is ignored, so a link with
// `next` can never send a freshly signed-in browser elsewhere (an open redirect).
import { DASHBOARD_PATHS } from './dashboardPaths.js';

/** The form field and query parameter. */
export const NEXT_FIELD = 'next';

const MAX_NEXT_LENGTH = 512;
/** A host that cannot be ours, to resolve the value against: anything that leaves it is not a path of this site. */
const PROBE = 'http://next.invalid';

/**
 * The dashboard path (with its query) a `next` value names, or undefined when it names anything else. The sign-in
 * pages themselves are not a destination (signing in lands on them again).
 */
export function safeNext(value: string | null | undefined): string | undefined {
  if (!value || value.length > MAX_NEXT_LENGTH) return undefined;
  // A path, written plainly: one leading slash, no backslash (browsers read `/\evil` as `//evil`), no control
  // character or space, no percent-encoded slash or backslash, no dot segment.
  if (!/^\/dashboard(?:[/?]|$)/.test(value)) return undefined;
  if (/[\\\s\u0000-\u001f\u007f]|\/\/|%2f|%5c|(?:^|\/)\.\.?(?:[/?#]|$)/i.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, PROBE);
  } catch {
    return undefined;
  }
  if (url.origin !== PROBE) return undefined;
  const path = url.pathname;
  if (path !== DASHBOARD_PATHS.home && !path.startsWith(`${DASHBOARD_PATHS.home}/`)) return undefined;
  if (path === DASHBOARD_PATHS.signIn || path.startsWith(`${DASHBOARD_PATHS.signIn}/`) || path === DASHBOARD_PATHS.signOut) return undefined;
  return `${path}${url.search}`;
}

/** Where to go after signing in: the page asked for, else the dashboard's home. */
export const landingPath = (value: string | null | undefined): string => safeNext(value) ?? DASHBOARD_PATHS.home;

/** `path` with `?next=` (or `&next=`) naming `next`, when there is a page to keep. */
export function withNext(path: string, next: string | undefined): string {
  if (next === undefined || next === DASHBOARD_PATHS.home) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${NEXT_FIELD}=${encodeURIComponent(next)}`;
}
