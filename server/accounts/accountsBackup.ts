// Backing up and restoring the embedded account store (DATA_DIR/accounts: accounts, keys, plans, usage counts, daily
// usage, sign-in and sessions, passkeys, billing state), the one LMDB environment whose loss cannot be rebuilt (the
// catalog and the timetables are built again by `make catalog` and `make precompute`).
//
// A backup is LMDB's own copy (mdb_env_copy2 with compaction) taken inside one read transaction: consistent while a
// server serves and writes its counts every second, and without stopping it. The copy is opened once to check that it
// reads and to count what it holds, then named with its SHA-256 in manifest.json, written last: a directory without
// a manifest is not a backup. A restore checks the manifest's checksums first, copies the store into a directory
// beside DATA_DIR/accounts, checks it again there and renames it into place; it refuses a data directory whose
// account store a process has open, and one that has an account store unless told to replace it (the old one is then
// kept beside, renamed).
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { accountsPath, openAccountsEnvironment } from './accountsEnvironment.js';
import { environmentHolders } from './environmentHolders.js';
import type { Usage } from './usage.js';

export const MANIFEST = 'manifest.json';
export const BACKUP_FORMAT = 'prayer-times-accounts-backup/1';
/** The store's file inside a backup and inside DATA_DIR. */
const STORE_FILE = 'data.mdb';
const STORE_IN_BACKUP = `accounts/${STORE_FILE}`;

/** What an operator can fix (no store, a target in the way, a damaged backup, a running server): one line, no stack. */
export class BackupError extends Error {}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  /** When the copy's read transaction began (ISO): the backup holds the store as it stood then. */
  startedAt: string;
  finishedAt: string;
  /** Where it was taken from. */
  host: string;
  dataDir: string;
  files: Array<{ path: string; bytes: number; sha256: string }>;
  /** What the copy holds, counted in the copy itself. */
  contents: BackupContents;
}

export interface BackupContents {
  accounts: number;
  keys: number;
  passkeys: number;
  sessions: number;
  /** The UTC month the counts below are of (the month of startedAt). */
  month: string;
  /** Accounts with requests counted in that month, and those requests. */
  accountsCountedThisMonth: number;
  requestsThisMonth: number;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const isEmptyDir = (dir: string): boolean => readdirSync(dir).length === 0;

/** Opens a copied store read-only, counts what it holds and lets it go (removing the lock file opening made). */
async function contentsOf(dir: string, month: string): Promise<BackupContents> {
  const root = open({ path: dir, maxDbs: 32, readOnly: true });
  try {
    const count = (name: string): number => root.openDB({ name })?.getCount() ?? 0;
    let accountsCountedThisMonth = 0;
    let requestsThisMonth = 0;
    const usage = root.openDB<Usage, string>({ name: 'usage' });
    if (usage) {
      for (const { value } of usage.getRange()) {
        if (value.month !== month || value.monthCount === 0) continue;
        accountsCountedThisMonth++;
        requestsThisMonth += value.monthCount;
      }
    }
    return { accounts: count('accounts'), keys: count('keys'), passkeys: count('passkeys'), sessions: count('sessions'), month, accountsCountedThisMonth, requestsThisMonth };
  } finally {
    await root.close();
    rmSync(path.join(dir, 'lock.mdb'), { force: true });
  }
}

/**
 * Copies DATA_DIR/accounts into `toDir` (new, or empty) while anything may be using it: `toDir/accounts/data.mdb`,
 * compacted, and `toDir/manifest.json`.
 */
export async function backupAccounts(dataDir: string, toDir: string, now: () => number = Date.now): Promise<BackupManifest> {
  const source = accountsPath(dataDir);
  if (!existsSync(path.join(source, STORE_FILE))) {
    throw new BackupError(`there is no account store in ${source} to back up (DATA_DIR is ${dataDir})`);
  }
  const target = path.resolve(toDir);
  if (existsSync(target) && (!statSync(target).isDirectory() || !isEmptyDir(target))) {
    throw new BackupError(`${target} is not an empty directory: back up into a new or empty one (a backup is never written over another)`);
  }
  const created = !existsSync(target);
  mkdirSync(target, { recursive: true });
  try {
    return await copyInto(dataDir, target, now);
  } catch (error) {
    // Nothing half-done stays behind: the directory is as it was (or gone, if this made it).
    if (created) rmSync(target, { recursive: true, force: true });
    else for (const name of readdirSync(target)) rmSync(path.join(target, name), { recursive: true, force: true });
    throw error;
  }
}

async function copyInto(dataDir: string, target: string, now: () => number): Promise<BackupManifest> {
  // No dot in the name: lmdb-js takes a path with an extension for a file of its own, not a directory.
  const partial = path.join(target, 'accounts-partial');
  mkdirSync(partial);
  const environment = openAccountsEnvironment(dataDir);
  let startedAt: number;
  try {
    startedAt = now();
    // LMDB copies inside one read transaction (a snapshot), leaving out free pages (compaction); writers go on.
    await environment.root.backup(partial, true);
  } finally {
    await environment.close();
  }
  const contents = await contentsOf(partial, new Date(startedAt).toISOString().slice(0, 7));
  const finished = path.join(target, 'accounts');
  renameSync(partial, finished);
  const file = path.join(finished, STORE_FILE);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(now()).toISOString(),
    host: hostname(),
    dataDir: path.resolve(dataDir),
    files: [{ path: STORE_IN_BACKUP, bytes: statSync(file).size, sha256: await sha256Of(file) }],
    contents,
  };
  // The manifest last, whole or not at all: a directory without one is not a backup.
  writeFileSync(path.join(target, `${MANIFEST}.partial`), JSON.stringify(manifest, null, 2) + '\n');
  renameSync(path.join(target, `${MANIFEST}.partial`), path.join(target, MANIFEST));
  return manifest;
}

