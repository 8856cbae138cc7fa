// The fleet-mode IdentityStore: sign-in requests, sessions and send counters in Redis, so a code sent by one server
// is redeemed on any other. What reads before it writes is one Lua script (a code's attempt, a link's use, a counter),
// so two servers cannot both use one code or both pass a limit's last slot. Times are the caller's (an injected clock
// in tests), as in the embedded store; Redis's TTLs only forget records, RETENTION_MS after they expired, so that
// "expired" and "used" can still be told apart from "none" meanwhile. purgeExpired removes what expired by the
// caller's clock at once, as the embedded store does.
import type { Redis } from 'ioredis';
import {
  codeHash,
  MAX_CODE_ATTEMPTS,
  MAX_LIMITS_PER_HIT,
  signInRequestOf,
  type IdentityStore,
  type Limit,
  type LinkState,
  type Redemption,
  type Session,
  type SignInRequest,
  type SignInRequestInput,
} from './identityStore.js';
import { redisKeyPatterns, redisKeys } from './redisKeys.js';
import { RedisScript } from './redisScript.js';
import { scanKeys } from './redisScan.js';

/** How long Redis keeps a record after it expired (the embedded store's hourly purge keeps them about as long). */
const RETENTION_MS = 3_600_000;
/** Tries when the browser's latest request changed between reading its id and using it. */
const REDEEM_TRIES = 3;

/**
 * One attempt on a request: a code (its hash, salted with the request id, compared here) or the link.
 * KEYS: request, the index that named it (browser or link). ARGV: requestId, 'code'|'link', codeHash, now, maxAttempts.
 * Returns {'ok', email} | {'wrong', attemptsLeft} | {'none'|'used'|'expired'|'locked'} | {'retry'} (index moved).
 */
const REDEEM = new RedisScript(
  2,
  `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return {'retry'} end
local r = redis.call('HMGET', KEYS[1], 'email', 'codeHash', 'expiresAt', 'failures', 'usedAt')
if not r[1] then return {'none'} end
if r[5] then return {'used'} end
if tonumber(ARGV[4]) >= tonumber(r[3]) then return {'expired'} end
local failures = tonumber(r[4])
if failures >= tonumber(ARGV[5]) then return {'locked'} end
if ARGV[2] == 'link' or ARGV[3] == r[2] then
  redis.call('HSET', KEYS[1], 'usedAt', ARGV[4])
  return {'ok', r[1]}
end
failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
return {'wrong', tostring(tonumber(ARGV[5]) - failures)}
`,
);

/**
 * All or nothing: counts one event in every counter when each is below its limit, else in none.
 * KEYS: the counters. ARGV: now, windowMs, retentionMs, then each counter's limit. Returns 1 when counted, 0 when a
 * limit is reached (nothing counted).
 */
const HIT_LUA = `
local now, windowMs, retentionMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local windows = {}
for i, key in ipairs(KEYS) do
  local c = redis.call('HMGET', key, 'windowStart', 'windowMs', 'count')
  local start, ms, count = tonumber(c[1]), tonumber(c[2]), tonumber(c[3])
  if not start or now >= start + ms then
    start, ms, count = now, windowMs, 0
  end
  if count >= tonumber(ARGV[3 + i]) then return 0 end
  windows[i] = {start, ms, count}
end
for i, key in ipairs(KEYS) do
  local start, ms, count = windows[i][1], windows[i][2], windows[i][3]
  redis.call('HSET', key, 'windowStart', start, 'windowMs', ms, 'count', count + 1)
  redis.call('PEXPIRE', key, math.max(1, start + ms - now) + retentionMs)
end
return 1
`;
/** The hit script for 1 … MAX_LIMITS_PER_HIT counters (a script declares its number of keys). */
const HIT = Array.from({ length: MAX_LIMITS_PER_HIT }, (_, i) => new RedisScript(i + 1, HIT_LUA));

const requestFromHash = (hash: Record<string, string>): SignInRequest | undefined =>
  hash.id
    ? {
        id: hash.id,
        email: hash.email,
        codeHash: hash.codeHash,
        linkHash: hash.linkHash,
        browserHash: hash.browserHash,
        createdAt: Number(hash.createdAt),
        expiresAt: Number(hash.expiresAt),
        failures: Number(hash.failures),
        ...(hash.usedAt === undefined ? {} : { usedAt: Number(hash.usedAt) }),
      }
    : undefined;

export class RedisIdentityStore implements IdentityStore {
  constructor(private readonly redis: Redis) {
    REDEEM.define(redis);
    for (const script of HIT) script.define(redis);
  }

  async createSignIn(input: SignInRequestInput): Promise<SignInRequest> {
    const request = signInRequestOf(input);
    const keepMs = request.expiresAt - input.now + RETENTION_MS;
    const key = redisKeys.signInRequest(request.id);
    const results = await this.redis
      .multi()
      .hset(key, { ...request })
      .pexpire(key, keepMs)
      .set(redisKeys.signInByBrowser(request.browserHash), request.id, 'PX', keepMs)
      .set(redisKeys.signInByLink(request.linkHash), request.id, 'PX', keepMs)
      .exec();
    if (!results || results.some(([error]) => error)) throw results?.find(([error]) => error)?.[0] ?? new Error('sign-in request not stored');
    return request;
  }

