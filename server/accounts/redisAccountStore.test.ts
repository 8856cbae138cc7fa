// Fleet mode's shared accounts on a real redis-server: what one store instance (one server) changes, every other
// sees within a second, also after Redis was killed and restarted and after the follower's connection was killed;
// a gap in the change log makes a full reload; one sign-in code signs in once however many servers try it.
import { describe, expect, it } from 'vitest';
import type { AccountStore } from './accountStore.js';
import { newSignIn, randomToken, sha256 } from './identityStore.js';
import { redisKeys } from './redisKeys.js';
import type { RedisAccountStore } from './redisAccountStore.js';
import { storeFixture } from '../../testing/storeFixture.js';

/** Polls until `check` holds, for at most `withinMs`; returns how long it took, or throws. */
async function within(withinMs: number, check: () => boolean): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - start;
}

/** Retries a write until Redis takes it (a restarted Redis answers once the client has reconnected). */
async function retried<T>(write: () => Promise<T> | T, forMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (Date.now() - start > forMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('Redis accounts shared by several servers', () => {
  const fixture = storeFixture('redis');

  const twoServers = async (): Promise<[AccountStore, AccountStore]> => [(await fixture.open()).accounts, (await fixture.open()).accounts];

  it('a key, a revocation and a plan made through one store reach another within a second', async () => {
    const [a, b] = await twoServers();
    const { key, account } = await a.createKey('shared@example.com', 'trial', 'first');
    const hash = sha256(key);
    await within(1000, () => b.allKeys().get(hash)?.accountId === account.id);
    expect(b.accountByEmail('shared@example.com')).toEqual(account);
    expect(b.version()).toBe(a.version());

    await a.revokeKeyOf(account.id, hash);
    await within(1000, () => b.allKeys().get(hash)?.revokedAt !== undefined);
    await a.setPlanById(account.id, 'business');
    await within(1000, () => b.accountById(account.id)?.plan === 'business');
    // The other way round, and a key of the same address lands on the same account on both.
    const second = await b.createKey('shared@example.com', 'trial', 'second');
    expect(second.account.id).toBe(account.id);
    await within(1000, () => a.keysOf(account.id).length === 2);
    expect(a.keysOf(account.id).map((k) => k.name)).toEqual(['first', 'second']);
    // A day of last use is seen everywhere too, without a version move.
    const version = b.version();
    await a.keyUsed([[sha256(second.key), '2026-05-01']]);
    await within(1000, () => b.allKeys().get(sha256(second.key))?.lastUsedDay === '2026-05-01');
    expect(b.version()).toBe(version);
  });

  it('two servers making a key for one new address at once make one account', async () => {
    const [a, b] = await twoServers();
    const made = await Promise.all([a.createKey('race@example.com'), b.createKey('race@example.com'), a.ensureAccount('race@example.com')]);
    expect(new Set(made.map((m) => m.account.id)).size).toBe(1);
    expect(made.filter((m) => m.newAccount)).toHaveLength(1);
    await within(1000, () => a.keysOf(made[0].account.id).length === 2 && b.keysOf(made[0].account.id).length === 2);
  });

  it('after Redis is killed (-9) and restarted, changes flow again within a second', async () => {
    const [a, b] = await twoServers();
    const before = await a.createKey('before@example.com');
    await within(1000, () => b.allKeys().has(sha256(before.key)));
    // AOF with fsync every second: wait for the write to reach the disk, then crash.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await fixture.server!.kill();
    await fixture.server!.restart();
    const after = await retried(() => a.createKey('after@example.com'));
    await within(1000, () => b.allKeys().has(sha256(after.key)));
    expect(b.allKeys().has(sha256(before.key))).toBe(true);
    await a.revoke(after.key);
    await within(1000, () => b.allKeys().get(sha256(after.key))?.revokedAt !== undefined);
  });

  it('after CLIENT KILL of the follower’s connection, changes flow again within a second', async () => {
    const [a, b] = await twoServers();
    const list = (await fixture.client.client('LIST')) as string;
    const follower = list.split('\n').find((line) => line.includes('name=prayer-times:test-2:accounts-follower'));
    expect(follower).toBeDefined();
    const id = /\bid=(\d+)/.exec(follower!)![1];
    expect(await fixture.client.client('KILL', 'ID', id)).toBe(1);
    const { key } = await a.createKey('killed@example.com');
    await within(1000, () => b.allKeys().has(sha256(key)));
  });

  it('a gap in the change log (entries trimmed away before a server read them) makes it reload everything', async () => {
    const [a, b] = await twoServers();
    const x = (await a.createKey('x@example.com')).account;
    const y = (await a.createKey('y@example.com')).account;
    await within(1000, () => b.accountById(y.id) !== undefined);
    const reloads = (b as RedisAccountStore).reloads;
    // One atomic step: X's plan changes with its entry, Y's entry follows, and the log is trimmed to Y's entry, so
    // every follower finds version v+2 after v: X's entry is gone, only a full reload can show X's plan.
    const results = await fixture.client
      .multi()
      .hset(redisKeys.account(x.id), 'plan', 'business')
      .incr(redisKeys.version())
      .xadd(redisKeys.changes(), '*', 'version', String(b.version() + 1), 'accountId', x.id, 'kind', 'plan')
      .incr(redisKeys.version())
      .xadd(redisKeys.changes(), '*', 'version', String(b.version() + 2), 'accountId', y.id, 'kind', 'plan')
      .xtrim(redisKeys.changes(), 'MAXLEN', 1)
      .exec();
    expect(results?.every(([error]) => !error)).toBe(true);
    await within(1000, () => b.accountById(x.id)?.plan === 'business');
    expect((b as RedisAccountStore).reloads).toBe(reloads + 1);
    expect(b.version()).toBe(a.version());
  });

  it('a counter that does not match the log (Redis lost its last writes) makes it reload everything', async () => {
    const [a, b] = await twoServers();
    const x = (await a.createKey('lost@example.com')).account;
    await within(1000, () => b.accountById(x.id) !== undefined);
    const reloads = (b as RedisAccountStore).reloads;
    // A change without its entry: only the version check (when the log is quiet) can find it.
    await fixture.client.multi().hset(redisKeys.account(x.id), 'plan', 'pro').incr(redisKeys.version()).exec();
    await within(3000, () => b.accountById(x.id)?.plan === 'pro');
    expect((b as RedisAccountStore).reloads).toBe(reloads + 1);
  });

  it('one sign-in code redeemed through two servers at once signs in exactly once', async () => {
    const [one, two] = [(await fixture.open()).identity, (await fixture.open()).identity];
    const browser = randomToken();
    const now = Date.now();
    const { code, linkToken, input } = newSignIn('once@example.com', browser, now);
    await one.createSignIn(input);
    const tries = await Promise.all(Array.from({ length: 20 }, (_, n) => (n % 2 === 0 ? one : two).redeemCode(sha256(browser), code, now + 1)));
    expect(tries.filter((t) => t.ok)).toHaveLength(1);
    expect(tries.filter((t) => !t.ok && t.reason === 'used')).toHaveLength(19);
    expect(await two.redeemLink(sha256(linkToken), now + 2)).toEqual({ ok: false, reason: 'used' });

    // Wrong codes counted across servers: five in all, then locked.
    const other = randomToken();
    const second = newSignIn('locked@example.com', other, now);
    await two.createSignIn(second.input);
    const wrong = second.code === '000000' ? '000001' : '000000';
    const wrongs = await Promise.all(Array.from({ length: 8 }, (_, n) => (n % 2 === 0 ? one : two).redeemCode(sha256(other), wrong, now + 1)));
    expect(wrongs.filter((t) => !t.ok && t.reason === 'wrong')).toHaveLength(5);
    expect(wrongs.filter((t) => !t.ok && t.reason === 'locked')).toHaveLength(3);
    expect(await one.redeemCode(sha256(other), second.code, now + 2)).toEqual({ ok: false, reason: 'locked' });
  });

  it('a passkey challenge is taken once, on whichever server the response arrives', async () => {
    const [one, two] = [(await fixture.open()).passkeys, (await fixture.open()).passkeys];
    const now = Date.now();
    await one.putChallenge('browser', { challenge: 'c', purpose: 'authenticate', expiresAt: now + 60_000 });
    const taken = await Promise.all(Array.from({ length: 10 }, (_, n) => (n % 2 === 0 ? one : two).takeChallenge('browser', 'authenticate', now)));
    expect(taken.filter((t) => t !== undefined)).toHaveLength(1);
  });
});
