// Backups of the account store, as an operator takes them: `npm run cli -- backup` while a real server (two serving
// threads) answers counted requests and keys are being made, `restore` into a new data directory, and a real server
// started on it that knows every key, plan, session, passkey and this month's counts up to the documented second.
// Then what restore and backup refuse (a running server's data directory, a damaged backup, a store in the way, a
// directory in the way) and fleet mode's refusal against a real redis-server.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BackupManifest } from '../server/accounts/accountsBackup.js';
import { sha256 } from '../server/accounts/identityStore.js';
import { openAccountStore, openIdentityStore, openPasskeyStore } from '../server/accounts/openStores.js';
import type { PlanName } from '../server/accounts/plans.js';
import { startRedis, type RunningRedis } from '../testing/redisServer.js';
import { dataDirWithCatalog, runCli, startServer, type RunningServer } from '../testing/serverProcess.js';

const catalogDir = () => inject('catalogDataDir');
const tempDir = (name: string) => mkdtempSync(path.join(tmpdir(), `prayer-times-${name}-`));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PATH = '/api/v1/hijri?date=2026-03-01';
/** Each plan's monthly limit tells the plans apart in X-Quota-Limit; the minute's limit is out of the way. */
const PLAN_LIMITS: Record<PlanName, number> = { trial: 1_000_000_001, pro: 1_000_000_002, business: 1_000_000_003 };
/** The usage writer writes the counts every second (docs/keys-and-usage.md): a backup holds those answered before. */
const WRITER_SECOND_MS = 1000;

interface Client {
  key: string;
  plan: PlanName;
  /** When each counted request was sent, and when its answer came (ms since the epoch). */
  sent: number[];
  answered: number[];
}

interface MadeKey {
  key: string;
  plan: PlanName;
  /** The transaction began after `before` and was committed before `after`. */
  before: number;
  after: number;
}

async function quota(baseUrl: string, key: string): Promise<{ status: number; limit: number; remaining: number }> {
  const res = await fetch(baseUrl + PATH, { headers: { 'X-API-Key': key } });
  await res.arrayBuffer();
  return { status: res.status, limit: Number(res.headers.get('x-quota-limit')), remaining: Number(res.headers.get('x-quota-remaining')) };
}

