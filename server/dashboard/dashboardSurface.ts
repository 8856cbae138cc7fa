// The developer dashboard as a surface of the edge, on /dashboard, /dashboard/* and /webhooks/*. For every route of
// the table (dashboardRoutes.ts) it does the same things before the handler: the route (404 page, 405 with Allow), the
// body through the edge's bounded reader with the route's own bound (413 page) and content type (415), cookies, the
// language (?lang=, the `lang` cookie, Accept-Language), the session (`__Host-session`), the CSRF check of every POST
// (a form token and a same-origin Origin or Sec-Fetch-Site; 403 page), the pre-session cookie for the sign-in forms;
// and after it: no-store, the security headers, Set-Cookie lines. Bad input is a page with a message, never a 500;
// on `json` routes (the passkey scripts' endpoints) and under /webhooks (the providers') it is a JSON error
// `{ error: { code, message } }` instead (readerOf).
import { isRedisUnavailable } from '../accounts/redisConnection.js';
import type { EdgeRequest, Reply, Surface } from '../edge/edge.js';
import { clipped, headerBlock } from '../edge/edge.js';
import type { Account } from '../accounts/accountStore.js';
import { randomToken, sha256, type Session } from '../accounts/identityStore.js';
import type { SiteLanguage } from '../links.js';
import { log } from '../log.js';
import { html, Html } from '../web/html.js';
import { HTML_TYPE, SECURITY_HEADER_LINES } from '../web/securityHeaders.js';
import { isToken, LANGUAGE_COOKIE, languageCookie, parseCookies, SESSION_COOKIE, SIGNIN_COOKIE, signinCookie } from './cookies.js';
import { CSRF_FIELD, sameOrigin, sessionFormToken, signinFormToken, tokenMatches } from './csrf.js';
import { dashboardPage } from './dashboardFrame.js';
import { DASHBOARD_PATHS, WEBHOOKS_PREFIX } from './dashboardPaths.js';
import { DASHBOARD_ROUTES } from './dashboardRoutes.js';
import { BODY_LIMITS, type DashboardContext, type DashboardReply, type DashboardRequest, type DashboardRoute, type DashboardServices } from './dashboardTypes.js';
import { DASHBOARD_WORDS } from './dashboardWords.js';
import { safeNext, withNext } from './nextPath.js';
import { compileRoutes } from './routing.js';

/** The headers the dashboard reads (the edge reads them before the handler returns). */
export const DASHBOARD_HEADERS = [
  'cookie',
  'origin',
  'sec-fetch-site',
  'content-type',
  'content-length',
  'accept-language',
  'x-csrf-token',
  'stripe-signature',
] as const;

/** For `json` routes (WebAuthn), whose bodies have no form field: the CSRF token comes in this header. */
export const CSRF_HEADER = 'x-csrf-token';

const HEADERS = headerBlock([...SECURITY_HEADER_LINES, ['Cache-Control', 'no-store'], ['X-Robots-Tag', 'noindex, nofollow']]);
const LARGEST_BODY = Math.max(...Object.values(BODY_LIMITS));

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Who reads a refusal: a person (a page), the passkey script of a page (`json` routes: a JSON error in the page's
 * language, which it shows), or a payment provider (under /webhooks: a JSON error in English, whatever the route).
 */
type Reader = 'page' | 'script' | 'provider';
const readerOf = (url: string, route: DashboardRoute | undefined): Reader =>
  url === WEBHOOKS_PREFIX || url.startsWith(`${WEBHOOKS_PREFIX}/`) ? 'provider' : route?.body === 'json' ? 'script' : 'page';

/** The surface's own refusals as a provider reads them. */
const PROVIDER_TEXTS = {
  notFound: 'There is no webhook at this address.',
  methodNotAllowed: 'A webhook takes POST only.',
  tooLarge: `A webhook's body may be at most ${BODY_LIMITS.raw} bytes.`,
} as const;

const CONTENT_TYPES: Readonly<Record<'form' | 'json', string>> = {
  form: 'application/x-www-form-urlencoded',
  json: 'application/json',
};

/** The language: `?lang=`, else the `lang` cookie, else the first of tr/en in Accept-Language, else English. */
export function chooseLanguage(query: URLSearchParams, cookies: ReadonlyMap<string, string>, acceptLanguage: string): { language: SiteLanguage; chosen: boolean } {
  const asked = query.get('lang');
  if (asked === 'tr' || asked === 'en') return { language: asked, chosen: true };
  const kept = cookies.get(LANGUAGE_COOKIE);
  if (kept === 'tr' || kept === 'en') return { language: kept, chosen: false };
  let best: { language: SiteLanguage; q: number } | undefined;
  for (const part of acceptLanguage.slice(0, 1000).split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const primary = tag.split('-')[0];
    if (primary !== 'tr' && primary !== 'en') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { language: primary, q };
  }
  return { language: best?.language ?? 'en', chosen: false };
}

