// Cross-site request forgery: every state-changing request is a POST that carries a form token in the field `csrf`
// AND comes from our own origin (Origin, or Sec-Fetch-Site: same-origin). The token of a session is an HMAC of a
// fixed label under the session's own secret; before a session exists, the sign-in forms carry a token derived from
// the `__Host-signin` cookie, which no other site can read or set.
import { createHash, createHmac } from 'node:crypto';
import { sameSecret } from '../accounts/identityStore.js';

export const CSRF_FIELD = 'csrf';

export const sessionFormToken = (csrfSecret: string): string => createHmac('sha256', csrfSecret).update('dashboard-form').digest('base64url');

export const signinFormToken = (signinCookie: string): string => createHash('sha256').update(`signin-form:${signinCookie}`).digest('base64url');

export const tokenMatches = (given: string | null, expected: string): boolean => given !== null && sameSecret(given, expected);

/**
 * Whether a POST comes from our own pages: its Origin is one of ours, or (a browser that sends no Origin)
 * Sec-Fetch-Site says same-origin. A request with neither is refused.
 */
export function sameOrigin(origin: string, secFetchSite: string, allowed: readonly string[]): boolean {
  if (origin !== '') return allowed.includes(origin.toLowerCase());
  return secFetchSite === 'same-origin';
}
