// A key's restriction lists as the dashboard's form gives them (read and put in one spelling at write time) and the
// check a serving thread makes with them (origins exact or by a subdomain wildcard, CIDR ranges of IPv4 and IPv6).
import { describe, expect, it } from 'vitest';
import { isRestricted, MAX_RESTRICTION_ENTRIES, parseOrigins, parseRanges, restrictionRefusal, type Caller } from './keyRestrictions.js';

const from = (origin: string, address = '203.0.113.9'): Caller => ({ origin, clientAddress: () => address });

describe('reading the lists', () => {
  it('origins: one spelling (lower case, punycode, no default port, no trailing slash), duplicates once, empty is none', () => {
    expect(parseOrigins('https://Example.COM/\nhttp://localhost:3000, https://example.com:443  https://*.Example.org')).toEqual({
      ok: ['https://example.com', 'http://localhost:3000', 'https://*.example.org'],
    });
    expect(parseOrigins('https://bücher.example')).toEqual({ ok: ['https://xn--bcher-kva.example'] });
    expect(parseOrigins(' \n ')).toEqual({ ok: undefined });
  });

  it('origins: a path, a query, another scheme, credentials or a bare host are refused, naming the entry', () => {
    for (const bad of ['https://example.com/app', 'example.com', 'ftp://example.com', 'https://user@example.com', 'https://example.com?x=1', 'https://*.com', 'https://*.127.0.0.1', 'null']) {
      expect(parseOrigins(`https://ok.example\n${bad}`), bad).toEqual({ problem: { entry: bad, reason: 'origin' } });
    }
    const many = Array.from({ length: MAX_RESTRICTION_ENTRIES + 1 }, (_, i) => `https://s${i}.example`).join('\n');
    expect(parseOrigins(many)).toEqual({ problem: { entry: `https://s${MAX_RESTRICTION_ENTRIES}.example`, reason: 'too_many' } });
    const long = `https://${'a'.repeat(300)}.example`;
    const refused = parseOrigins(long);
    expect('problem' in refused && refused.problem.entry.length).toBeLessThan(70);
  });

  it('ranges: addresses alone are /32 or /128, IPv6 compressed in lower case', () => {
    expect(parseRanges('203.0.113.7\n198.51.100.0/24, 2001:DB8:0:0::/32 ::1')).toEqual({
      ok: ['203.0.113.7/32', '198.51.100.0/24', '2001:db8::/32', '::1/128'],
    });
    for (const bad of ['203.0.113.0/33', '2001:db8::/129', '203.0.113', 'example.com', '10.0.0.0/-1', '10.0.0.0/', 'fe80::1%eth0/64']) {
      expect(parseRanges(bad), bad).toEqual({ problem: { entry: bad, reason: 'range' } });
    }
  });
});

describe('checking a request', () => {
  it('an unrestricted key is never refused, and says so cheaply', () => {
    expect(isRestricted({})).toBe(false);
    expect(restrictionRefusal({}, from('https://anything.example'))).toBeUndefined();
  });

  it('origins: exact ones and subdomains of a wildcard; a request without Origin is not bound by them', () => {
    const record = { allowedOrigins: ['https://app.example.com', 'http://localhost:3000', 'https://*.example.org'] };
    expect(isRestricted(record)).toBe(true);
    for (const ok of ['https://app.example.com', 'http://localhost:3000', 'https://a.example.org', 'https://a.b.example.org', '']) {
      expect(restrictionRefusal(record, from(ok)), ok).toBeUndefined();
    }
    for (const bad of ['https://evil.example', 'http://app.example.com', 'https://app.example.com:8443', 'http://localhost:3001', 'https://example.org', 'https://evilexample.org', 'http://a.example.org', 'null']) {
      expect(restrictionRefusal(record, from(bad)), bad).toEqual({ kind: 'origin', origin: bad });
    }
  });

  it('ranges: IPv4 and IPv6 CIDR; a caller that cannot say its address is refused', () => {
    const record = { allowedRanges: ['203.0.113.0/24', '192.0.2.7/32', '2001:db8::/32'] };
    for (const ok of ['203.0.113.1', '203.0.113.255', '192.0.2.7', '2001:db8::1', '2001:db8:ffff::5']) {
      expect(restrictionRefusal(record, from('', ok)), ok).toBeUndefined();
    }
    for (const bad of ['203.0.114.1', '192.0.2.8', '2001:db9::1', '::1', '', 'not-an-address']) {
      expect(restrictionRefusal(record, from('', bad)), bad).toEqual({ kind: 'range', address: bad });
    }
    expect(restrictionRefusal(record, undefined)).toEqual({ kind: 'range', address: '' });
  });

  it('both lists bind together, and the address is only asked for when ranges are set', () => {
    let asked = 0;
    const counting = (origin: string, address: string): Caller => ({ origin, clientAddress: () => (asked++, address) });
    expect(restrictionRefusal({ allowedOrigins: ['https://a.example'] }, counting('https://a.example', '203.0.113.1'))).toBeUndefined();
    expect(asked).toBe(0);
    const both = { allowedOrigins: ['https://a.example'], allowedRanges: ['203.0.113.0/24'] };
    expect(restrictionRefusal(both, counting('https://a.example', '203.0.113.1'))).toBeUndefined();
    expect(restrictionRefusal(both, counting('https://b.example', '203.0.113.1'))).toEqual({ kind: 'origin', origin: 'https://b.example' });
    expect(restrictionRefusal(both, counting('https://a.example', '198.51.100.1'))).toEqual({ kind: 'range', address: '198.51.100.1' });
  });
});
