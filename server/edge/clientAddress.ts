// Who the client is: the address of the connection, unless that is a reverse proxy the operator trusts (TRUST_PROXY),
// in which case the proxy says who it serves in X-Forwarded-For. An X-Forwarded-For from anyone else is the client's
// own claim and is ignored: it would let a client choose its own rate-limit bucket.
import { BlockList, isIP } from 'node:net';

/** One TRUST_PROXY entry: an address, or a range (CIDR). Plain data: it goes to the serving threads with the config. */
export interface TrustedRange {
  address: string;
  /** 32 or 128 for a single address. */
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** The longest X-Forwarded-For entry kept as a client (a proxy's entry that is no address is not kept at all). */
const MAX_ENTRY = 64;

const MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * An address in one spelling, so that one client has one key: IPv4 as it is, IPv6 compressed in lower case (RFC
 * 5952, as URLs write it), an IPv4-mapped IPv6 address (a dual-stack socket's IPv4 peer) as IPv4. Undefined when
 * the text is no address.
 */
export function canonicalAddress(text: string): string | undefined {
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return undefined;
  let compressed: string;
  try {
    compressed = new URL(`http://[${text}]`).hostname.slice(1, -1);
  } catch {
    return undefined; // a zone id (fe80::1%eth0): not an address a client reaches us from
  }
  const mapped = MAPPED.exec(compressed);
  if (!mapped) return compressed;
  const high = parseInt(mapped[1], 16);
  const low = parseInt(mapped[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** TRUST_PROXY: comma-separated addresses and CIDR ranges, IPv4 or IPv6; empty or unset, none. Throws on a bad entry. */
export function parseTrustedProxies(value: string | undefined): TrustedRange[] {
  const entries = (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  return entries.map((entry) => {
    const slash = entry.indexOf('/');
    const address = canonicalAddress(slash < 0 ? entry : entry.slice(0, slash));
    const family = address === undefined ? undefined : isIP(address) === 4 ? 'ipv4' : 'ipv6';
    const bits = family === 'ipv4' ? 32 : 128;
    const prefix = slash < 0 ? bits : /^\d{1,3}$/.test(entry.slice(slash + 1)) ? Number(entry.slice(slash + 1)) : NaN;
    if (address === undefined || family === undefined || !(prefix >= 0 && prefix <= bits)) {
      throw new Error(`TRUST_PROXY must be comma-separated IP addresses or CIDR ranges of the proxies in front (127.0.0.1, 10.0.0.0/8, ::1, fd00::/8), not ${JSON.stringify(entry)}`);
    }
    return { address, prefix, family };
  });
}

/** The client's address of each request, by the trusted proxies of the configuration. */
export class ClientAddresses {
  private readonly trusted = new BlockList();
  private readonly trustsAny: boolean;

  constructor(ranges: readonly TrustedRange[]) {
    for (const range of ranges) this.trusted.addSubnet(range.address, range.prefix, range.family);
    this.trustsAny = ranges.length > 0;
  }

  private isTrusted(address: string): boolean {
    return this.trustsAny && this.trusted.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
  }

  /**
   * The connection's peer, or, when the peer is a trusted proxy, the right-most X-Forwarded-For entry that is not
   * itself trusted (each proxy appends the address it was reached from; those left of the first untrusted one are
   * whatever that client claimed). When every entry is trusted, the left-most; an entry that is no address ends the
   * walk at the proxy that wrote it.
   */
  resolve(peerText: string, forwardedFor: string): string {
    const peer = canonicalAddress(peerText) ?? peerText.slice(0, MAX_ENTRY);
    if (!this.isTrusted(peer) || forwardedFor === '') return peer;
    let client = peer;
    const entries = forwardedFor.split(',');
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i].trim();
      if (entry === '') continue;
      const address = entry.length <= MAX_ENTRY ? canonicalAddress(entry) : undefined;
      if (address === undefined) return client;
      client = address;
      if (!this.isTrusted(address)) return address;
    }
    return client;
  }
}
