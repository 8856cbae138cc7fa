// The dashboard's cookies: reading the Cookie header, and the Set-Cookie values it sends. The session and the
// pre-session cookie carry the `__Host-` prefix: the browser keeps them only when Secure, with Path=/ and no Domain,
// so no other host (a subdomain) can set or overwrite them. Chromium accepts them on http://localhost too.

export const SESSION_COOKIE = '__Host-session';
/** Binds a sign-in (the code works only in the browser that asked) and carries the sign-in forms' CSRF token. */
export const SIGNIN_COOKIE = '__Host-signin';
export const LANGUAGE_COOKIE = 'lang';

/** The pre-session cookie lives a day: long enough for a sign-in, renewed by every sign-in page. */
const SIGNIN_MAX_AGE_S = 86_400;
const LANGUAGE_MAX_AGE_S = 365 * 86_400;

/** The cookies of a Cookie header; the first of two with one name wins, malformed pairs are skipped. */
export function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header.length > 8192) header = header.slice(0, 8192);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name !== '' && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

const hostCookie = (name: string, value: string, maxAgeSeconds: number): string =>
  `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; Secure; HttpOnly; SameSite=Lax`;

export const sessionCookie = (token: string, maxAgeSeconds: number): string => hostCookie(SESSION_COOKIE, token, maxAgeSeconds);
export const clearSessionCookie = (): string => hostCookie(SESSION_COOKIE, '', 0);
export const signinCookie = (value: string): string => hostCookie(SIGNIN_COOKIE, value, SIGNIN_MAX_AGE_S);
export const clearSigninCookie = (): string => hostCookie(SIGNIN_COOKIE, '', 0);
/** Not secret and read by no script: SameSite=Lax, Secure, HttpOnly all the same. */
export const languageCookie = (language: string): string =>
  `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${LANGUAGE_MAX_AGE_S}; Secure; HttpOnly; SameSite=Lax`;

/** Whether a cookie's value looks like one of our random tokens (base64url, 43 characters). */
export const isToken = (value: string | undefined): value is string => value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);
