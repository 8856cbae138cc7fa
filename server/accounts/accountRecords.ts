// What both account stores (LMDB and Redis) make the same way: checked addresses and their keys, key names, new
// account ids and key records, and which key a `keys revoke` argument (a whole key or its display prefix) names.
import { randomBytes } from 'node:crypto';
import { displayPrefix, hashKey, isWellFormedKey, KEY_NAME_MAX, KEY_PREFIX, lastFourOf, normalizeKeyName } from './keys.js';
import { AccountStoreError, type KeyRecord } from './accountStore.js';
import { emailKey } from './emailAddress.js';

/** An address as given, trimmed (what mail goes to and the account shows), and the key accounts are found by. */
export interface CheckedEmail {
  address: string;
  key: string;
}

/** The address and its key (emailAddress.ts), or AccountStoreError when it is not an address. */
export function checkedEmail(email: string): CheckedEmail {
  const address = email.trim();
  const key = /^[^\s@]+@[^\s@]+$/.test(address) ? emailKey(address) : undefined;
  if (key === undefined) throw new AccountStoreError(`"${email}" is not an e-mail address`);
  return { address, key };
}

/** The key to look an address up by; undefined for what is no address (no account has it). */
export const lookupKey = (email: string): string | undefined => emailKey(email.trim());

/** The key name as stored, or AccountStoreError when it is empty. */
export function keyName(name: string): string {
  const normalized = normalizeKeyName(name);
  if (normalized === undefined) throw new AccountStoreError(`a key needs a name (up to ${KEY_NAME_MAX} characters)`);
  return normalized;
}

export const newAccountId = (): string => `acc_${randomBytes(8).toString('hex')}`;

export const newKeyRecord = (key: string, accountId: string, name: string): KeyRecord => ({
  hash: hashKey(key),
  prefix: displayPrefix(key),
  accountId,
  name,
  lastFour: lastFourOf(key),
  createdAt: new Date().toISOString(),
});

/**
 * The record a `keys revoke` argument names: a whole key by its hash (`byHash`), else a display prefix that matches
 * exactly one key. Throws AccountStoreError for a malformed, ambiguous or unknown argument.
 */
export function keyNamedBy(keyOrPrefix: string, byHash: (hash: string) => KeyRecord | undefined, all: () => Iterable<KeyRecord>): KeyRecord {
  let record: KeyRecord | undefined;
  if (isWellFormedKey(keyOrPrefix)) record = byHash(hashKey(keyOrPrefix));
  else {
    if (!keyOrPrefix.startsWith(KEY_PREFIX) || keyOrPrefix.length < KEY_PREFIX.length + 3) {
      throw new AccountStoreError(`give a key or its prefix (${KEY_PREFIX} and at least 3 more characters)`);
    }
    const given = keyOrPrefix;
    const matches = [...all()].filter((k) => (given.length <= k.prefix.length ? k.prefix.startsWith(given) : given.startsWith(k.prefix)));
    if (matches.length > 1) throw new AccountStoreError(`${matches.length} keys match ${keyOrPrefix}; give the whole key`);
    record = matches[0];
  }
  if (!record) throw new AccountStoreError(`no key matches ${keyOrPrefix.slice(0, 12)}`);
  return record;
}
