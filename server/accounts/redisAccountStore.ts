// The fleet-mode AccountStore: accounts and keys in Redis (key layout in redisKeys.ts, docs/fleet.md), read from an
// in-memory mirror (accountMirror.ts) that a change follower keeps current (changeFollower.ts). Every write is one
// Lua script that changes the records, INCRs the version and appends to the change log together, so no server can see
// a change without its log entry or the other way round. A write resolves once this store's own mirror holds it (the
// dashboard shows a new key on the next page); every other server's within a second.
//
// Usage: the per-minute and monthly counts live in the usage ledger's Redis hash (the limits' Lua script, owned by the
// access layer), so allUsage() is empty here and writeUsage() only adds the daily counts it is given (HINCRBY). The
// daily counts are a hash per account (redisKeys.daily), which the ledger's script may also write.
import type { Redis } from 'ioredis';
import { checkedEmail, keyName, keyNamedBy, lookupKey, newAccountId, newKeyRecord } from './accountRecords.js';
import { AccountMirror } from './accountMirror.js';
import { AccountStoreError, type Account, type AccountStore, type KeyRecord, type KeySettings } from './accountStore.js';
import { accountFromHash, ChangeFollower } from './changeFollower.js';
import { generateKey } from './keys.js';
import { log } from '../log.js';
import type { PlanName } from './plans.js';
import { redisKeyPatterns, redisKeys } from './redisKeys.js';
import { RedisScript } from './redisScript.js';
import { scanKeys } from './redisScan.js';
import type { Usage } from './usage.js';
import { daysFrom, type DailyCount } from './usageHistory.js';
import { KEY_OUTCOMES, KEY_USAGE_KEPT_DAYS, type KeyOutcome, type KeyUsageEntry } from './keyUsage.js';

/** Entries the change log keeps (about: MAXLEN ~); a server further behind than this reloads everything. */
export const CHANGE_LOG_LENGTH = 10_000;
/** The longest range `dailyUsage` answers (as the embedded store). */
const MAX_DAILY_RANGE = 1000;
/** How long a day's usage per key is kept: Redis expires it, so no server prunes it. */
const KEY_USAGE_SECONDS = (KEY_USAGE_KEPT_DAYS + 1) * 86_400;
/** How long the claim of a month's quota mail is kept: past the month's end. */
const QUOTA_ALERT_SECONDS = 40 * 86_400;

// Each change script takes the version counter and the change log as its last two keys and the log's length as its
// last argument, and ends with this: the new version and the entry, in the same atomic step as the change.
const LOG_CHANGE = `
local function logChange(accountId, kind)
  local version = redis.call('INCR', KEYS[#KEYS - 1])
  redis.call('XADD', KEYS[#KEYS], 'MAXLEN', '~', ARGV[#ARGV], '*', 'version', version, 'accountId', accountId, 'kind', kind)
  return version
end
`;

/**
 * Creates the account of an address unless it exists, and adds a key (when a key hash is given). The email key is the
 * address's emailKey; an account found by the mirror whose index entry is still under the address's key from before
 * emailKey (issue 27) gets the new entry, its record untouched.
 * KEYS: email, account, accountKeys, keyOwner (of the new key; unused without one), accounts, version, changes.
 * ARGV: id, email (as typed), plan, createdAt, keyHash ('' for none), keyJson, logLength.
 * Returns {'moved', id} when the address belongs to another id (the caller retries with it), else
 * {'created'|'added'|'same', id, email, plan, createdAt}.
 */
const CREATE_KEY = new RedisScript(
  7,
  `${LOG_CHANGE}
local existing = redis.call('GET', KEYS[1])
if existing and existing ~= ARGV[1] then return {'moved', existing} end
local created = false
if not existing then
  redis.call('SET', KEYS[1], ARGV[1])
  if redis.call('EXISTS', KEYS[2]) == 0 then
    redis.call('HSET', KEYS[2], 'id', ARGV[1], 'email', ARGV[2], 'plan', ARGV[3], 'createdAt', ARGV[4])
    redis.call('SADD', KEYS[5], ARGV[1])
    created = true
  end
end
local kind = created and 'account' or false
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[5], ARGV[6])
  redis.call('SET', KEYS[4], ARGV[1])
  kind = kind or 'key'
end
local account = redis.call('HMGET', KEYS[2], 'email', 'plan', 'createdAt')
local outcome = 'same'
if kind then
  logChange(ARGV[1], kind)
  outcome = created and 'created' or 'added'
end
return {outcome, ARGV[1], account[1], account[2], account[3]}
`,
);

