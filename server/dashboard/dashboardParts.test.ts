// The dashboard's small parts, without a server: the route table's rules and matching, cookies, language, origin.
import { describe, expect, it } from 'vitest';
import { parseCookies, sessionCookie } from './cookies.js';
import { sameOrigin, sessionFormToken, signinFormToken, tokenMatches } from './csrf.js';
import { DASHBOARD_ROUTES } from './dashboardRoutes.js';
import { chooseLanguage } from './dashboardSurface.js';
import type { DashboardRoute } from './dashboardTypes.js';
import { compileRoutes } from './routing.js';
import { plausibleEmail } from './signIn.js';

const handler: DashboardRoute['handler'] = () => ({ status: 200 });
const route = (entry: Partial<DashboardRoute>): DashboardRoute => ({ method: 'GET', path: '/dashboard/x', session: false, csrf: 'none', body: 'none', handler, ...entry });

describe('the route table', () => {
  it('checks every POST for CSRF but raw-body webhooks, and refuses a route declared twice', () => {
    expect(() => compileRoutes([route({ method: 'POST', body: 'form', csrf: 'none' })])).toThrow(/CSRF/);
    expect(() => compileRoutes([route({ method: 'POST', path: '/webhooks/billing', body: 'raw', csrf: 'none' })])).not.toThrow();
    expect(() => compileRoutes([route({}), route({})])).toThrow(/twice/);
    expect(() => compileRoutes(DASHBOARD_ROUTES)).not.toThrow();
    for (const r of DASHBOARD_ROUTES.filter((r) => r.method === 'POST')) expect(r.csrf === 'none' ? r.body : 'checked').not.toBe('form');
  });

  it('matches paths and :params, answers HEAD as GET, and names the methods of a known path', () => {
    const match = compileRoutes([route({ path: '/dashboard/keys' }), route({ method: 'POST', path: '/dashboard/keys/:id/revoke', body: 'form', csrf: 'session' })]);
    expect(match('get', '/dashboard/keys')).toMatchObject({ kind: 'route', params: {} });
    expect(match('head', '/dashboard/keys')).toMatchObject({ kind: 'route' });
    expect(match('post', '/dashboard/keys/key%201/revoke')).toMatchObject({ kind: 'route', params: { id: 'key 1' } });
    expect(match('post', '/dashboard/keys/a/b/revoke')).toEqual({ kind: 'none' });
    expect(match('get', '/dashboard/keys/a/revoke')).toEqual({ kind: 'method', allowed: ['POST'] });
    expect(match('delete', '/dashboard/keys')).toEqual({ kind: 'method', allowed: ['GET'] });
    expect(match('get', '/dashboard/keys/')).toEqual({ kind: 'none' });
  });
});

describe('cookies, language, origin, addresses', () => {
  it('parses a Cookie header, first of a name winning', () => {
    expect(parseCookies('a=1; __Host-session=abc; a=2; junk; =x; q="v"')).toEqual(new Map([['a', '1'], ['__Host-session', 'abc'], ['q', 'v']]));
    expect(sessionCookie('t', 60)).toBe('__Host-session=t; Path=/; Max-Age=60; Secure; HttpOnly; SameSite=Lax');
  });

  it('chooses the language from ?lang, the cookie, then Accept-Language by weight', () => {
    const none = new Map<string, string>();
    expect(chooseLanguage(new URLSearchParams('lang=tr'), new Map([['lang', 'en']]), 'en')).toEqual({ language: 'tr', chosen: true });
    expect(chooseLanguage(new URLSearchParams(''), new Map([['lang', 'tr']]), 'en')).toEqual({ language: 'tr', chosen: false });
    expect(chooseLanguage(new URLSearchParams('lang=de'), none, 'en;q=0.4, tr-TR;q=0.9').language).toBe('tr');
    expect(chooseLanguage(new URLSearchParams(''), none, 'tr;q=0, en').language).toBe('en');
    expect(chooseLanguage(new URLSearchParams(''), none, '').language).toBe('en');
  });

  it('accepts our origin, or same-origin fetch metadata without one; nothing else', () => {
    const ours = ['http://localhost:8080'];
    expect(sameOrigin('http://localhost:8080', '', ours)).toBe(true);
    expect(sameOrigin('http://localhost:8080', 'cross-site', ours)).toBe(true);
    expect(sameOrigin('https://evil.example', 'same-origin', ours)).toBe(false);
    expect(sameOrigin('null', '', ours)).toBe(false);
    expect(sameOrigin('', 'same-origin', ours)).toBe(true);
    expect(sameOrigin('', 'same-site', ours)).toBe(false);
    expect(sameOrigin('', '', ours)).toBe(false);
  });

  it('derives form tokens that differ per secret and compare in constant time', () => {
    expect(sessionFormToken('a')).not.toBe(sessionFormToken('b'));
    expect(signinFormToken('a')).not.toBe(sessionFormToken('a'));
    expect(tokenMatches(sessionFormToken('a'), sessionFormToken('a'))).toBe(true);
    expect(tokenMatches(null, sessionFormToken('a'))).toBe(false);
    expect(tokenMatches('short', sessionFormToken('a'))).toBe(false);
  });

  it('normalises e-mail addresses', () => {
    expect(plausibleEmail('  Someone@Example.COM ')).toEqual({ address: 'Someone@Example.COM', key: 'someone@example.com' });
    expect(plausibleEmail('ÇAĞRI@ÖRNEK.com.tr')).toEqual({ address: 'ÇAĞRI@ÖRNEK.com.tr', key: 'ÇaĞri@xn--rnek-4qa.com.tr' });
    for (const bad of ['', 'no-at', 'a@b', 'a@@b.com', 'a b@c.com', 'a@b.c', 'x\r\nBcc: y@z.com', `${'a'.repeat(250)}@b.com`, 'a@xn--zz.com']) expect(plausibleEmail(bad)).toBeUndefined();
  });
});
