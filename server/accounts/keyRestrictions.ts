// A key's restrictions (issue 32): the web origins a browser may use it from, and the client address ranges (CIDR)
// it may be used from. Lists are read and put in one spelling when they are written (the dashboard's form), and
// stored with the key record; a serving thread compiles a record's lists once (a Set and a BlockList, kept per record
// object) so that a request of a restricted key costs a lookup or two, and one of an unrestricted key nothing.
import { BlockList, isIP } from 'node:net';

/** At most this many origins, and as many ranges, per key: a form's worth, and a bounded check. */
export const MAX_RESTRICTION_ENTRIES = 20;
/** The longest entry read (an origin or a range); a longer one is refused, never echoed whole. */
const MAX_ENTRY_LENGTH = 200;

/** What the store keeps of a key's restrictions: absent (never an empty list) means no restriction of that kind. */
export interface KeyRestrictions {
  /** Origins as browsers send them (`https://example.com`, `http://localhost:3000`), or `https://*.example.com`. */
  allowedOrigins?: string[];
  /** Addresses and CIDR ranges in one spelling (`203.0.113.0/24`, `2001:db8::/32`; one address as `/32` or `/128`). */
  allowedRanges?: string[];
}

/** A list that could not be read: the entry at fault (clipped), and why. */
export interface RestrictionProblem {
  entry: string;
  reason: 'origin' | 'range' | 'too_many';
}

type Parsed<T> = { ok: T } | { problem: RestrictionProblem };

const entriesOf = (text: string): string[] => text.split(/[\s,]+/).filter((entry) => entry !== '');
const clip = (entry: string): string => (entry.length <= 60 ? entry : `${entry.slice(0, 60)}…`);

/** One origin entry in the spelling browsers send (lower case, punycode, no default port), or undefined. */
function originOf(entry: string): string | undefined {
  if (entry.length > MAX_ENTRY_LENGTH) return undefined;
  const wildcard = /^(https?):\/\/\*\.(.+)$/i.exec(entry);
  const text = wildcard ? `${wildcard[1]}://${wildcard[2]}` : entry;
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.hostname === '' || (wildcard && (isIP(url.hostname) !== 0 || url.hostname.startsWith('[') || !url.hostname.includes('.')))) return undefined;
  return wildcard ? `${url.protocol}//*.${url.host}` : url.origin;
}

/** An address in one spelling: IPv4 as it is, IPv6 compressed in lower case; undefined when it is none. */
function addressOf(text: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const family = isIP(text);
  if (family === 4) return { address: text, family: 'ipv4' };
  if (family !== 6) return undefined;
  try {
    return { address: new URL(`http://[${text}]`).hostname.slice(1, -1), family: 'ipv6' };
  } catch {
    return undefined; // a zone id (fe80::1%eth0)
  }
}

/** One range entry as `address/prefix`, or undefined. */
function rangeOf(entry: string): string | undefined {
  if (entry.length > MAX_ENTRY_LENGTH) return undefined;
  const slash = entry.indexOf('/');
  const parsed = addressOf(slash < 0 ? entry : entry.slice(0, slash));
  if (!parsed) return undefined;
  const bits = parsed.family === 'ipv4' ? 32 : 128;
  const prefixText = slash < 0 ? String(bits) : entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return undefined;
  return `${parsed.address}/${Number(prefixText)}`;
}

function parseList(text: string, read: (entry: string) => string | undefined, reason: 'origin' | 'range'): Parsed<string[] | undefined> {
  const entries = entriesOf(text);
  const out: string[] = [];
  for (const entry of entries) {
    const value = read(entry);
    if (value === undefined) return { problem: { entry: clip(entry), reason } };
    if (!out.includes(value)) out.push(value);
    if (out.length > MAX_RESTRICTION_ENTRIES) return { problem: { entry: clip(entry), reason: 'too_many' } };
  }
  return { ok: out.length === 0 ? undefined : out };
}

/** The origins of a form's text (one per line, or separated by spaces or commas); empty text: no restriction. */
export const parseOrigins = (text: string): Parsed<string[] | undefined> => parseList(text, originOf, 'origin');

/** The ranges of a form's text, as parseOrigins; an address alone is a range of one. */
export const parseRanges = (text: string): Parsed<string[] | undefined> => parseList(text, rangeOf, 'range');

/** Whether a record carries any restriction (the request path's one test for every key). */
export const isRestricted = (record: KeyRestrictions): boolean => record.allowedOrigins !== undefined || record.allowedRanges !== undefined;

/** A record's lists made ready for checking: built once per record object. */
interface CompiledRestrictions {
  origins: ReadonlySet<string> | undefined;
  /** `https://` and `.example.com` of `https://*.example.com`. */
  wildcards: ReadonlyArray<readonly [scheme: string, suffix: string]>;
  ranges: BlockList | undefined;
}

const compiled = new WeakMap<KeyRestrictions, CompiledRestrictions>();

function compile(record: KeyRestrictions): CompiledRestrictions {
  let found = compiled.get(record);
  if (found) return found;
  const exact = new Set<string>();
  const wildcards: Array<readonly [string, string]> = [];
  for (const origin of record.allowedOrigins ?? []) {
    const star = origin.indexOf('://*.');
    if (star < 0) exact.add(origin);
    else wildcards.push([origin.slice(0, star + 3), origin.slice(star + 4)]);
  }
  let ranges: BlockList | undefined;
  if (record.allowedRanges) {
    ranges = new BlockList();
    for (const range of record.allowedRanges) {
      const slash = range.indexOf('/');
      const address = range.slice(0, slash);
      ranges.addSubnet(address, Number(range.slice(slash + 1)), address.includes(':') ? 'ipv6' : 'ipv4');
    }
  }
  found = { origins: record.allowedOrigins ? exact : undefined, wildcards, ranges };
  compiled.set(record, found);
  return found;
}

/** What a restricted key's request says of where it comes from. */
export interface Caller {
  /** The Origin header ('' when there is none: not a browser's cross-origin request). */
  origin: string;
  /** The client's address (the edge's, TRUST_PROXY applied), asked only when the key has ranges. */
  clientAddress(): string;
}

export type RestrictionRefusal = { kind: 'origin'; origin: string } | { kind: 'range'; address: string };

function originAllowed(c: CompiledRestrictions, origin: string): boolean {
  if (c.origins!.has(origin)) return true;
  for (const [scheme, suffix] of c.wildcards) if (origin.startsWith(scheme) && origin.endsWith(suffix) && origin.length > scheme.length + suffix.length) return true;
  return false;
}

/**
 * Why a restricted key may not serve this caller, or undefined when it may. An origin list binds requests that carry
 * an Origin (browsers' cross-origin requests: the page's origin); a range list binds every request. Without a caller
 * (a path that cannot say where the request comes from) a key with ranges is refused.
 */
export function restrictionRefusal(record: KeyRestrictions, caller: Caller | undefined): RestrictionRefusal | undefined {
  const c = compile(record);
  const origin = caller?.origin ?? '';
  if (c.origins && origin !== '' && !originAllowed(c, origin)) return { kind: 'origin', origin };
  if (c.ranges) {
    const address = caller?.clientAddress() ?? '';
    const family = isIP(address);
    if (family === 0 || !c.ranges.check(address, family === 4 ? 'ipv4' : 'ipv6')) return { kind: 'range', address };
  }
  return undefined;
}
