// The store as a bundle (docs/fleet.md, "The store as a bundle"): a build's data files copied as they are, a
// manifest naming them with their sizes and SHA-256, and a pointer naming the latest build and the SHA-256 of its
// manifest. Published once (`store publish`), fetched by every server with STORE_URL. The manifest's hash in the
// pointer covers the manifest, whose hashes cover every file: a bundle is checked end to end before it is used.
//
//   <location>/latest.json                {"format", "build", "manifestSha256", "published"}   written last
//   <location>/<build>/manifest.json      {"format", "build", "created", "meta", "files": [{name, bytes, sha256}], "sha256"}
//   <location>/<build>/data.mdb           the build's LMDB file, as precompute wrote it
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BundleLocation } from './bundleLocation.js';
import { BUILD_FILES, BUILD_NAME, currentBuild, timetablesDir, TimetableReader, type StoreMeta } from './timetableStore.js';

export const BUNDLE_FORMAT = 'prayer-times-store-bundle/1';
export const POINTER_FILE = 'latest.json';
export const MANIFEST_FILE = 'manifest.json';

export interface BundleFile {
  name: string;
  bytes: number;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  /** The build id: the build's directory name, the same on every server. */
  build: string;
  /** When the bundle was made. */
  created: string;
  /** The build's own meta record (catalog, tzdata, methods fingerprint, years, scope, …): a server checks it fits. */
  meta: StoreMeta;
  files: BundleFile[];
  /** Hex SHA-256 over every file's bytes, one after the other in the order listed: the bundle's data as a whole. */
  sha256: string;
}

export interface BundlePointer {
  format: typeof BUNDLE_FORMAT;
  build: string;
  /** Hex SHA-256 of the build's manifest.json, byte for byte. */
  manifestSha256: string;
  published: string;
}

/** A bundle that is not what it says (a checksum, a size, a malformed manifest): refused, never used. */
export class BundleRefused extends Error {}

export class StorePublishError extends Error {}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const sha256Of = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BundleRefused(`${what} is not JSON`);
  }
  if (!isRecord(value)) throw new BundleRefused(`${what} is not a JSON object`);
  if (value.format !== BUNDLE_FORMAT) throw new BundleRefused(`${what} is of format ${JSON.stringify(value.format)}, not ${BUNDLE_FORMAT}`);
  return value;
}

export function parsePointer(text: string): BundlePointer {
  const value = parseJson(text, POINTER_FILE);
  if (typeof value.build !== 'string' || !BUILD_NAME.test(value.build)) throw new BundleRefused(`${POINTER_FILE} does not name a build`);
  if (typeof value.manifestSha256 !== 'string' || !SHA256_HEX.test(value.manifestSha256)) throw new BundleRefused(`${POINTER_FILE} has no manifestSha256`);
  return { format: BUNDLE_FORMAT, build: value.build, manifestSha256: value.manifestSha256, published: String(value.published ?? '') };
}

/** The manifest the pointer names, checked against the pointer's hash and for its shape. */
export function parseManifest(text: string, pointer: BundlePointer): BundleManifest {
  const actual = sha256Of(text);
  if (actual !== pointer.manifestSha256) throw new BundleRefused(`${pointer.build}/${MANIFEST_FILE} has SHA-256 ${actual}; ${POINTER_FILE} says ${pointer.manifestSha256}`);
  const value = parseJson(text, `${pointer.build}/${MANIFEST_FILE}`);
  if (value.build !== pointer.build) throw new BundleRefused(`${pointer.build}/${MANIFEST_FILE} names build ${String(value.build)}`);
  const meta = value.meta;
  if (!isRecord(meta) || typeof meta.catalogBuiltAt !== 'string' || typeof meta.builtAt !== 'string' || !Array.isArray(meta.years)) {
    throw new BundleRefused(`${pointer.build}/${MANIFEST_FILE} has no store meta`);
  }
  const files = value.files;
  const names = new Set<string>(BUILD_FILES);
  const wellFormed = (f: unknown): f is BundleFile =>
    isRecord(f) && typeof f.name === 'string' && names.has(f.name) && Number.isSafeInteger(f.bytes) && (f.bytes as number) >= 0 && typeof f.sha256 === 'string' && SHA256_HEX.test(f.sha256);
  if (!Array.isArray(files) || files.length !== BUILD_FILES.length || !files.every(wellFormed) || new Set(files.map((f) => f.name)).size !== files.length) {
    throw new BundleRefused(`${pointer.build}/${MANIFEST_FILE} must list exactly ${BUILD_FILES.join(', ')} with sizes and SHA-256`);
  }
  if (typeof value.sha256 !== 'string' || !SHA256_HEX.test(value.sha256)) throw new BundleRefused(`${pointer.build}/${MANIFEST_FILE} has no sha256`);
  return { format: BUNDLE_FORMAT, build: pointer.build, created: String(value.created ?? ''), meta: meta as unknown as StoreMeta, files, sha256: value.sha256 };
}

