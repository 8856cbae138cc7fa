// The store of precomputed timetables: LMDB environments under DATA_DIR/timetables, one per precompute run
// (`build-…`), and a small file `current` naming the live one. A run writes its own environment and, only when
// complete, replaces `current` atomically (write beside, rename over); a run killed halfway leaves `current`, and
// so the live store, as it was. Servers follow `current`.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';

export interface StoreMeta {
  builtAt: string;
  /** The catalog the places came from: a server uses the store only with the same catalog. */
  catalogBuiltAt: string;
  /**
   * The IANA tz release the local days were computed with (absent in stores built before the rules came from the
   * tzdata package): a server uses the store only with the same rules.
   */
  tzdata?: string;
  /** The methods' rules the times were computed with (methods.ts, METHODS_FINGERPRINT); absent in older stores. */
  methodsFingerprint?: string;
  /** How the years are written (STORE_FORMAT); absent in stores of format 1. */
  storeFormat?: number;
  years: number[];
  scope: string;
  /** Methods stored: `default` (each place's country default) or a list of ids. */
  methods: string;
  madhabs: string;
  places: number;
  placeYears: number;
}

/**
 * How a store writes its years: 2 is timetableCodec.ts's nibbles, stored as they are. Format 1 (int16 differences,
 * lz4-compressed by LMDB with lmdb-js's default dictionary) is not read: a server sets such a store aside.
 */
export const STORE_FORMAT = 2;

const CURRENT = 'current';
const META_KEY = '\u0000meta';

export const timetablesDir = (dataDir: string): string => path.join(dataDir, 'timetables');

export const timetableKey = (placeId: string, method: string, madhab: string, year: number): string =>
  `${placeId}/${method}/${madhab}/${year}`;

/** How a build's directory is named (`build-` and its creation time and process). */
export const BUILD_NAME = /^build-[\w.-]+$/;

/** What `current` says: a build that is there, no `current` at all, or a problem with it. */
export type LiveBuild = { name: string } | { absent: true } | { problem: string };

export function liveBuild(dataDir: string): LiveBuild {
  const file = path.join(timetablesDir(dataDir), CURRENT);
  if (!existsSync(file)) return { absent: true };
  const name = readFileSync(file, 'utf8').trim();
  if (!BUILD_NAME.test(name)) return { problem: `${file} does not name a build` };
  if (!existsSync(path.join(timetablesDir(dataDir), name, 'data.mdb'))) return { problem: `${name}, named by ${file}, is not there` };
  return { name };
}

/** The files of a build that are its data (LMDB's lock.mdb is made by whoever opens it, and is not). */
export const BUILD_FILES = ['data.mdb'] as const;

/** Points `current` at a complete build, atomically (written beside, renamed over): servers follow it. */
export function makeLive(dataDir: string, name: string): void {
  const base = timetablesDir(dataDir);
  const temporary = path.join(base, `${CURRENT}.${process.pid}.tmp`);
  writeFileSync(temporary, name + '\n');
  renameSync(temporary, path.join(base, CURRENT));
}

/** The name of the live build, if there is one. */
export function currentBuild(dataDir: string): string | undefined {
  const live = liveBuild(dataDir);
  return 'name' in live ? live.name : undefined;
}

/** LMDB's first meta page holds this magic number after the page header (24 bytes in the LMDB that lmdb-js builds). */
const LMDB_MAGIC = 0xbeefc0de;
const LMDB_MAGIC_OFFSET = 24;

/**
 * Throws unless the file starts with LMDB's two meta pages. LMDB trusts its files: opening one that is not an LMDB
 * file can crash the process, so a damaged store is refused here, before it is opened.
 */
function assertLmdbHeader(file: string): void {
  const header = Buffer.alloc(LMDB_MAGIC_OFFSET + 4);
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (readSync(fd, header, 0, header.length, 0) < header.length) throw new Error(`${file} is too short to be a store (${size} bytes)`);
    if (header.readUInt32LE(LMDB_MAGIC_OFFSET) !== LMDB_MAGIC) {
      throw new Error(`${file} is not an LMDB store (its header is not LMDB's)`);
    }
  } finally {
    closeSync(fd);
  }
}

/** Address space, not memory: 16 GiB, far above the default store (about 1 GB); lmdb-js grows it if ever needed. */
const WRITER_MAP_BYTES = 16 * 1024 ** 3;

function openEnvironment(dir: string, readOnly: boolean): { root: RootDatabase; days: Database<Buffer, string> } {
  // No compression: a stored year is compact as encoded (about 2 KB, timetableCodec.ts), and lz4 cost the precompute
  // more CPU than anything but the astronomy (its default dictionary loaded anew for every value).
  // A writer maps address space for the largest store at once: lmdb-js otherwise grows its map by doubling, and every
  // map it outgrew stays mapped with its pages resident, so a store being written counted several times over.
  const root = open({ path: dir, compression: false, readOnly, maxDbs: 2, ...(readOnly ? {} : { mapSize: WRITER_MAP_BYTES }) });
  return { root, days: root.openDB<Buffer, string>({ name: 'days', encoding: 'binary', compression: false }) };
}

