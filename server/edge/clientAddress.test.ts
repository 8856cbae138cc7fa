// Who the client is: the connection's address, and X-Forwarded-For only from a proxy named in TRUST_PROXY. Over HTTP
// with the dashboard's per-client sign-in limit (20 sends an hour), from several loopback addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';
import { askCodeFrom } from '../../testing/signInFrom.js';
import { SENDS_PER_CLIENT_PER_HOUR } from '../dashboard/signIn.js';
import { canonicalAddress, ClientAddresses, parseTrustedProxies } from './clientAddress.js';

describe('addresses and TRUST_PROXY', () => {
  it('writes an address one way', () => {
    expect(canonicalAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(canonicalAddress('0000:0000:0000:0000:0000:ffff:7f00:0002')).toBe('127.0.0.2'); // uWS's text for a mapped peer
    expect(canonicalAddress('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    for (const bad of ['', 'direct', 'unknown', '203.0.113.9:443', '[2001:db8::1]', '999.1.1.1', 'fe80::1%eth0']) expect(canonicalAddress(bad), bad).toBeUndefined();
  });

  it('reads addresses and ranges, IPv4 and IPv6, and refuses anything else with the setting named', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' ')).toEqual([]);
    expect(parseTrustedProxies('127.0.0.1, 10.0.0.0/8,::1, fd00::/8')).toEqual([
      { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
      { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
      { address: '::1', prefix: 128, family: 'ipv6' },
      { address: 'fd00::', prefix: 8, family: 'ipv6' },
    ]);
    for (const bad of ['localhost', '10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/-1', '10.0.0.0/a', '10.0.0', 'nginx']) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(/^TRUST_PROXY must be comma-separated IP addresses or CIDR ranges/);
    }
  });

  it('believes X-Forwarded-For from trusted peers only, and takes its right-most entry that is not trusted', () => {
    const none = new ClientAddresses([]);
    expect(none.resolve('127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
    const trusting = new ClientAddresses(parseTrustedProxies('127.0.0.1, 10.0.0.0/8, fd00::/8'));
    expect(trusting.resolve('192.0.2.7', '203.0.113.9')).toBe('192.0.2.7'); // an untrusted peer's header is its own claim
    expect(trusting.resolve('127.0.0.1', '')).toBe('127.0.0.1');
    expect(trusting.resolve('127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    // A client's forged entries are left of the one the proxies added.
    expect(trusting.resolve('127.0.0.1', '198.51.100.1, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
    expect(trusting.resolve('0000:0000:0000:0000:0000:ffff:7f00:0001', ' 2001:DB8::5 , fd00::9')).toBe('2001:db8::5');
    // Every hop trusted: the left-most; an entry that is no address ends the walk at the proxy that wrote it.
    expect(trusting.resolve('127.0.0.1', '10.0.0.5, 10.0.0.6')).toBe('10.0.0.5');
    expect(trusting.resolve('127.0.0.1', 'garbage, 10.0.0.6')).toBe('10.0.0.6');
    expect(trusting.resolve('127.0.0.1', 'garbage')).toBe('127.0.0.1');
  });
});

/** Sends until the limit: SENDS_PER_CLIENT_PER_HOUR sends answered 200, each for another address. */
async function useUpSends(port: number, origin: string, localAddress: string, tag: string, forwardedFor: (i: number) => string | undefined): Promise<void> {
  for (let i = 0; i < SENDS_PER_CLIENT_PER_HOUR; i++) {
    expect(await askCodeFrom(port, { localAddress, origin, email: `${tag}${i}@example.com`, forwardedFor: forwardedFor(i) }), `send ${i}`).toBe(200);
  }
}

describe('without TRUST_PROXY: the connection’s address', () => {
  let server: RunningServer;
  let origin: string;
  beforeAll(async () => {
    server = await startServer();
    origin = `http://localhost:${server.port}`;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a forged X-Forwarded-For does not escape the per-client limit', async () => {
    await useUpSends(server.port, origin, '127.0.0.2', 'forged', (i) => `203.0.113.${i + 1}`);
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.2', origin, email: 'forged-more@example.com', forwardedFor: '198.51.100.200' })).toBe(429);
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.2', origin, email: 'forged-none@example.com' })).toBe(429);
  });

  it('two connecting addresses do not share a bucket', async () => {
    await useUpSends(server.port, origin, '127.0.0.3', 'three', () => undefined);
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.3', origin, email: 'three-more@example.com' })).toBe(429);
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.4', origin, email: 'four@example.com' })).toBe(200);
  });
});

describe('with TRUST_PROXY=127.0.0.1: the address the proxy forwards', () => {
  let server: RunningServer;
  let origin: string;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: '127.0.0.1' });
    origin = `http://localhost:${server.port}`;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('counts per forwarded address, and an untrusted peer’s header is still ignored', async () => {
    await useUpSends(server.port, origin, '127.0.0.1', 'proxied', () => '203.0.113.50');
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.1', origin, email: 'proxied-more@example.com', forwardedFor: '203.0.113.50' })).toBe(429);
    // Another client behind the same proxy has its own bucket; a client's own entry left of the proxy's changes nothing.
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.1', origin, email: 'other@example.com', forwardedFor: '203.0.113.51' })).toBe(200);
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.1', origin, email: 'forged@example.com', forwardedFor: '198.51.100.9, 203.0.113.50' })).toBe(429);
    // 127.0.0.5 is not the proxy: its X-Forwarded-For is its own claim, and its bucket its own address.
    await useUpSends(server.port, origin, '127.0.0.5', 'direct', (i) => `203.0.113.${100 + i}`);
    expect(await askCodeFrom(server.port, { localAddress: '127.0.0.5', origin, email: 'direct-more@example.com', forwardedFor: '203.0.113.52' })).toBe(429);
  });

  it('a TRUST_PROXY that is not addresses stops the start with the setting named', async () => {
    await expect(startServer({ TRUST_PROXY: '127.0.0.1, proxy.internal' })).rejects.toThrow(
      /exited with 1 before listening:\nerror: cannot start: TRUST_PROXY must be comma-separated IP addresses or CIDR ranges .* not "proxy\.internal"/,
    );
  });
});