/**
 * Passes a file's bytes through, hashing and counting them: fails as soon as there are more bytes than the manifest
 * says (a wrong file is not written to the end), and at the end when the size or the hash differ.
 */
export class VerifyingStream extends Transform {
  private readonly hash = createHash('sha256');
  private seen = 0;

  constructor(
    private readonly file: BundleFile,
    private readonly build: string,
    /** The hash over all the bundle's files, fed in order. */
    private readonly whole: Hash,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.file.bytes) return done(new BundleRefused(`${this.build}/${this.file.name} is longer than the ${this.file.bytes} bytes its manifest says`));
    this.hash.update(chunk);
    this.whole.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen !== this.file.bytes) return done(new BundleRefused(`${this.build}/${this.file.name} has ${this.seen} bytes; its manifest says ${this.file.bytes}`));
    const actual = this.hash.digest('hex');
    if (actual !== this.file.sha256) return done(new BundleRefused(`${this.build}/${this.file.name} has SHA-256 ${actual}; its manifest says ${this.file.sha256}`));
    done();
  }
}

/** The hash over the whole bundle, to feed VerifyingStream and check with `assertWhole` at the end. */
export const wholeBundleHash = (): Hash => createHash('sha256');

export function assertWhole(manifest: BundleManifest, whole: Hash): void {
  const actual = whole.digest('hex');
  if (actual !== manifest.sha256) throw new BundleRefused(`${manifest.build}'s files have SHA-256 ${actual} together; its manifest says ${manifest.sha256}`);
}

/** The manifest of a local build, its files hashed as streams. */
export async function manifestOf(dataDir: string, build: string): Promise<BundleManifest> {
  let meta: StoreMeta;
  try {
    const reader = TimetableReader.open(dataDir, build);
    meta = reader.meta;
    await reader.close();
  } catch (error) {
    throw new StorePublishError(`the live build ${build} cannot be read: ${(error as Error).message}`);
  }
  const whole = wholeBundleHash();
  const files: BundleFile[] = [];
  for (const name of BUILD_FILES) {
    const file = path.join(timetablesDir(dataDir), build, name);
    const { size } = await stat(file);
    const hash = createHash('sha256');
    await pipeline(
      createReadStream(file),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          whole.update(chunk);
          done();
        },
      }),
    );
    files.push({ name, bytes: size, sha256: hash.digest('hex') });
  }
  return { format: BUNDLE_FORMAT, build, created: new Date().toISOString(), meta, files, sha256: whole.digest('hex') };
}

export interface PublishResult {
  manifest: BundleManifest;
  pointer: BundlePointer;
  location: string;
}

/** Publishes DATA_DIR's live build: the build's files and manifest first, the pointer to it last. */
export async function publishBundle(dataDir: string, location: BundleLocation): Promise<PublishResult> {
  const build = currentBuild(dataDir);
  if (!build) throw new StorePublishError(`no live store under ${timetablesDir(dataDir)}; build one first: npm run cli -- precompute`);
  const manifest = await manifestOf(dataDir, build);
  const manifestText = JSON.stringify(manifest, null, 2) + '\n';
  const files = manifest.files.map((f) => ({ name: f.name, localFile: path.join(timetablesDir(dataDir), build, f.name) }));
  await location.writeBuild(build, files, manifestText);
  const pointer: BundlePointer = { format: BUNDLE_FORMAT, build, manifestSha256: sha256Of(manifestText), published: new Date().toISOString() };
  await location.writePointer(POINTER_FILE, JSON.stringify(pointer, null, 2) + '\n');
  return { manifest, pointer, location: location.shown };
}