/**
 * Records are given to LMDB a batch at a time, all in one event turn, so that a batch is one transaction. Each
 * transaction copies the tree pages the one before it wrote, reading them back through LMDB's map, and the kernel maps
 * the neighbouring pages it has cached with each such read (fault-around): with a transaction per handful of records,
 * most of the store being written became resident in this process (the full default precompute: 850 MB of file pages
 * for a 1.3 GB store). With about 4 MB a transaction the written pages stay out of the process.
 *
 * A record whose key comes after the last one written is appended (MDB_APPEND): LMDB then starts a new leaf page when
 * the last is full instead of splitting it in half, which left most leaves holding one record of two: a store written
 * in key order takes half the pages (the full default: BENCHMARKS.md). A record out of order is simply inserted.
 */
const BATCH_BYTES = 4 * 1024 ** 2;
const APPEND = { append: true };
/** lmdb-js's put with options (write.js takes them; its typings declare them for putSync only). */
type PutWithOptions = (this: Database<Buffer, string>, key: string, value: Buffer, options: { append: boolean }) => Promise<boolean>;

export class TimetableWriter {
  private batch: { key: string; bytes: Buffer }[] = [];
  private lastKey = '';
  private batchBytes = 0;
  private uncommitted = 0;
  private lastCommit: Promise<unknown> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private constructor(
    readonly dataDir: string,
    readonly name: string,
    private readonly root: RootDatabase,
    private readonly days: Database<Buffer, string>,
  ) {}

  static create(dataDir: string): TimetableWriter {
    const base = timetablesDir(dataDir);
    mkdirSync(base, { recursive: true });
    const name = `build-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
    const dir = path.join(base, name);
    mkdirSync(dir);
    const { root, days } = openEnvironment(dir, false);
    return new TimetableWriter(dataDir, name, root, days);
  }

  /** Queues a record; `committed()` says when it is written. Callers await that now and then to bound what is queued. */
  put(key: string, bytes: Buffer): void {
    this.batch.push({ key, bytes });
    this.batchBytes += bytes.byteLength;
    if (this.batchBytes >= BATCH_BYTES) this.startBatch();
  }

  private startBatch(): void {
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    this.uncommitted += batch.length;
    let last: Promise<unknown> = this.lastCommit;
    const putWithOptions = this.days.put as unknown as PutWithOptions;
    for (const { key, bytes } of batch) {
      // Keys are ASCII: string order is LMDB's byte order.
      const append = key > this.lastKey;
      if (append) this.lastKey = key;
      last = append ? putWithOptions.call(this.days, key, bytes, APPEND) : this.days.put(key, bytes);
    }
    this.lastCommit = last.then(
      () => {
        this.uncommitted -= batch.length;
      },
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
  }

  /** Records queued and not yet committed. */
  get queued(): number {
    return this.uncommitted + this.batch.length;
  }

  /** Whether a write has failed (the run should stop: committed() throws the error). */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Resolves when every record queued so far is committed (LMDB commits in order); rejects if a write failed. */
  async committed(): Promise<void> {
    if (this.batch.length) this.startBatch();
    await this.lastCommit;
    if (this.failure) throw this.failure.error;
  }

  get directory(): string {
    return path.join(timetablesDir(this.dataDir), this.name);
  }

  /** Writes the meta record, flushes, and makes this build the live one. */
  async finish(meta: StoreMeta): Promise<void> {
    await this.committed();
    await this.root.put(META_KEY, meta);
    await this.root.flushed;
    await this.root.close();
    makeLive(this.dataDir, this.name);
  }

  async abort(): Promise<void> {
    await this.lastCommit;
    await this.root.close();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/**
 * Removes builds that are neither live nor the one before it (a server may still be reading that one for a
 * second), and leftovers of runs that never finished.
 */
export function removeOldBuilds(dataDir: string, keep: ReadonlySet<string>): string[] {
  const base = timetablesDir(dataDir);
  if (!existsSync(base)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(base)) {
    if (!name.startsWith('build-') || keep.has(name)) continue;
    rmSync(path.join(base, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

export function directorySize(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((total, f) => total + statSync(path.join(dir, f)).size, 0);
}

export class TimetableReader {
  private constructor(
    readonly name: string,
    readonly meta: StoreMeta,
    private readonly root: RootDatabase,
    private readonly days: Database<Buffer, string>,
  ) {}

  /** Opens the live build, or returns undefined when there is none. */
  /** Opens a build read-only; throws when it cannot be read (missing, not LMDB, no meta record). */
  static open(dataDir: string, name: string): TimetableReader {
    assertLmdbHeader(path.join(timetablesDir(dataDir), name, 'data.mdb'));
    const { root, days } = openEnvironment(path.join(timetablesDir(dataDir), name), true);
    const meta = root.get(META_KEY) as StoreMeta | undefined;
    if (!meta) {
      void root.close();
      throw new Error(`timetable store ${name} has no meta record`);
    }
    return new TimetableReader(name, meta, root, days);
  }

  get(placeId: string, method: string, madhab: string, year: number): Buffer | undefined {
    return this.days.getBinary(timetableKey(placeId, method, madhab, year));
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}