/**
 * Revokes a key of an account (a revoked key stays revoked: its first time is kept).
 * KEYS: accountKeys, version, changes. ARGV: hash, revokedAt, accountId, logLength. Returns the record's JSON, or nil.
 */
const REVOKE_KEY = new RedisScript(
  3,
  `${LOG_CHANGE}
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return false end
local record = cjson.decode(json)
if record.revokedAt then return json end
record.revokedAt = ARGV[2]
json = cjson.encode(record)
redis.call('HSET', KEYS[1], ARGV[1], json)
logChange(ARGV[3], 'revoke')
return json
`,
);

/**
 * Renames a key of an account and sets its restriction lists (absent: lifted). Lists are never empty (cjson would
 * write an empty one as an object).
 * KEYS: accountKeys, version, changes. ARGV: hash, settings JSON ({name, allowedOrigins?, allowedRanges?}), accountId,
 * logLength. Returns the record's JSON, or nil.
 */
const UPDATE_KEY = new RedisScript(
  3,
  `${LOG_CHANGE}
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return false end
local record = cjson.decode(json)
local change = cjson.decode(ARGV[2])
record.name = change.name
record.allowedOrigins = change.allowedOrigins
record.allowedRanges = change.allowedRanges
json = cjson.encode(record)
redis.call('HSET', KEYS[1], ARGV[1], json)
logChange(ARGV[3], 'key')
return json
`,
);

/** KEYS: account, version, changes. ARGV: plan, accountId, logLength. Returns {id, email, plan, createdAt}, or nil. */
const SET_PLAN = new RedisScript(
  3,
  `${LOG_CHANGE}
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HGET', KEYS[1], 'plan') ~= ARGV[1] then
  redis.call('HSET', KEYS[1], 'plan', ARGV[1])
  logChange(ARGV[2], 'plan')
end
return redis.call('HMGET', KEYS[1], 'id', 'email', 'plan', 'createdAt')
`,
);

/**
 * Notes a key's day of last use, unless a later day is noted. A note is not a change: its log entry carries the
 * current version (no server reloads its keys for it) and lets every mirror show the day.
 * KEYS: accountKeys, version, changes. ARGV: hash, day, accountId, logLength. Returns 1 when noted.
 */
const NOTE_USE = new RedisScript(
  3,
  `
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return 0 end
local record = cjson.decode(json)
if record.lastUsedDay and record.lastUsedDay >= ARGV[2] then return 0 end
record.lastUsedDay = ARGV[2]
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(record))
local version = redis.call('GET', KEYS[2]) or '0'
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], '*', 'version', version, 'accountId', ARGV[3], 'kind', 'used')
return 1
`,
);

/** KEYS: daily. ARGV: beforeDay. Deletes the days before it; returns how many. */
const PRUNE_DAILY = new RedisScript(
  1,
  `
local removed = 0
for _, day in ipairs(redis.call('HKEYS', KEYS[1])) do
  if day < ARGV[1] then
    redis.call('HDEL', KEYS[1], day)
    removed = removed + 1
  end
end
return removed
`,
);

const SCRIPTS = [CREATE_KEY, REVOKE_KEY, UPDATE_KEY, SET_PLAN, NOTE_USE, PRUNE_DAILY];

const accountOfReply = (values: unknown[]): Account => {
  const [id, email, plan, createdAt] = values as string[];
  return { id, email, plan: plan as PlanName, createdAt };
};

/** The change log's keys, the last two of every change script. */
const LOG_KEYS = [redisKeys.version(), redisKeys.changes()] as const;

export class RedisAccountStore implements AccountStore {
  private readonly mirror = new AccountMirror();
  private readonly follower: ChangeFollower;

  private constructor(
    /** Commands (shared with the other stores of openStores); scripts are defined on it. */
    private readonly redis: Redis,
    followerConnection: Redis,
  ) {
    for (const script of SCRIPTS) script.define(redis);
    this.follower = new ChangeFollower(redis, followerConnection, this.mirror);
  }

