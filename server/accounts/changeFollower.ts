// Keeps an AccountMirror current from Redis: every change to accounts and keys appends an entry (`version`,
// `accountId`, `kind`) to the change log (redisKeys.changes(), a Stream) in the same script that INCRs the version
// counter (redisKeys.version()). The follower reads the log with XREAD BLOCK on a connection of its own from its last
// entry id and re-reads the account of each entry. Pub/sub would lose what was published during a disconnect; a
// stream is read from where the follower stopped.
//
// Versions make the log checkable: a change entry carries the counter's new value, so entries arrive as v+1, v+2…;
// a note of use (`kind` used) carries the current value and moves nothing. An entry that does not continue the
// version reached (the follower's last id was trimmed away, or Redis lost its last second in a crash) is a gap: the
// follower reloads everything. After a lost connection, and whenever the log was quiet for BLOCK_MS, it proves
// continuity (its last entry is still in the log, and the counter equals the version reached after the entries that
// follow it), else reloads everything. So a change reaches every server within a second, also after Redis restarts.
import type { Redis } from 'ioredis';
import { log } from '../log.js';
import type { AccountMirror, AccountSnapshot } from './accountMirror.js';
import type { Account, KeyRecord } from './accountStore.js';
import { redisKeys } from './redisKeys.js';
import type { PlanName } from './plans.js';
import { followerCurrent } from '../threadCounters.js';

/** How long one XREAD waits for entries; when none came, continuity is checked (a cheap MULTI of XRANGE and GET). */
const BLOCK_MS = 2000;
/** Entries read at once. */
const READ_COUNT = 1000;
/** Accounts read in one pipeline during a reload. */
const RELOAD_BATCH = 500;
/** How often a follower without a connection looks again (ioredis reconnects by itself). */
const RECONNECT_POLL_MS = 50;

type StreamEntry = [id: string, fields: string[]];

/** Stream ids (`ms-seq`) in order. */
export function compareStreamIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am !== bm ? am - bm : as - bs;
}

const fieldsOf = (fields: string[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]] = fields[i + 1];
  return out;
};

/** An account hash as stored (id, email, plan, createdAt); undefined when empty (no such account). */
export function accountFromHash(hash: Record<string, string>): Account | undefined {
  if (!hash.id) return undefined;
  return { id: hash.id, email: hash.email, plan: hash.plan as PlanName, createdAt: hash.createdAt };
}

/** Reads accounts and their keys (pipelined, in batches): what the mirror applies. */
export async function readSnapshots(redis: Redis, ids: readonly string[]): Promise<AccountSnapshot[]> {
  const snapshots: AccountSnapshot[] = [];
  for (let start = 0; start < ids.length; start += RELOAD_BATCH) {
    const batch = ids.slice(start, start + RELOAD_BATCH);
    const pipeline = redis.pipeline();
    for (const id of batch) pipeline.hgetall(redisKeys.account(id)).hgetall(redisKeys.accountKeys(id));
    const results = (await pipeline.exec()) ?? [];
    batch.forEach((id, n) => {
      const [accountError, account] = results[2 * n] ?? [new Error('no reply')];
      const [keysError, keys] = results[2 * n + 1] ?? [new Error('no reply')];
      if (accountError || keysError) throw accountError ?? keysError;
      const records = Object.values(keys as Record<string, string>).map((json) => JSON.parse(json) as KeyRecord);
      snapshots.push({ id, account: accountFromHash(account as Record<string, string>), keys: records });
    });
  }
  return snapshots;
}

export class ChangeFollower {
  private lastId = '0-0';
  private lastVersion = 0;
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  /** Every read-and-apply runs after the one before: the mirror only ever moves forward. */
  private applying: Promise<unknown> = Promise.resolve();
  /** How many times everything was reloaded (the first load included): for tests and the log. */
  reloads = 0;

  constructor(
    /** Reads (XRANGE, the accounts): the store's command connection. */
    private readonly commands: Redis,
    /** XREAD BLOCK only: a connection of its own, so blocking delays no other command. */
    private readonly follower: Redis,
    private readonly mirror: AccountMirror,
  ) {}

  /** The counter's value the mirror is at. */
  version(): number {
    return this.lastVersion;
  }

  /** Loads everything, then follows the log until stop(). */
  async start(): Promise<void> {
    await this.exclusive(() => this.reload('start'));
    followerCurrent(Date.now());
    this.running = true;
    this.loopDone = this.follow();
  }

  /** Applies what the log holds now (a writer calls it after its write, to read its own write at once). */
  catchUp(): Promise<void> {
    return this.exclusive(() => this.sync());
  }

