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

/** The key's last 4 characters, stored for display beside the prefix (10 of 35 characters shown in all). */
export const lastFourOf = (key: string): string => key.slice(-4);

/**
 * The non-secret id of a key record in URLs (`/dashboard/keys/{id}/revoke`): the first 16 hex digits of its SHA-256.
 * The hash is already what the store keys records by; 64 bits of it tell an account's keys apart and give nothing
 * towards using one (a preimage of SHA-256 over 190 random bits).
 */
export const keyIdOf = (hash: string): string => hash.slice(0, 16);

export const KEY_NAME_MAX = 60;

/** A key's name as stored: whitespace collapsed and trimmed, at most KEY_NAME_MAX characters; undefined if empty. */
export function normalizeKeyName(name: string): string | undefined {
  // Control characters (C0, DEL, C1) and line/paragraph separators become spaces; then runs of space collapse.
  const cleaned = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  if (cleaned === '') return undefined;
  return [...cleaned].slice(0, KEY_NAME_MAX).join('').trimEnd();
}

/** UTC day `YYYY-MM-DD` of an instant. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
