// Fetches published store bundles for a server with STORE_URL (docs/fleet.md, "The store as a bundle"). It runs in
// the primary process, once per server (not in every serving thread): every STORE_POLL_SECONDS it reads the pointer;
// when it names a build this server does not have, it downloads the bundle beside the live build, checks every
// checksum and that the store fits this server, and only then moves it into place and switches `current` with the
// same atomic rename precompute uses. The serving threads' StoreFollower picks the switch up within a second.
//
// A bundle that fails a check is refused: the partial download is deleted, `store_bundle_refused` is logged once
// and the old build keeps serving; the same pointer is not tried again (publishing again writes a new pointer). A
// bundle made for another catalog, other time-zone rules or other method rules is set aside the same way, before
// it is downloaded. A failure to reach STORE_URL is retried at the next poll, the old build serving meanwhile.
import { createReadStream, createWriteStream, existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BundleLocation } from '../../pipeline/store/bundleLocation.js';
import {
  assertWhole,
  BundleRefused,
  MANIFEST_FILE,
  parseManifest,
  parsePointer,
  POINTER_FILE,
  VerifyingStream,
  wholeBundleHash,
  type BundleManifest,
  type BundlePointer,
} from '../../pipeline/store/storeBundle.js';
import { currentBuild, makeLive, removeOldBuilds, timetablesDir, TimetableReader } from '../../pipeline/store/timetableStore.js';
import { log } from '../log.js';
import { misfit } from './storeFollower.js';

/** What the follower knows, sent to every serving thread (for /readyz and /healthz). */
export interface BundleStatus {
  /** STORE_URL as it may be shown (no password). */
  storeUrl: string;
  /**
   * The build this server should serve: the latest pointer's once it is here and checked, or the last good one
   * while the latest is being fetched, was refused or set aside, or cannot be fetched. Null: none yet.
   */
  build: string | null;
  /** What the pointer said at the last read; null while nothing is published (or it could never be read). */
  latest: { build: string; published: string } | null;
  /** The build being downloaded now. */
  fetching: string | null;
  /** The last bundle refused (a checksum, a size, a malformed manifest), while no newer build is live. */
  refused: { build: string; reason: string } | null;
  /** The last bundle set aside (made for another catalog, tz release or methods), while no newer build is live. */
  setAside: { build: string; reason: string } | null;
  /** Why the last check could not read STORE_URL or fetch the bundle (retried at the next poll). */
  problem: string | null;
  /** Pointer reads so far (tests wait on it; operators see the follower is alive). */
  checks: number;
}

export interface BundleFollowerOptions {
  dataDir: string;
  location: BundleLocation;
  pollMs: number;
  /** The catalog this server serves: a bundle from another catalog is set aside. */
  catalogBuiltAt: string | undefined;
  onStatus(status: BundleStatus): void;
}

const INCOMING_PREFIX = 'incoming-';