describe('backup under load, restore, and a server on the restored data directory', () => {
  let server: RunningServer | undefined;
  let restored: RunningServer | undefined;
  let plansFile: string;
  const clients: Client[] = [];
  const madeKeys: MadeKey[] = [];
  const sessionToken = randomBytes(32).toString('base64url');
  let manifest: BackupManifest;
  let backupDir: string;
  let busyDataDir: string;
  let restoreRefusal: { code: number | null; stderr: string };

  beforeAll(async () => {
    plansFile = path.join(tempDir('plans'), 'plans.json');
    writeFileSync(plansFile, JSON.stringify(Object.fromEntries(Object.entries(PLAN_LIMITS).map(([plan, perMonth]) => [plan, { perMinute: 1e9, perMonth }]))));
    busyDataDir = dataDirWithCatalog(catalogDir());
    // Accounts on each plan before the server starts, a session and a passkey for the first.
    const accounts = openAccountStore(busyDataDir);
    const plans: PlanName[] = ['trial', 'pro', 'business', 'pro', 'trial', 'business'];
    for (const [i, plan] of plans.entries()) {
      const { key, account } = accounts.createKey(`client${i}@example.com`, plan);
      clients.push({ key, plan, sent: [], answered: [] });
      if (i === 0) {
        const identity = openIdentityStore(busyDataDir);
        const now = Date.now();
        await identity.createSession(sha256(sessionToken), { accountId: account.id, createdAt: now, expiresAt: now + 3_600_000, csrfSecret: 'backup-test' });
        await identity.close();
        const passkeys = openPasskeyStore(busyDataDir);
        const userHandle = await passkeys.userHandle(account.id);
        await passkeys.addCredential({
          id: 'backup-test-credential', accountId: account.id, publicKey: 'pQECAyYgASFYIA', counter: 0, transports: ['internal'],
          deviceType: 'multiDevice', backedUp: true, userHandle, name: 'Laptop kept in the backup', createdAt: now,
        });
        await passkeys.close();
      }
    }
    await accounts.close();
    server = await startServer({ DATA_DIR: busyDataDir, PLANS_FILE: plansFile, WORKERS: '2' });

    // The load: eight connections' worth of counted requests, and keys made (new accounts and new keys) meanwhile.
    let running = true;
    const load = Array.from({ length: 8 }, async (_, n) => {
      while (running) {
        const client = clients[n % clients.length];
        const sentAt = Date.now();
        const res = await fetch(server!.baseUrl + PATH, { headers: { 'X-API-Key': client.key } });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        client.sent.push(sentAt);
        client.answered.push(Date.now());
      }
    });
    const keyMaker = (async () => {
      const store = openAccountStore(busyDataDir);
      for (let i = 0; running; i++) {
        const plan: PlanName = (['trial', 'pro', 'business'] as const)[i % 3];
        const before = Date.now();
        const { key } = store.createKey(i % 2 ? `made${i}@example.com` : 'client1@example.com', plan);
        madeKeys.push({ key, plan: i % 2 ? plan : 'pro', before, after: Date.now() });
        await sleep(40);
      }
      await store.close();
    })();

    await sleep(2500);
    backupDir = path.join(tempDir('backups'), 'nightly');
    const backup = await runCli(['backup', '--to', backupDir], { DATA_DIR: busyDataDir });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up .* 1 passkey, 1 session, \d+ requests counted in \d{4}-\d\d; \d+ bytes, SHA-256 [0-9a-f]{64}\.\n$/);
    await sleep(1500);
    // A restore into the data directory of the running server is refused, whatever --replace says.
    restoreRefusal = await runCli(['restore', '--from', backupDir, '--replace'], { DATA_DIR: busyDataDir });
    running = false;
    await Promise.all([...load, keyMaker]);
    await server.stop();
    manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;

    const restoredDir = dataDirWithCatalog(catalogDir());
    const restore = await runCli(['restore', '--from', backupDir], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    restored = await startServer({ DATA_DIR: restoredDir, PLANS_FILE: plansFile, WORKERS: '2' });
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await restored?.stop();
  });

  it('took the copy while requests were counted and keys made: load before, during and after it', () => {
    const started = Date.parse(manifest.startedAt);
    const finished = Date.parse(manifest.finishedAt);
    const answered = clients.flatMap((c) => c.answered);
    expect(answered.filter((t) => t < started - WRITER_SECOND_MS).length).toBeGreaterThan(50);
    expect(answered.filter((t) => t > finished).length).toBeGreaterThan(50);
    expect(madeKeys.filter((k) => k.after < started).length).toBeGreaterThan(5);
    expect(madeKeys.filter((k) => k.before > finished).length).toBeGreaterThan(5);
    expect(manifest.files).toEqual([{ path: 'accounts/data.mdb', bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(manifest.contents.passkeys).toBe(1);
    expect(manifest.contents.sessions).toBe(1);
  });

  it('finds every account’s plan and this month’s count, up to the second before the backup began', async () => {
    const started = Date.parse(manifest.startedAt);
    const finished = Date.parse(manifest.finishedAt);
    let total = 0;
    for (const client of clients) {
      const { status, limit, remaining } = await quota(restored!.baseUrl, client.key);
      expect(status).toBe(200);
      expect(limit).toBe(PLAN_LIMITS[client.plan]);
      const count = limit - remaining - 1; // the count before this request
      total += count;
      // Every request answered a second before the copy began is in it; none sent after it ended.
      expect(count).toBeGreaterThanOrEqual(client.answered.filter((t) => t < started - WRITER_SECOND_MS).length);
      expect(count).toBeLessThanOrEqual(client.sent.filter((t) => t <= finished).length);
    }
    expect(total).toBe(manifest.contents.requestsThisMonth);
  });

  it('finds every key made before the backup began, with its plan, and none made after it ended', async () => {
    const started = Date.parse(manifest.startedAt);
    const finished = Date.parse(manifest.finishedAt);
    for (const made of madeKeys.filter((k) => k.after < started)) {
      const { status, limit } = await quota(restored!.baseUrl, made.key);
      expect(status).toBe(200);
      expect(limit).toBe(PLAN_LIMITS[made.plan]);
    }
    for (const made of madeKeys.filter((k) => k.before > finished)) {
      expect((await quota(restored!.baseUrl, made.key)).status).toBe(401);
    }
  });

  it('keeps the session and the passkey: the dashboard lists it to the signed-in account', async () => {
    const res = await fetch(`${restored!.baseUrl}/dashboard/passkeys`, { headers: { cookie: `__Host-session=${sessionToken}` }, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Laptop kept in the backup');
  });

  it('refused to restore into the data directory of the running server, naming its process', () => {
    expect(restoreRefusal.code).toBe(1);
    expect(restoreRefusal.stderr).toContain(`is open in process`);
    expect(restoreRefusal.stderr).toContain(String(server!.process.pid));
    expect(readdirSync(busyDataDir).filter((name) => name.startsWith('accounts'))).toEqual(['accounts']);
  });
});

describe('what backup and restore refuse', () => {
  let dataDir: string;
  let backupDir: string;

  beforeAll(async () => {
    dataDir = tempDir('data');
    const accounts = openAccountStore(dataDir);
    accounts.createKey('someone@example.com', 'pro');
    await accounts.close();
    backupDir = path.join(tempDir('backups'), 'one');
    expect((await runCli(['backup', '--to', backupDir], { DATA_DIR: dataDir })).code).toBe(0);
  });

  it('a backup whose store does not match its checksum, leaving the data directory untouched', async () => {
    const damaged = path.join(tempDir('backups'), 'damaged');
    cpSync(backupDir, damaged, { recursive: true });
    const file = path.join(damaged, 'accounts/data.mdb');
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] ^= 0xff;
    writeFileSync(file, bytes);
    const target = tempDir('restore-target');
    const result = await runCli(['restore', '--from', damaged], { DATA_DIR: target });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^restore failed: .*accounts\/data\.mdb has SHA-256 [0-9a-f]{64}, the manifest says [0-9a-f]{64}: the backup is damaged\n$/);
    expect(readdirSync(target)).toEqual([]);
  });

  it('a directory without a manifest (an unfinished backup)', async () => {
    const unfinished = path.join(tempDir('backups'), 'unfinished');
    cpSync(path.join(backupDir, 'accounts'), path.join(unfinished, 'accounts'), { recursive: true });
    const result = await runCli(['restore', '--from', unfinished], { DATA_DIR: tempDir('restore-target') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a backup: it has no manifest.json');
  });

  it('a data directory that has an account store, unless --replace, which keeps the old one beside', async () => {
    const target = tempDir('restore-target');
    const other = openAccountStore(target);
    other.createKey('other@example.com');
    await other.close();
    const refused = await runCli(['restore', '--from', backupDir], { DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('holds an account store already');
    const replaced = await runCli(['restore', '--from', backupDir, '--replace'], { DATA_DIR: target });
    expect(replaced.stderr).toBe('');
    expect(replaced.code).toBe(0);
    const names = readdirSync(target).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toBe('accounts');
    expect(names[1]).toMatch(/^accounts\.replaced-\d{4}-/);
    const restoredStore = openAccountStore(target);
    expect(restoredStore.accountByEmail('someone@example.com')?.plan).toBe('pro');
    expect(restoredStore.accountByEmail('other@example.com')).toBeUndefined();
    await restoredStore.close();
  });

  it('a backup into a directory that is not empty, and of a data directory without an account store', async () => {
    const into = await runCli(['backup', '--to', backupDir], { DATA_DIR: dataDir });
    expect(into.code).toBe(1);
    expect(into.stderr).toContain('is not an empty directory');
    const empty = tempDir('empty-data');
    const nothing = await runCli(['backup', '--to', path.join(tempDir('backups'), 'x')], { DATA_DIR: empty });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('there is no account store in');
    expect(existsSync(path.join(empty, 'accounts'))).toBe(false);
  });
});

describe('fleet mode: the accounts are in Redis', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('backup and restore refuse and say how to back Redis up, writing nothing', async () => {
    const target = path.join(tempDir('backups'), 'fleet');
    const backup = await runCli(['backup', '--to', target], { DATA_DIR: tempDir('data'), REDIS_URL: redis.url });
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(/^backup failed: REDIS_URL is set \(fleet mode\): the accounts, keys, sessions, passkeys and counts live in Redis/);
    expect(backup.stderr).toContain('RDB');
    expect(backup.stderr).toContain('AOF');
    expect(existsSync(target)).toBe(false);
    const restore = await runCli(['restore', '--from', target], { DATA_DIR: tempDir('data'), REDIS_URL: redis.url });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/^restore failed: REDIS_URL is set \(fleet mode\)/);
  });
});