  /** Loads every account and key and starts following; `followerConnection` becomes the store's (closed with it). */
  static async open(redis: Redis, followerConnection: Redis): Promise<RedisAccountStore> {
    const store = new RedisAccountStore(redis, followerConnection);
    try {
      await store.follower.start();
    } catch (error) {
      followerConnection.disconnect();
      throw error;
    }
    return store;
  }

  /** How many times the mirror was reloaded in full (1 after opening): a gap or an unprovable reconnect adds one. */
  get reloads(): number {
    return this.follower.reloads;
  }

  version(): number {
    return this.follower.version();
  }

  /** After a write: this store's mirror takes it (and whatever came before it) now; the follower would, a moment later. */
  private async caughtUp(): Promise<void> {
    try {
      await this.follower.catchUp();
    } catch (error) {
      log('warn', 'accounts_catch_up_failed', { error: String(error) });
    }
  }

  private async createOrAdd(email: string, plan: PlanName, key: { key: string; name: string } | undefined): Promise<{ account: Account; outcome: string; record?: KeyRecord }> {
    const { address, key: emailIndex } = checkedEmail(email);
    let id = this.mirror.accountByEmail(emailIndex)?.id ?? newAccountId();
    // The address may have been taken by another id since the mirror was read (another server): then once more with it.
    for (let attempt = 0; attempt < 3; attempt++) {
      const record = key && newKeyRecord(key.key, id, key.name);
      const reply = (await CREATE_KEY.run(
        this.redis,
        [redisKeys.email(emailIndex), redisKeys.account(id), redisKeys.accountKeys(id), redisKeys.keyOwner(record?.hash ?? ''), redisKeys.accounts(), ...LOG_KEYS],
        [id, address, plan, new Date().toISOString(), record?.hash ?? '', record ? JSON.stringify(record) : '', CHANGE_LOG_LENGTH],
      )) as string[];
      if (reply[0] === 'moved') {
        id = reply[1];
        continue;
      }
      await this.caughtUp();
      return { account: accountOfReply(reply.slice(1)), outcome: reply[0], record };
    }
    throw new AccountStoreError(`the account of ${address} kept changing; try again`);
  }

  async createKey(email: string, plan: PlanName = 'trial', name = 'CLI key'): Promise<{ key: string; account: Account; newAccount: boolean }> {
    const named = keyName(name);
    const key = generateKey();
    const { account, outcome } = await this.createOrAdd(email, plan, { key, name: named });
    return { key, account, newAccount: outcome === 'created' };
  }

  async ensureAccount(email: string): Promise<{ account: Account; newAccount: boolean }> {
    const { account, outcome } = await this.createOrAdd(email, 'trial', undefined);
    return { account, newAccount: outcome === 'created' };
  }

  private async revokeRecord(accountId: string, keyHash: string): Promise<KeyRecord | undefined> {
    const json = (await REVOKE_KEY.run(
      this.redis,
      [redisKeys.accountKeys(accountId), ...LOG_KEYS],
      [keyHash, new Date().toISOString(), accountId, CHANGE_LOG_LENGTH],
    )) as string | null;
    await this.caughtUp();
    return json === null ? undefined : (JSON.parse(json) as KeyRecord);
  }

  async revoke(keyOrPrefix: string): Promise<KeyRecord> {
    const record = keyNamedBy(keyOrPrefix, (hash) => this.mirror.keys.get(hash), () => this.mirror.keys.values());
    const revoked = await this.revokeRecord(record.accountId, record.hash);
    if (!revoked) throw new AccountStoreError(`no key matches ${keyOrPrefix.slice(0, 12)}`);
    return revoked;
  }

  async revokeKeyOf(accountId: string, keyHash: string): Promise<KeyRecord | undefined> {
    // The script reads the account's own keys hash: another account's key is never found there.
    return this.revokeRecord(accountId, keyHash);
  }

