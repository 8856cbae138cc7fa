// Every Redis key fleet mode uses, declared once (docs/fleet.md lists them). Keys that belong to one account carry
// `{accountId}` as a hash tag, so that a Redis Cluster keeps an account's keys together: a script that touches only
// one account's keys then runs on one node. Everything is under the `pt:` prefix (one Redis may serve other things).
const PREFIX = 'pt:';

export const redisKeys = {
  /** Hash: the account's per-minute and monthly counts (month, monthCount, windowStart, windowCount). */
  usage: (accountId: string) => `${PREFIX}usage:{${accountId}}`,
  /** Hash: UTC day (`YYYY-MM-DD`) → requests counted that day. */
  daily: (accountId: string) => `${PREFIX}daily:{${accountId}}`,
  /**
   * Hash with a lifetime (KEY_USAGE_KEPT_DAYS and a day): one account's usage per key on one UTC day,
   * `keyHash|operation|outcome` → requests (accounts/keyUsage.ts).
   */
  keyUsage: (accountId: string, day: string) => `${PREFIX}keyusage:{${accountId}}:${day}`,
  /** String with a lifetime (40 days): the quota mail of `level` percent for `month` was claimed (SET NX). */
  quotaAlert: (accountId: string, month: string, level: number) => `${PREFIX}quotaalert:{${accountId}}:${month}:${level}`,
  /** String with a lifetime: a merge of counts made during a Redis outage was applied (access/usageScripts.ts). */
  usageMerge: (accountId: string, mergeId: string) => `${PREFIX}usagemerge:{${accountId}}:${mergeId}`,
  /** Hash: the account record. */
  account: (accountId: string) => `${PREFIX}account:{${accountId}}`,
  /** Hash: key hash → key record (JSON) of one account. */
  accountKeys: (accountId: string) => `${PREFIX}keys:{${accountId}}`,
  /** String: an e-mail address's key (emailAddress.ts) → account id. */
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

  // The identity store's records (redisIdentityStore.ts), each with a TTL past its expiry.
  /** String (JSON): a sign-in request by its id. */
  signInRequest: (requestId: string) => `${PREFIX}identity:request:${requestId}`,
  /** String: a browser's (hash of its `__Host-signin` cookie) latest sign-in request id. */
  signInByBrowser: (browserHash: string) => `${PREFIX}identity:browser:${browserHash}`,
  /** String: the request id of a link token's hash. */
  signInByLink: (linkHash: string) => `${PREFIX}identity:link:${linkHash}`,
  /** String (JSON): a session by its token's hash. */
  session: (tokenHash: string) => `${PREFIX}identity:session:${tokenHash}`,
  /** Hash (windowStart, windowMs, count): a send limit's fixed window. */
  sendCounter: (key: string) => `${PREFIX}identity:hit:${key}`,

  // The passkey store's records (redisPasskeyStore.ts).
  /** Hash: `record` (the credential's JSON without its moving parts), `counter`, `backedUp`, `lastUsedAt`. */
  passkeyCredential: (credentialId: string) => `${PREFIX}passkey:credential:${credentialId}`,
  /** Set: the credential ids of an account. */
  passkeysOf: (accountId: string) => `${PREFIX}passkey:account:{${accountId}}`,
  /** String: the account's WebAuthn user handle. */
  passkeyUser: (accountId: string) => `${PREFIX}passkey:user:{${accountId}}`,
  /** String (JSON): a ceremony's challenge, by purpose and binding. */
  passkeyChallenge: (purpose: string, binding: string) => `${PREFIX}passkey:challenge:${purpose}:${binding}`,

  // The billing store's records (redisBillingStore.ts).
  /** String (JSON): an account's billing state. */
  billingState: (accountId: string) => `${PREFIX}billing:state:{${accountId}}`,
  /** String: customer id → account id. */
  billingCustomer: (customerId: string) => `${PREFIX}billing:customer:${customerId}`,
  /** String: subscription id → account id. */
  billingSubscription: (subscriptionId: string) => `${PREFIX}billing:subscription:${subscriptionId}`,
  /** String (JSON `{at, accountId?}`): a provider event id applied already (set once, with SET NX semantics). */
  billingEvent: (eventId: string) => `${PREFIX}billing:event:${eventId}`,
} as const;

/** SCAN patterns of the records a purge walks (a key of one of the forms above, any name). */
export const redisKeyPatterns = {
  daily: `${PREFIX}daily:*`,
  signInRequests: `${PREFIX}identity:request:*`,
  sessions: `${PREFIX}identity:session:*`,
  sendCounters: `${PREFIX}identity:hit:*`,
  passkeyChallenges: `${PREFIX}passkey:challenge:*`,
  /** Everything of this project (tests read it all to check that no secret is stored). */
  all: `${PREFIX}*`,
} as const;