export class BundleFollower {
  private readonly status: BundleStatus;
  /** Pointers (their exact text) refused or set aside: not fetched again until the pointer changes. */
  private readonly givenUp = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: BundleFollowerOptions) {
    this.status = { storeUrl: options.location.shown, build: null, latest: null, fetching: null, refused: null, setAside: null, problem: null, checks: 0 };
  }

  start(): void {
    this.removeLeftovers();
    this.status.build = this.fittingLiveBuild() ?? null;
    this.publish();
    const loop = async () => {
      await this.check();
      if (!this.stopped) this.timer = setTimeout(loop, this.options.pollMs).unref();
    };
    void loop();
  }

  stop(): void {
    // A download under way is not waited for: its partial directory is removed at the next start.
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** One look at the pointer, and a fetch when it names a new build. Never throws. */
  async check(): Promise<void> {
    try {
      await this.followPointer();
    } catch (error) {
      this.problem(`unexpected: ${String(error)}`);
    } finally {
      this.status.checks++;
      this.status.fetching = null;
      this.publish();
    }
  }

  private async followPointer(): Promise<void> {
    const { location, dataDir } = this.options;
    let text: string | undefined;
    try {
      text = await location.readText(POINTER_FILE);
    } catch (error) {
      return this.problem(`cannot read ${POINTER_FILE} from ${location.shown}: ${(error as Error).message}`);
    }
    if (text === undefined) {
      this.status.latest = null;
      return this.problem(null);
    }
    if (this.givenUp.has(text)) return this.problem(null);
    let pointer: BundlePointer;
    try {
      pointer = parsePointer(text);
    } catch (error) {
      if (error instanceof BundleRefused) return this.refuse(text, '(unnamed)', error.message);
      throw error;
    }
    this.status.latest = { build: pointer.build, published: pointer.published };
    if (pointer.build === this.status.build && currentBuild(dataDir) === pointer.build) return this.problem(null);

    let manifest: BundleManifest;
    try {
      const manifestText = await location.readText(`${pointer.build}/${MANIFEST_FILE}`);
      if (manifestText === undefined) throw new BundleRefused(`${pointer.build}/${MANIFEST_FILE} is not there`);
      manifest = parseManifest(manifestText, pointer);
    } catch (error) {
      if (error instanceof BundleRefused) return this.refuse(text, pointer.build, error.message);
      return this.problem(`cannot fetch ${pointer.build}: ${(error as Error).message}`);
    }
    const setAside = misfit(manifest.meta, this.options.catalogBuiltAt);
    if (setAside) return this.setAside(text, pointer.build, setAside);

    const target = path.join(timetablesDir(dataDir), pointer.build);
    try {
      if (existsSync(target)) await this.verifyInPlace(manifest, target); // a build held before (a rollback)
      else await this.download(manifest, target);
    } catch (error) {
      if (error instanceof BundleRefused) return this.refuse(text, pointer.build, error.message);
      return this.problem(`cannot fetch ${pointer.build}: ${(error as Error).message}`);
    }
    const previous = currentBuild(dataDir);
    makeLive(dataDir, pointer.build);
    // The build live a moment ago stays: serving threads may read it for a few more seconds.
    removeOldBuilds(dataDir, new Set([pointer.build, ...(previous ? [previous] : [])]));
    Object.assign(this.status, { build: pointer.build, refused: null, setAside: null });
    this.problem(null);
    log('warn', 'store_bundle_live', { build: pointer.build, previous: previous ?? null, years: manifest.meta.years, placeYears: manifest.meta.placeYears, from: location.shown });
  }

  /** Downloads the bundle into a temporary directory beside the live build, checks it, and moves it into place. */
  private async download(manifest: BundleManifest, target: string): Promise<void> {
    const { location, dataDir } = this.options;
    const incomingName = `${INCOMING_PREFIX}${manifest.build}-${process.pid}`;
    const incoming = path.join(timetablesDir(dataDir), incomingName);
    this.status.fetching = manifest.build;
    this.publish();
    await rm(incoming, { recursive: true, force: true });
    await mkdir(incoming, { recursive: true });
    try {
      const whole = wholeBundleHash();
      for (const file of manifest.files) {
        const source = await location.openRead(`${manifest.build}/${file.name}`);
        await pipeline(source, new VerifyingStream(file, manifest.build, whole), createWriteStream(path.join(incoming, file.name)));
      }
      assertWhole(manifest, whole);
      this.assertStoreMatches(incomingName, manifest);
      await rename(incoming, target);
    } catch (error) {
      await rm(incoming, { recursive: true, force: true });
      throw error;
    }
  }

  /** A build of this name is already here: used only if its files are the bundle's, byte for byte. */
  private async verifyInPlace(manifest: BundleManifest, target: string): Promise<void> {
    const whole = wholeBundleHash();
    const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    for (const file of manifest.files) {
      await pipeline(createReadStream(path.join(target, file.name)), new VerifyingStream(file, manifest.build, whole), discard()).catch((error: unknown) => {
        throw error instanceof BundleRefused ? new BundleRefused(`the copy of ${manifest.build} held here differs from the bundle: ${error.message}`) : error;
      });
    }
    assertWhole(manifest, whole);
  }

  /** The checksums say the bytes are the publisher's; this says they are a store, the one the manifest describes. */
  private assertStoreMatches(name: string, manifest: BundleManifest): void {
    let reader: TimetableReader;
    try {
      reader = TimetableReader.open(this.options.dataDir, name);
    } catch (error) {
      throw new BundleRefused(`${manifest.build} is not a readable store: ${(error as Error).message}`);
    }
    const { meta } = reader;
    void reader.close();
    for (const field of ['builtAt', 'catalogBuiltAt', 'tzdata', 'methodsFingerprint', 'storeFormat'] as const) {
      if (meta[field] !== manifest.meta[field]) throw new BundleRefused(`${manifest.build}'s store says ${field} ${meta[field]}; its manifest says ${manifest.meta[field]}`);
    }
  }

  private refuse(pointerText: string, build: string, reason: string): void {
    this.givenUp.add(pointerText);
    this.status.refused = { build, reason };
    this.problem(null);
    log('error', 'store_bundle_refused', { build, reason, from: this.options.location.shown, effect: this.keepsServing(), hint: 'publish the build again: npm run cli -- store publish' });
  }

  private setAside(pointerText: string, build: string, reason: string): void {
    this.givenUp.add(pointerText);
    this.status.setAside = { build, reason };
    this.problem(null);
    log('warn', 'store_bundle_set_aside', { build, reason, from: this.options.location.shown, effect: this.keepsServing(), hint: 'publish a build made with this server’s catalog and rules' });
  }

  private keepsServing(): string {
    return this.status.build ? `${this.status.build} keeps serving` : 'answers are computed live; /readyz is 503 until a good build is here';
  }

  /** Records the check's problem (null: none); a new problem is logged once. */
  private problem(problem: string | null): void {
    if (problem !== null && problem !== this.status.problem) {
      log('warn', 'store_bundle_unavailable', { problem, effect: this.keepsServing(), retryInMs: this.options.pollMs });
    }
    this.status.problem = problem;
  }

  /** The local live build, when it can be read and fits this server: the last good one until a bundle comes. */
  private fittingLiveBuild(): string | undefined {
    const live = currentBuild(this.options.dataDir);
    if (!live) return undefined;
    try {
      const reader = TimetableReader.open(this.options.dataDir, live);
      const unfit = misfit(reader.meta, this.options.catalogBuiltAt);
      void reader.close();
      return unfit ? undefined : live;
    } catch {
      return undefined;
    }
  }

  private removeLeftovers(): void {
    const base = timetablesDir(this.options.dataDir);
    if (!existsSync(base)) return;
    for (const name of readdirSync(base)) {
      if (name.startsWith(INCOMING_PREFIX)) rmSync(path.join(base, name), { recursive: true, force: true });
    }
  }

  private publish(): void {
    this.options.onStatus(structuredClone(this.status));
  }
}