  async updateKeyOf(accountId: string, keyHash: string, change: KeySettings): Promise<KeyRecord | undefined> {
    const settings: KeySettings = { name: keyName(change.name) };
    if (change.allowedOrigins?.length) settings.allowedOrigins = change.allowedOrigins;
    if (change.allowedRanges?.length) settings.allowedRanges = change.allowedRanges;
    // The script reads the account's own keys hash: another account's key is never found there.
    const json = (await UPDATE_KEY.run(this.redis, [redisKeys.accountKeys(accountId), ...LOG_KEYS], [keyHash, JSON.stringify(settings), accountId, CHANGE_LOG_LENGTH])) as
      | string
      | null;
    await this.caughtUp();
    return json === null ? undefined : (JSON.parse(json) as KeyRecord);
  }

  async setPlan(email: string, plan: PlanName): Promise<Account> {
    const { key } = checkedEmail(email);
    const account = this.mirror.accountByEmail(key) ?? (await this.accountIdOfEmail(key));
    if (!account) throw new AccountStoreError(`no account for ${email}`);
    return this.setPlanById(account.id, plan);
  }

  /** An account the mirror may not hold yet (created on another server a moment ago). */
  private async accountIdOfEmail(key: string): Promise<{ id: string } | undefined> {
    const id = await this.redis.get(redisKeys.email(key));
    return id === null ? undefined : { id };
  }

  async setPlanById(id: string, plan: PlanName): Promise<Account> {
    const reply = (await SET_PLAN.run(this.redis, [redisKeys.account(id), ...LOG_KEYS], [plan, id, CHANGE_LOG_LENGTH])) as string[] | null;
    if (!reply) throw new AccountStoreError(`no account ${id}`);
    await this.caughtUp();
    return accountOfReply(reply);
  }

  accountByEmail(email: string): Account | undefined {
    const key = lookupKey(email);
    return key === undefined ? undefined : this.mirror.accountByEmail(key);
  }

  accountById(id: string): Account | undefined {
    return this.mirror.accounts.get(id);
  }

  allAccounts(): ReadonlyMap<string, Account> {
    return this.mirror.accounts;
  }

  allKeys(): ReadonlyMap<string, KeyRecord> {
    return this.mirror.keys;
  }

  keysOf(accountId: string): KeyRecord[] {
    return this.mirror.keysOf(accountId);
  }

  async createKeyFor(accountId: string, name: string): Promise<{ key: string; record: KeyRecord }> {
    const named = keyName(name);
    const account = this.mirror.accounts.get(accountId) ?? accountFromHash(await this.redis.hgetall(redisKeys.account(accountId)));
    if (!account) throw new AccountStoreError(`no account ${accountId}`);
    const key = generateKey();
    const { record } = await this.createOrAdd(account.email, account.plan, { key, name: named });
    return { key, record: record! };
  }

  /** The ledger's records in Redis (redisUsageLedger.ts writes them), read in one pipeline. */
  async monthlyUsage(): Promise<Map<string, Usage>> {
    const ids = [...this.mirror.accounts.keys()];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hmget(redisKeys.usage(id), 'month', 'monthCount', 'windowStart', 'windowCount');
    const replies = (await pipeline.exec()) ?? [];
    const usage = new Map<string, Usage>();
    replies.forEach(([error, fields], i) => {
      if (error) throw error;
      const [month, monthCount, windowStart, windowCount] = fields as (string | null)[];
      if (month !== null) usage.set(ids[i], { month, monthCount: Number(monthCount), windowStart: Number(windowStart), windowCount: Number(windowCount) });
    });
    return usage;
  }

  /** In fleet mode the monthly counts are the ledger's (in Redis): nothing to load here. */
  allUsage(): Map<string, Usage> {
    return new Map();
  }

  /**
   * Adds the daily counts (HINCRBY, one MULTI). The monthly records are not written: in fleet mode the ledger's own
   * script keeps them in Redis, and a server's local counts of an outage are merged back by the ledger.
   */
  async writeUsage(_entries: Iterable<[string, Usage]>, daily: Iterable<[string, string, number]> = []): Promise<void> {
    const multi = this.redis.multi();
    let commands = 0;
    for (const [accountId, day, requests] of daily) {
      if (requests <= 0) continue;
      multi.hincrby(redisKeys.daily(accountId), day, requests);
      commands++;
    }
    if (commands === 0) {
      multi.discard();
      return;
    }
    const results = await multi.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('daily usage write aborted');
  }

