// The fleet-mode PasskeyStore: credentials and ceremony challenges in Redis, so a passkey registered through one server
// signs in through any other. A credential is a hash: its fixed part as JSON (`record`) and the parts a sign-in moves
// (`counter`, `backedUp`, `lastUsedAt`), so the counter check and its move are one Lua script. A challenge is taken with
// GETDEL: one ceremony response, one check, on whichever server it arrives.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CHALLENGE_TTL_MS, type ChallengePurpose, type PasskeyCredential, type PasskeyStore, type StoredChallenge, type UseRefusal } from './passkeyStore.js';
import { redisKeyPatterns, redisKeys } from './redisKeys.js';
import { RedisScript } from './redisScript.js';
import { scanKeys } from './redisScan.js';

/** How long Redis keeps a challenge past its ceremony's time (purgeExpired removes expired ones at once). */
const RETENTION_MS = 3_600_000;

/** KEYS: credential, the account's set. ARGV: id, accountId, recordJson, counter, backedUp. Returns 1 when added. */
const ADD = new RedisScript(
  2,
  `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'accountId', ARGV[2], 'record', ARGV[3], 'counter', ARGV[4], 'backedUp', ARGV[5])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
`,
);

/** KEYS: credential, the account's set. ARGV: id, accountId. Returns 1 when removed (only the account's own). */
const REMOVE = new RedisScript(
  2,
  `
if redis.call('HGET', KEYS[1], 'accountId') ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return 1
`,
);

/** KEYS: credential. ARGV: counter, backedUp ('1'/'0'), now. Returns 'ok', 'gone' or 'counter'. */
const RECORD_USE = new RedisScript(
  1,
  `
local stored = redis.call('HGET', KEYS[1], 'counter')
if not stored then return 'gone' end
stored = tonumber(stored)
local counter = tonumber(ARGV[1])
if (counter > 0 or stored > 0) and counter <= stored then return 'counter' end
redis.call('HSET', KEYS[1], 'counter', ARGV[1], 'backedUp', ARGV[2], 'lastUsedAt', ARGV[3])
return 'ok'
`,
);

type FixedPart = Omit<PasskeyCredential, 'counter' | 'backedUp' | 'lastUsedAt'>;

function credentialFromHash(hash: Record<string, string>): PasskeyCredential | undefined {
  if (!hash.record) return undefined;
  const fixed = JSON.parse(hash.record) as FixedPart;
  return {
    ...fixed,
    counter: Number(hash.counter),
    backedUp: hash.backedUp === '1',
    ...(hash.lastUsedAt === undefined ? {} : { lastUsedAt: Number(hash.lastUsedAt) }),
  };
}

export class RedisPasskeyStore implements PasskeyStore {
  constructor(private readonly redis: Redis) {
    for (const script of [ADD, REMOVE, RECORD_USE]) script.define(redis);
  }

  async userHandle(accountId: string): Promise<string> {
    const key = redisKeys.passkeyUser(accountId);
    // Made once: the first writer wins, everyone reads the winner's.
    await this.redis.set(key, randomBytes(32).toString('base64url'), 'NX');
    const handle = await this.redis.get(key);
    if (handle === null) throw new Error('the user handle was not stored');
    return handle;
  }

  async addCredential(credential: PasskeyCredential): Promise<boolean> {
    const { counter, backedUp, lastUsedAt, ...fixed } = credential;
    const added = await ADD.run(
      this.redis,
      [redisKeys.passkeyCredential(credential.id), redisKeys.passkeysOf(credential.accountId)],
      [credential.id, credential.accountId, JSON.stringify(fixed), counter, backedUp ? '1' : '0'],
    );
    if (added === 1 && lastUsedAt !== undefined) await this.redis.hset(redisKeys.passkeyCredential(credential.id), 'lastUsedAt', lastUsedAt);
    return added === 1;
  }

  async credential(id: string): Promise<PasskeyCredential | undefined> {
    return credentialFromHash(await this.redis.hgetall(redisKeys.passkeyCredential(id)));
  }

  async credentials(accountId: string): Promise<PasskeyCredential[]> {
    const ids = await this.redis.smembers(redisKeys.passkeysOf(accountId));
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(redisKeys.passkeyCredential(id));
    const results = (await pipeline.exec()) ?? [];
    const found: PasskeyCredential[] = [];
    for (const [error, hash] of results) {
      if (error) throw error;
      const credential = credentialFromHash(hash as Record<string, string>);
      if (credential && credential.accountId === accountId) found.push(credential);
    }
    return found.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async removeCredential(accountId: string, id: string): Promise<boolean> {
    return (await REMOVE.run(this.redis, [redisKeys.passkeyCredential(id), redisKeys.passkeysOf(accountId)], [id, accountId])) === 1;
  }

  async recordUse(id: string, counter: number, backedUp: boolean, now: number): Promise<{ ok: true } | { ok: false; reason: UseRefusal }> {
    const outcome = (await RECORD_USE.run(this.redis, [redisKeys.passkeyCredential(id)], [counter, backedUp ? '1' : '0', now])) as string;
    return outcome === 'ok' ? { ok: true } : { ok: false, reason: outcome as UseRefusal };
  }

  async putChallenge(binding: string, challenge: StoredChallenge): Promise<void> {
    await this.redis.set(redisKeys.passkeyChallenge(challenge.purpose, binding), JSON.stringify(challenge), 'PX', CHALLENGE_TTL_MS + RETENTION_MS);
  }

  async takeChallenge(binding: string, purpose: ChallengePurpose, now: number): Promise<StoredChallenge | undefined> {
    const json = await this.redis.getdel(redisKeys.passkeyChallenge(purpose, binding));
    if (json === null) return undefined;
    const challenge = JSON.parse(json) as StoredChallenge;
    return now < challenge.expiresAt && challenge.purpose === purpose ? challenge : undefined;
  }

  async purgeExpired(now: number): Promise<number> {
    let removed = 0;
    for await (const keys of scanKeys(this.redis, redisKeyPatterns.passkeyChallenges)) {
      for (const key of keys) {
        const json = await this.redis.get(key);
        if (json !== null && now >= (JSON.parse(json) as StoredChallenge).expiresAt) removed += await this.redis.del(key);
      }
    }
    return removed;
  }

  /** Nothing of its own to close: the connection belongs to whoever opened the stores. */
  async close(): Promise<void> {}
}