  private async redeem(indexKey: string, mode: 'code' | 'link', code: string, now: number): Promise<Redemption> {
    for (let attempt = 0; attempt < REDEEM_TRIES; attempt++) {
      const id = await this.redis.get(indexKey);
      if (id === null) return { ok: false, reason: 'none' };
      const reply = (await REDEEM.run(this.redis, [redisKeys.signInRequest(id), indexKey], [id, mode, mode === 'code' ? codeHash(id, code) : '', now, MAX_CODE_ATTEMPTS])) as string[];
      switch (reply[0]) {
        case 'retry':
          continue;
        case 'ok':
          return { ok: true, email: reply[1], requestId: id };
        case 'wrong':
          return { ok: false, reason: 'wrong', attemptsLeft: Number(reply[1]) };
        default:
          return { ok: false, reason: reply[0] as 'none' | 'used' | 'expired' | 'locked' };
      }
    }
    return { ok: false, reason: 'none' };
  }

  redeemCode(browserHash: string, code: string, now: number): Promise<Redemption> {
    return this.redeem(redisKeys.signInByBrowser(browserHash), 'code', code, now);
  }

  redeemLink(linkHash: string, now: number): Promise<Redemption> {
    return this.redeem(redisKeys.signInByLink(linkHash), 'link', '', now);
  }

  async peekLink(linkHash: string, now: number): Promise<LinkState> {
    const id = await this.redis.get(redisKeys.signInByLink(linkHash));
    const request = id === null ? undefined : requestFromHash(await this.redis.hgetall(redisKeys.signInRequest(id)));
    if (!request) return { state: 'none' };
    if (request.usedAt !== undefined) return { state: 'used' };
    if (now >= request.expiresAt) return { state: 'expired' };
    if (request.failures >= MAX_CODE_ATTEMPTS) return { state: 'locked' };
    return { state: 'valid', email: request.email, expiresAt: request.expiresAt };
  }

  async hit(limits: readonly Limit[], windowMs: number, now: number): Promise<boolean> {
    const script = HIT[limits.length - 1];
    if (!script) throw new Error(`hit takes 1 to ${MAX_LIMITS_PER_HIT} limits, not ${limits.length}`);
    const keys = limits.map(({ key }) => redisKeys.sendCounter(key));
    return (await script.run(this.redis, keys, [now, windowMs, RETENTION_MS, ...limits.map(({ limit }) => limit)])) === 1;
  }

  async createSession(tokenHash: string, session: Session): Promise<void> {
    await this.redis.set(redisKeys.session(tokenHash), JSON.stringify(session), 'PX', Math.max(1, session.expiresAt - session.createdAt) + RETENTION_MS);
  }

  async session(tokenHash: string, now: number): Promise<Session | undefined> {
    const json = await this.redis.get(redisKeys.session(tokenHash));
    const session = json === null ? undefined : (JSON.parse(json) as Session);
    return session && now < session.expiresAt ? session : undefined;
  }

  async endSession(tokenHash: string): Promise<void> {
    await this.redis.del(redisKeys.session(tokenHash));
  }

  /** Removes what expired by the caller's clock (Redis's TTLs would a little later); returns how many records went. */
  async purgeExpired(now: number): Promise<number> {
    let removed = 0;
    for await (const keys of scanKeys(this.redis, redisKeyPatterns.signInRequests)) {
      for (const key of keys) {
        const request = requestFromHash(await this.redis.hgetall(key));
        if (!request || now < request.expiresAt) continue;
        // The indexes go only while they still name this request (a newer request of the browser keeps its own).
        const browser = redisKeys.signInByBrowser(request.browserHash);
        const link = redisKeys.signInByLink(request.linkHash);
        const [browserId, linkId] = await this.redis.mget(browser, link);
        const stale = [key, ...(browserId === request.id ? [browser] : []), ...(linkId === request.id ? [link] : [])];
        await this.redis.del(...stale);
        removed++;
      }
    }
    for await (const keys of scanKeys(this.redis, redisKeyPatterns.sessions)) {
      for (const key of keys) {
        const json = await this.redis.get(key);
        if (json !== null && now >= (JSON.parse(json) as Session).expiresAt) removed += await this.redis.del(key);
      }
    }
    for await (const keys of scanKeys(this.redis, redisKeyPatterns.sendCounters)) {
      for (const key of keys) {
        const [start, ms] = await this.redis.hmget(key, 'windowStart', 'windowMs');
        if (start !== null && ms !== null && now >= Number(start) + Number(ms)) removed += await this.redis.del(key);
      }
    }
    return removed;
  }

  /** Nothing of its own to close: the connection belongs to whoever opened the stores. */
  async close(): Promise<void> {}
}