  async dailyUsage(accountId: string, fromDay: string, toDay: string): Promise<DailyCount[]> {
    const days = daysFrom(fromDay, toDay);
    if (days.length > MAX_DAILY_RANGE) throw new AccountStoreError(`at most ${MAX_DAILY_RANGE} days at once`);
    if (days.length === 0) return [];
    const counts = await this.redis.hmget(redisKeys.daily(accountId), ...days);
    return days.map((day, n) => ({ day, count: Number(counts[n] ?? 0) }));
  }

  /** Every account's daily hash (SCAN: also the hashes of accounts the ledger counted and this store never saw). */
  async pruneDailyUsage(beforeDay: string): Promise<void> {
    for await (const keys of scanKeys(this.redis, redisKeyPatterns.daily)) {
      for (const key of keys) await PRUNE_DAILY.run(this.redis, [key], [beforeDay]);
    }
  }

  /** HINCRBY per entry and an EXPIRE per day hash touched, in one MULTI: several servers' counts add up. */
  async addKeyUsage(entries: Iterable<KeyUsageEntry>): Promise<void> {
    const multi = this.redis.multi();
    const touched = new Set<string>();
    for (const e of entries) {
      if (e.requests <= 0) continue;
      const hash = redisKeys.keyUsage(e.accountId, e.day);
      multi.hincrby(hash, `${e.keyHash}|${e.operation}|${e.outcome}`, e.requests);
      touched.add(hash);
    }
    if (touched.size === 0) {
      multi.discard();
      return;
    }
    for (const hash of touched) multi.expire(hash, KEY_USAGE_SECONDS);
    const results = await multi.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('key usage write aborted');
  }

  async keyUsage(accountId: string, fromDay: string, toDay: string): Promise<KeyUsageEntry[]> {
    const days = daysFrom(fromDay, toDay);
    if (days.length > MAX_DAILY_RANGE) throw new AccountStoreError(`at most ${MAX_DAILY_RANGE} days at once`);
    const pipeline = this.redis.pipeline();
    for (const day of days) pipeline.hgetall(redisKeys.keyUsage(accountId, day));
    const replies = (await pipeline.exec()) ?? [];
    const entries: KeyUsageEntry[] = [];
    replies.forEach(([error, fields], n) => {
      if (error) throw error;
      for (const [field, value] of Object.entries(fields as Record<string, string>)) {
        const [keyHash, operation, outcome] = field.split('|');
        const requests = Number(value);
        if (requests > 0 && (KEY_OUTCOMES as readonly string[]).includes(outcome)) {
          entries.push({ accountId, keyHash, day: days[n], operation, outcome: outcome as KeyOutcome, requests });
        }
      }
    });
    return entries;
  }

  /** SET NX: one server wins; the marker outlives the month (40 days) and then goes by itself. */
  async claimQuotaAlert(accountId: string, month: string, level: number): Promise<boolean> {
    return (await this.redis.set(redisKeys.quotaAlert(accountId, month, level), new Date().toISOString(), 'EX', QUOTA_ALERT_SECONDS, 'NX')) === 'OK';
  }

  /** Nothing to do: each day's hash expires by itself. */
  async pruneKeyUsage(): Promise<void> {}

  /** Writes the days of last use, each by the key's account's script; a day earlier than the stored one is ignored. */
  async keyUsed(entries: Iterable<[string, string]>): Promise<void> {
    const latest = new Map<string, string>();
    for (const [hash, day] of entries) if ((latest.get(hash) ?? '') < day) latest.set(hash, day);
    if (latest.size === 0) return;
    const pipeline = this.redis.pipeline();
    let noted = 0;
    for (const [hash, day] of latest) {
      const accountId = this.mirror.keys.get(hash)?.accountId ?? (await this.redis.get(redisKeys.keyOwner(hash)));
      if (!accountId) continue;
      void NOTE_USE.run(pipeline, [redisKeys.accountKeys(accountId), ...LOG_KEYS], [hash, day, accountId, CHANGE_LOG_LENGTH]);
      noted++;
    }
    if (noted === 0) return;
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('last-use write aborted');
    await this.caughtUp();
  }

  /** Stops following (the command connection belongs to whoever opened it). */
  async close(): Promise<void> {
    await this.follower.stop();
  }
}