  async stop(): Promise<void> {
    this.running = false;
    // The blocked XREAD ends with the connection.
    this.follower.disconnect();
    await this.loopDone;
    await this.applying;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.applying.then(work);
    this.applying = result.catch(() => undefined);
    return result;
  }

  private async follow(): Promise<void> {
    let mustSync = false;
    let lost = false;
    while (this.running) {
      try {
        if (mustSync) {
          await this.exclusive(() => this.sync());
          followerCurrent(Date.now());
          mustSync = false;
          if (lost) log('info', 'accounts_follower_resumed', { version: this.lastVersion });
          lost = false;
        }
        const reply = (await this.follower.xread('COUNT', READ_COUNT, 'BLOCK', BLOCK_MS, 'STREAMS', redisKeys.changes(), this.lastId)) as
          | Array<[string, StreamEntry[]]>
          | null;
        if (!this.running) break;
        if (!reply || reply.length === 0) {
          mustSync = true; // quiet: check continuity (a lost log or counter shows here)
          continue;
        }
        await this.exclusive(() => this.apply(reply[0][1]));
        followerCurrent(Date.now());
      } catch (error) {
        if (!this.running) break;
        if (!lost) log('warn', 'accounts_follower_lost', { error: String(error) });
        lost = true;
        mustSync = true;
        await this.connected();
      }
    }
  }

  /** Resolves when both connections are ready again (or the follower stops). */
  private async connected(): Promise<void> {
    do await new Promise((resolve) => setTimeout(resolve, RECONNECT_POLL_MS));
    while (this.running && (this.follower.status !== 'ready' || this.commands.status !== 'ready'));
  }

  /** Applies the entries after the last one; proves continuity, else reloads. */
  private async sync(): Promise<void> {
    const results = await this.commands.multi().xrange(redisKeys.changes(), this.lastId, '+').get(redisKeys.version()).exec();
    if (!results) throw new Error('the change log read was aborted');
    const [[rangeError, range], [counterError, counter]] = results;
    if (rangeError || counterError) throw rangeError ?? counterError;
    const entries = range as StreamEntry[];
    if (this.lastId !== '0-0' && entries[0]?.[0] !== this.lastId) return this.reload('last entry gone');
    if (await this.apply(entries)) return;
    if (this.lastVersion !== Number(counter ?? 0)) await this.reload(`version ${this.lastVersion}, counter ${counter ?? 0}`);
  }

  /** Applies entries in order (those up to the last id are skipped); returns true when a gap made it reload instead. */
  private async apply(entries: readonly StreamEntry[]): Promise<boolean> {
    let id = this.lastId;
    let version = this.lastVersion;
    const touched = new Set<string>();
    for (const [entryId, fields] of entries) {
      if (compareStreamIds(entryId, id) <= 0) continue;
      const entry = fieldsOf(fields);
      const entryVersion = Number(entry.version);
      const expected = entry.kind === 'used' ? version : version + 1;
      if (entryVersion !== expected) {
        await this.reload(`gap: version ${entryVersion} after ${version}`);
        return true;
      }
      version = entryVersion;
      id = entryId;
      if (entry.accountId) touched.add(entry.accountId);
    }
    if (id === this.lastId) return false;
    const snapshots = await readSnapshots(this.commands, [...touched]);
    // The data first, then the version: a reader that sees the new version finds the new data.
    for (const snapshot of snapshots) this.mirror.apply(snapshot);
    this.lastId = id;
    this.lastVersion = version;
    return false;
  }

  /**
   * Reads everything. The counter, the log's last id and the account ids are read in one MULTI; accounts changed
   * while they are read are read again when their entries (after that id) arrive.
   */
  private async reload(reason: string): Promise<void> {
    const results = await this.commands
      .multi()
      .get(redisKeys.version())
      .xrevrange(redisKeys.changes(), '+', '-', 'COUNT', 1)
      .smembers(redisKeys.accounts())
      .exec();
    if (!results) throw new Error('the reload was aborted');
    const [[counterError, counter], [lastError, last], [idsError, ids]] = results;
    if (counterError || lastError || idsError) throw counterError ?? lastError ?? idsError;
    const snapshots = await readSnapshots(this.commands, ids as string[]);
    this.mirror.replaceAll(snapshots);
    this.lastId = (last as StreamEntry[])[0]?.[0] ?? '0-0';
    this.lastVersion = Number(counter ?? 0);
    this.reloads++;
    if (reason !== 'start') log('warn', 'accounts_reloaded', { reason, version: this.lastVersion, accounts: snapshots.length });
  }
}
