// Every Redis key fleet mode uses, declared once (docs/fleet.md lists them). Keys that belong to one account carry
// `{accountId}` as a hash tag, so that a Redis Cluster keeps an account's keys together: a script that touches only
// one account's keys then runs on one node. Everything is under the `pt:` prefix (one Redis may serve other things).
const PREFIX = 'pt:';

export const redisKeys = {
  /** Hash: the account's per-minute and monthly counts (month, monthCount, windowStart, windowCount). */
  usage: (accountId: string) => `${PREFIX}usage:{${accountId}}`,
  /** Hash: UTC day (`YYYY-MM-DD`) → requests counted that day. */
  daily: (accountId: string) => `${PREFIX}daily:{${accountId}}`,
  /** String with a lifetime: a merge of counts made during a Redis outage was applied (access/usageScripts.ts). */
  usageMerge: (accountId: string, mergeId: string) => `${PREFIX}usagemerge:{${accountId}}:${mergeId}`,
  /** Hash: the account record. */
  account: (accountId: string) => `${PREFIX}account:{${accountId}}`,
  /** Hash: key hash → key record (JSON) of one account. */
  accountKeys: (accountId: string) => `${PREFIX}keys:{${accountId}}`,
  /** String: e-mail address → account id. */
  email: (email: string) => `${PREFIX}email:${email}`,
  /** String: key hash → account id. */
  keyOwner: (keyHash: string) => `${PREFIX}keyowner:${keyHash}`,
  /** Set: every account id. */
  accounts: () => `${PREFIX}accounts`,
  /** Counter: grows with every change to accounts, keys or plans. */
  version: () => `${PREFIX}version`,
  /** Stream: one entry per change (`version`, `accountId`, `kind`), read by every server from its last position. */
  changes: () => `${PREFIX}changes`,
  /** Prefix for the dashboard's short-lived records (sign-in requests, sessions, challenges, send limits). */
  identity: (name: string) => `${PREFIX}identity:${name}`,
  /** Prefix for passkey credentials and challenges. */
  passkey: (name: string) => `${PREFIX}passkey:${name}`,
  /** Prefix for billing state, customer and subscription indexes, processed events. */
  billing: (name: string) => `${PREFIX}billing:${name}`,
} as const;
