// API keys: `mk_` and 32 base62 characters from a CSPRNG. Only the SHA-256 of a key is ever stored, with a
// display prefix (`mk_` and the first 6 characters) that lets people tell their keys apart.
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_BODY_LENGTH = 32;
export const KEY_PREFIX = 'mk_';
const KEY_PATTERN = /^mk_[0-9A-Za-z]{32}$/;

/** A new key. Bytes of 248 and above are skipped so that each of the 62 characters is equally likely. */
export function generateKey(): string {
  let body = '';
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(KEY_BODY_LENGTH * 2)) {
      if (byte < 248 && body.length < KEY_BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return KEY_PREFIX + body;
}

export const isWellFormedKey = (text: string): boolean => KEY_PATTERN.test(text);

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export const displayPrefix = (key: string): string => key.slice(0, KEY_PREFIX.length + 6);