/** A backup's manifest, checked for shape; throws BackupError for anything that is not one. */
export function readManifest(fromDir: string): BackupManifest {
  const file = path.join(fromDir, MANIFEST);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as BackupManifest;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new BackupError(missing ? `${fromDir} is not a backup: it has no ${MANIFEST} (an unfinished backup has none)` : `${file} is not readable JSON: ${(error as Error).message}`);
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.files) || !manifest.files.some((f) => f?.path === STORE_IN_BACKUP)) {
    throw new BackupError(`${file} is not a manifest of this program's backups (format ${BACKUP_FORMAT}, naming ${STORE_IN_BACKUP})`);
  }
  return manifest;
}

/** Checks a file against the manifest's size and SHA-256. */
async function checkFile(file: string, expected: { path: string; bytes: number; sha256: string }, where: string): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`${where}: ${expected.path} is missing`);
  const bytes = statSync(file).size;
  if (bytes !== expected.bytes) throw new BackupError(`${where}: ${expected.path} has ${bytes} bytes, the manifest says ${expected.bytes}: the backup is damaged`);
  const sha256 = await sha256Of(file);
  if (sha256 !== expected.sha256) throw new BackupError(`${where}: ${expected.path} has SHA-256 ${sha256}, the manifest says ${expected.sha256}: the backup is damaged`);
}

/** Checks every file of a backup against its manifest; the manifest when they all match. */
export async function verifyBackup(fromDir: string): Promise<BackupManifest> {
  const manifest = readManifest(fromDir);
  for (const entry of manifest.files) await checkFile(path.join(fromDir, entry.path), entry, fromDir);
  return manifest;
}

/** Refuses when any process has the account store of `dataDir` open (a server, or a CLI command). */
function refuseIfInUse(dataDir: string): void {
  const holders = environmentHolders(path.join(accountsPath(dataDir), 'lock.mdb'));
  if (holders.length > 0) {
    throw new BackupError(
      `the account store in ${accountsPath(dataDir)} is open in process ${holders.join(', ')} (a server running on DATA_DIR ${dataDir}?): stop it before restoring`,
    );
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the account store that was replaced went (with `replace`), else undefined. */
  replacedTo: string | undefined;
}

/**
 * Puts a backup's account store into a stopped data directory. Refuses a damaged backup, a data directory whose store
 * is open, and one that has a store already unless `replace` (the old one is renamed `accounts.replaced-<time>`).
 */
export async function restoreAccounts(fromDir: string, dataDir: string, options: { replace?: boolean; now?: () => number } = {}): Promise<RestoreResult> {
  const now = options.now ?? Date.now;
  const manifest = await verifyBackup(fromDir);
  const target = accountsPath(dataDir);
  refuseIfInUse(dataDir);
  const occupied = existsSync(path.join(target, STORE_FILE));
  if (occupied && !options.replace) {
    throw new BackupError(`${target} holds an account store already: restore into a new data directory, or pass --replace (the store there is kept beside, renamed)`);
  }
  mkdirSync(dataDir, { recursive: true });
  const staging = path.join(dataDir, `accounts.restoring-${now()}`);
  mkdirSync(staging);
  try {
    const entry = manifest.files.find((f) => f.path === STORE_IN_BACKUP)!;
    const copied = path.join(staging, STORE_FILE);
    copyFileSync(path.join(fromDir, STORE_IN_BACKUP), copied);
    await checkFile(copied, entry, staging); // what landed on this disk, not only what was read
    // Once more just before the switch: a server may have started meanwhile.
    refuseIfInUse(dataDir);
    let replacedTo: string | undefined;
    // A directory with no store in it (at most the lock file a past opening left) is not worth keeping.
    if (!occupied && existsSync(target) && readdirSync(target).every((name) => name === 'lock.mdb')) rmSync(target, { recursive: true });
    if (existsSync(target)) {
      replacedTo = path.join(dataDir, `accounts.replaced-${new Date(now()).toISOString().replace(/[:.]/g, '-')}`);
      renameSync(target, replacedTo);
    }
    renameSync(staging, target);
    return { manifest, replacedTo };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}
