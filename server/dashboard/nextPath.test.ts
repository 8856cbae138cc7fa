// The page a sign-in lands on: a dashboard path only, every other value ignored.
import { describe, expect, it } from 'vitest';
import { landingPath, safeNext, withNext } from './nextPath.js';

describe('safeNext', () => {
  it('keeps a dashboard path, with its query', () => {
    expect(safeNext('/dashboard/keys')).toBe('/dashboard/keys');
    expect(safeNext('/dashboard/billing?checkout=success')).toBe('/dashboard/billing?checkout=success');
    expect(safeNext('/dashboard/keys/0123456789abcdef/revoke')).toBe('/dashboard/keys/0123456789abcdef/revoke');
    expect(safeNext('/dashboard')).toBe('/dashboard');
    expect(safeNext('/dashboard?lang=tr')).toBe('/dashboard?lang=tr');
  });

  it('ignores anything else: other sites, other paths, tricks browsers read as another host', () => {
    const hostile = [
      '//evil.example',
      '//evil.example/dashboard',
      '/\\evil.example',
      '/\\/evil.example',
      '\\\\evil.example',
      'https://evil.example/dashboard',
      'http://localhost:8080/dashboard/keys',
      'javascript:alert(1)',
      'data:text/html,x',
      '/dashboard//evil.example',
      '/dashboard/..//evil.example',
      '/dashboard/../en',
      '/dashboard/./keys',
      '/dashboard/%2e%2e/en',
      '/dashboard/%2F%2Fevil.example',
      '/dashboard/%5Cevil.example',
      '/dashboard\\evil.example',
      '/dashboard/keys\t',
      ' /dashboard/keys',
      '/dashboard/keys\n',
      '/dashboardx',
      '/en',
      '/',
      '',
      'dashboard/keys',
      '/dashboard/sign-in',
      '/dashboard/sign-in/code',
      '/dashboard/sign-out',
      `/dashboard/${'a'.repeat(600)}`,
    ];
    for (const value of hostile) expect(safeNext(value), JSON.stringify(value)).toBeUndefined();
    expect(safeNext(null)).toBeUndefined();
    expect(safeNext(undefined)).toBeUndefined();
  });

  it('lands on the dashboard home when there is no page to keep, and writes `next` only for one', () => {
    expect(landingPath('//evil.example')).toBe('/dashboard');
    expect(landingPath('/dashboard/usage')).toBe('/dashboard/usage');
    expect(withNext('/dashboard/sign-in', '/dashboard/billing?checkout=success')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fbilling%3Fcheckout%3Dsuccess');
    expect(withNext('/dashboard/sign-in/link?token=abc', '/dashboard/keys')).toBe('/dashboard/sign-in/link?token=abc&next=%2Fdashboard%2Fkeys');
    expect(withNext('/dashboard/sign-in', undefined)).toBe('/dashboard/sign-in');
    expect(withNext('/dashboard/sign-in', '/dashboard')).toBe('/dashboard/sign-in');
  });
});