export interface DashboardSurface extends Surface {
  /** Stops the purge timer (the stores belong to the caller). */
  close(): void;
}

const PURGE_MS = 3_600_000;

export function dashboardSurface(services: DashboardServices): DashboardSurface {
  const route = compileRoutes(DASHBOARD_ROUTES);

  const purge = setInterval(() => {
    const purged = async (): Promise<void> => {
      await services.identity.purgeExpired(services.now());
      await services.passkeys.purgeExpired(services.now());
    };
    purged().catch((error: unknown) => log('error', 'dashboard_purge_failed', { error: String(error) }));
  }, PURGE_MS).unref();

  function toReply(reply: DashboardReply, cookies: readonly string[]): Reply {
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.location) headers.Location = reply.location;
    // The handler's cookies win over the surface's (a sign-in clears the pre-session cookie the surface might set).
    const own = new Set((reply.cookies ?? []).map((c) => c.slice(0, c.indexOf('='))));
    const all = [...cookies.filter((c) => !own.has(c.slice(0, c.indexOf('=')))), ...(reply.cookies ?? [])];
    const body = reply.body === undefined ? '' : reply.body instanceof Html ? reply.body.text : reply.body;
    return {
      status: reply.status,
      body,
      headerBlock: HEADERS,
      contentType: reply.body === undefined ? undefined : (reply.contentType ?? HTML_TYPE),
      headers,
      extraBlock: all.length > 0 ? headerBlock(all.map((c) => ['Set-Cookie', c] as const)) : undefined,
      code: reply.code,
    };
  }

  /** A page with a title and a message, for refusals the surface itself gives. */
  function messageReply(language: SiteLanguage, status: number, title: string, text: string, extra?: { headers?: Record<string, string>; code?: string; link?: [string, string] }): Reply {
    const w = DASHBOARD_WORDS[language];
    const main = html`<h1>${title}</h1>
<p class="lede">${text}</p>
${extra?.link ? html`<p><a href="${extra.link[0]}">${extra.link[1]}</a></p>` : html`<p><a href="${DASHBOARD_PATHS.home}">${w.dashboard}</a></p>`}`;
    const body = dashboardPage({ language, title, main, signedIn: false, otherLanguageHref: `${DASHBOARD_PATHS.home}?lang=${language === 'tr' ? 'en' : 'tr'}` });
    return toReply({ status, body, headers: extra?.headers, code: extra?.code }, []);
  }

  /** A refusal of a `json` route (WebAuthn): `{ error: { code, message } }`, as its script reads answers. */
  function jsonRefusal(status: number, code: string, message: string, extra?: { headers?: Record<string, string>; cookies?: readonly string[] }): Reply {
    return toReply({ status, body: JSON.stringify({ error: { code, message } }), contentType: JSON_TYPE, headers: extra?.headers, code }, extra?.cookies ?? []);
  }

  const quickLanguage = (request: EdgeRequest): SiteLanguage =>
    chooseLanguage(new URLSearchParams(request.query), parseCookies(request.headers.cookie ?? ''), request.headers['accept-language'] ?? '').language;

  const notFound = (language: SiteLanguage, reader: Reader): Reply => {
    const w = DASHBOARD_WORDS[language];
    if (reader !== 'page') return jsonRefusal(404, 'not_found', reader === 'provider' ? PROVIDER_TEXTS.notFound : w.notFoundText);
    return messageReply(language, 404, w.notFoundTitle, w.notFoundText, { code: 'not_found' });
  };
  const methodNotAllowed = (language: SiteLanguage, allowed: readonly string[], reader: Reader): Reply => {
    const w = DASHBOARD_WORDS[language];
    const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : [...allowed];
    const headers = { Allow: allow.join(', ') };
    if (reader !== 'page') return jsonRefusal(405, 'method_not_allowed', reader === 'provider' ? PROVIDER_TEXTS.methodNotAllowed : w.methodNotAllowed, { headers });
    return messageReply(language, 405, w.badRequestTitle, w.methodNotAllowed, { headers, code: 'method_not_allowed' });
  };
  const tooLarge = (language: SiteLanguage, reader: Reader): Reply => {
    const w = DASHBOARD_WORDS[language];
    if (reader !== 'page') return jsonRefusal(413, 'payload_too_large', reader === 'provider' ? PROVIDER_TEXTS.tooLarge : w.tooLargeText);
    return messageReply(language, 413, w.tooLargeTitle, w.tooLargeText, { code: 'payload_too_large' });
  };
  /** Over the edge's own bound (1 MiB): the route's kind of answer, when the path names one. */
  const tooLargeFor = (request: EdgeRequest): Reply => {
    const matched = route(request.method, request.url);
    return tooLarge(quickLanguage(request), readerOf(request.url, matched.kind === 'route' ? matched.route : undefined));
  };

  /** The route of a request, or the reply that refuses it before any body is read. */
  function routeOf(request: EdgeRequest): { route: DashboardRoute; params: Record<string, string> } | Reply {
    const match = route(request.method, request.url);
    if (match.kind === 'none') return notFound(quickLanguage(request), readerOf(request.url, undefined));
    if (match.kind === 'method') return methodNotAllowed(quickLanguage(request), match.allowed, readerOf(request.url, undefined));
    return { route: match.route, params: match.params };
  }

  // Async from the session lookup on (Redis answers it over the network); everything of the request is read before.
  async function answer(request: EdgeRequest): Promise<Reply> {
    const matched = routeOf(request);
    if (!('route' in matched)) return matched;
    const { route: found, params } = matched;
    const headers = request.headers;
    const query = new URLSearchParams(request.query);
    const cookies = parseCookies(headers.cookie ?? '');
    const { language, chosen } = chooseLanguage(query, cookies, headers['accept-language'] ?? '');
    const w = DASHBOARD_WORDS[language];
    const setCookies: string[] = [];
    if (chosen) setCookies.push(languageCookie(language));
    const reader = readerOf(request.url, found);
    const refuse = (status: number, title: string, text: string, code: string, link?: [string, string]): Reply => {
      // A script or a provider sent it: a JSON error it can read (with the cookies this answer sets, like a page's).
      if (reader !== 'page') return jsonRefusal(status, code, text, { cookies: setCookies });
      const reply = messageReply(language, status, title, text, { code, link });
      return setCookies.length > 0 ? { ...reply, extraBlock: headerBlock(setCookies.map((c) => ['Set-Cookie', c] as const)) } : reply;
    };

    // The body: the route's bound and type.
    let form = new URLSearchParams();
    let json: unknown;
    let raw: Buffer | undefined;
    const isPost = found.method === 'POST';
    if (isPost) {
      const body = request.body ?? Buffer.alloc(0);
      if (body.length > BODY_LIMITS[found.body]) return tooLarge(language, reader);
      const type = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (found.body === 'form' || found.body === 'json') {
        if (type !== CONTENT_TYPES[found.body]) return refuse(415, w.badRequestTitle, w.wrongType, 'unsupported_media_type');
      }
      if (found.body === 'form') form = new URLSearchParams(body.toString('utf8'));
      else if (found.body === 'json') {
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          return refuse(400, w.badRequestTitle, w.wrongType, 'invalid_json');
        }
      } else if (found.body === 'raw') raw = body;
    }

    // The session.
    let account: Account | undefined;
    let session: { tokenHash: string; data: Session } | undefined;
    const sessionToken = cookies.get(SESSION_COOKIE);
    if (isToken(sessionToken)) {
      const tokenHash = sha256(sessionToken);
      const data = await services.identity.session(tokenHash, services.now());
      account = data && services.accounts.accountById(data.accountId);
      if (data && account) session = { tokenHash, data };
      else account = undefined;
    }

    // The pre-session cookie: kept, or made for the sign-in forms this answer may carry.
    // (Signed-in pages need none, but for the sign-in pages themselves: signing in as someone else by a link.)
    let signin = cookies.get(SIGNIN_COOKIE);
    if (!isToken(signin)) {
      signin = randomToken();
      if (!session || request.url.startsWith(DASHBOARD_PATHS.signIn)) setCookies.push(signinCookie(signin));
    }

    // CSRF: every POST but the webhooks'.
    if (isPost && found.csrf !== 'none') {
      const given = found.body === 'json' ? headers[CSRF_HEADER] || null : form.get(CSRF_FIELD);
      const origin = sameOrigin(headers.origin ?? '', headers['sec-fetch-site'] ?? '', services.allowedOrigins());
      let expected: string | undefined;
      if (found.csrf === 'session') expected = session && sessionFormToken(session.data.csrfSecret);
      else if (isToken(cookies.get(SIGNIN_COOKIE))) expected = signinFormToken(cookies.get(SIGNIN_COOKIE)!);
      if (!origin || expected === undefined || !tokenMatches(given, expected)) {
        log('warn', 'dashboard_csrf_refused', { requestId: request.requestId, path: clipped(request.url), origin: (headers.origin ?? '').slice(0, 100), reason: !origin ? 'origin' : expected === undefined ? 'no_token' : 'token' });
        if (found.csrf === 'session' && !session) return refuse(403, w.csrfTitle, w.sessionEnded, 'csrf_refused', [DASHBOARD_PATHS.signIn, w.signInTitle]);
        return refuse(403, w.csrfTitle, w.csrfText, 'csrf_refused');
      }
    }

    // The session a route needs.
    if (found.session && !session) {
      // Signing in comes back here (nextPath.ts: a dashboard path only).
      if (!isPost) return toReply({ status: 303, location: withNext(DASHBOARD_PATHS.signIn, safeNext(request.query === '' ? request.url : `${request.url}?${request.query}`)) }, setCookies);
      return refuse(403, w.csrfTitle, w.sessionEnded, 'no_session', [DASHBOARD_PATHS.signIn, w.signInTitle]);
    }

    const other: SiteLanguage = language === 'tr' ? 'en' : 'tr';
    let otherLanguageHref: string;
    if (isPost) otherLanguageHref = `${DASHBOARD_PATHS.home}?lang=${other}`;
    else {
      const switched = new URLSearchParams(query);
      switched.set('lang', other);
      otherLanguageHref = `${request.url}?${switched.toString()}`;
    }
    const context: DashboardContext = {
      services,
      language,
      account,
      session,
      csrfToken: session ? sessionFormToken(session.data.csrfSecret) : signinFormToken(signin),
      signinCsrfToken: signinFormToken(signin),
      signinCookie: signin,
      page: (frame) => dashboardPage({ language, title: frame.title, main: frame.main, signedIn: session !== undefined, otherLanguageHref, scripts: frame.scripts }),
    };
    const dashboardRequest: DashboardRequest = {
      method: found.method,
      path: request.url,
      params,
      query,
      form,
      json,
      raw,
      headers,
      cookies,
      clientAddress: request.clientAddress,
      requestId: request.requestId,
    };
    return toReply(await found.handler(dashboardRequest, context), setCookies);
  }

  return {
    patterns: [DASHBOARD_PATHS.home, `${DASHBOARD_PATHS.home}/*`, `${WEBHOOKS_PREFIX}/*`],
    headers: DASHBOARD_HEADERS,
    // Its GET paths are fixed and lower case: `/Dashboard/Keys` is sent to `/dashboard/keys` (edge.ts).
    lowerCasePaths: 'every',
    // The per-client limits of sign-in (the peer, or the address a trusted proxy forwards: edge/clientAddress.ts).
    clientAddress: true,
    body: { methods: ['post'], maxBytes: LARGEST_BODY, tooLarge: tooLargeFor },
    early(request) {
      // Refused before the body is read: unknown paths, other methods, and a declared length over the route's bound.
      const matched = routeOf(request);
      if (!('route' in matched)) return matched;
      if (request.method !== 'post') return undefined;
      const length = Number(request.headers['content-length'] || 0);
      if (Number.isFinite(length) && length > BODY_LIMITS[matched.route.body]) return tooLarge(quickLanguage(request), readerOf(request.url, matched.route));
      return undefined;
    },
    answer,
    failure(error, request) {
      log(isRedisUnavailable(error) ? 'warn' : 'error', 'dashboard_failed', { requestId: request.requestId, path: clipped(request.url), error: String((error as Error)?.stack ?? error) });
      let language: SiteLanguage = 'en';
      try {
        language = quickLanguage(request);
      } catch {
        // the English page, then
      }
      const w = DASHBOARD_WORDS[language];
      const matched = route(request.method, request.url);
      const json = readerOf(request.url, matched.kind === 'route' ? matched.route : undefined) !== 'page';
      if (isRedisUnavailable(error)) {
        // Fleet mode with Redis away: the request changed nothing (every write is one script); a retry will do.
        const headers = { 'Retry-After': '1' };
        if (json) return jsonRefusal(503, 'service_unavailable', w.unavailableText, { headers });
        return messageReply(language, 503, w.unavailableTitle, w.unavailableText, { code: 'service_unavailable', headers });
      }
      if (json) return jsonRefusal(500, 'internal_error', `${w.errorTitle}. Request ${request.requestId}.`);
      return messageReply(language, 500, w.errorTitle, `Request ${request.requestId}.`, { code: 'internal_error' });
    },
    close() {
      clearInterval(purge);
    },
  };
}
