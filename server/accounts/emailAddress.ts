// E-mail addresses: kept as typed (trimmed) for delivery and display, and compared by a key that maps no letter to
// another. JavaScript's toLowerCase turns `I` into `i` where Turkish has `ı`, so `ÇAĞRI@…` lowercased names another
// mailbox (`çağri@…`): the key folds only ASCII A–Z in the local part, which mailbox providers treat alike, and keeps
// every other character as typed (RFC 5321 leaves the local part to the receiving host). The domain is the DNS's:
// case-insensitive by IDNA's own rules, so it is compared in its ASCII form (`örnek.com.tr` → `xn--rnek-4qa.com.tr`).
import { domainToASCII } from 'node:url';

/**
 * The key accounts are stored and found by: the local part in Unicode NFC (the same text typed on another keyboard
 * may come decomposed) with ASCII A–Z lowercased and nothing else changed, `@`, and the domain as `domainToASCII`
 * gives it (lower case, IDN labels in punycode). Undefined when there is no `@` with text on both sides, or the domain
 * is no domain name.
 */
export function emailKey(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return undefined;
  const local = address.slice(0, at).normalize('NFC').replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  const domain = domainToASCII(address.slice(at + 1));
  return domain === '' ? undefined : `${local}@${domain}`;
}
