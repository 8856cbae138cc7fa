// The bundle format: what `store publish` writes to a directory, and the checks a server makes before it uses one.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { dataDirWithCatalog } from '../../testing/serverProcess.js';
import { bundleLocation } from './bundleLocation.js';
import { precompute } from '../precompute/precompute.js';
import { assertWhole, BundleRefused, parseManifest, parsePointer, publishBundle, StorePublishError, VerifyingStream, wholeBundleHash } from './storeBundle.js';
import { timetablesDir } from './timetableStore.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
let dataDir: string;
let bundles: string;
let build: string;

beforeAll(async () => {
  dataDir = dataDirWithCatalog(inject('catalogDataDir'));
  build = (await precompute({ dataDir, years: [2026], methods: 'default', madhabs: 'default', scope: 'places:g745044', workers: 1 })).build;
  bundles = path.join(mkdtempSync(path.join(tmpdir(), 'prayer-times-bundles-')), 'bundles');
  await publishBundle(dataDir, bundleLocation(bundles));
});

/** Streams `bytes` through the check of `file`; resolves, or rejects with the refusal. */
const verify = async (bytes: Buffer, manifestText: string) => {
  const pointer = parsePointer(readFileSync(path.join(bundles, 'latest.json'), 'utf8'));
  const manifest = parseManifest(manifestText, pointer);
  const whole = wholeBundleHash();
  await pipeline(Readable.from([bytes]), new VerifyingStream(manifest.files[0], manifest.build, whole), new Writable({ write: (_c, _e, done) => done() }));
  assertWhole(manifest, whole);
};

describe('a published bundle', () => {
  it('holds the build’s data file as it is, a manifest with its size and SHA-256, and a pointer to it', () => {
    expect(readdirSync(bundles).sort()).toEqual([build, 'latest.json']);
    expect(readdirSync(path.join(bundles, build)).sort()).toEqual(['data.mdb', 'manifest.json']);
    const data = readFileSync(path.join(timetablesDir(dataDir), build, 'data.mdb'));
    expect(readFileSync(path.join(bundles, build, 'data.mdb')).equals(data)).toBe(true);
    const manifestText = readFileSync(path.join(bundles, build, 'manifest.json'), 'utf8');
    const manifest = JSON.parse(manifestText);
    expect(manifest).toMatchObject({ format: 'prayer-times-store-bundle/1', build, files: [{ name: 'data.mdb', bytes: data.length, sha256: sha256(data) }], sha256: sha256(data) });
    expect(manifest.meta).toMatchObject({ years: [2026], scope: 'places:g745044', tzdata: expect.any(String), methodsFingerprint: expect.any(String), catalogBuiltAt: expect.any(String) });
    const pointer = JSON.parse(readFileSync(path.join(bundles, 'latest.json'), 'utf8'));
    expect(pointer).toMatchObject({ format: 'prayer-times-store-bundle/1', build, manifestSha256: sha256(manifestText) });
    // Nothing staged is left beside it.
    expect(readdirSync(bundles).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('passes its own checks', async () => {
    await expect(verify(readFileSync(path.join(bundles, build, 'data.mdb')), readFileSync(path.join(bundles, build, 'manifest.json'), 'utf8'))).resolves.toBeUndefined();
  });

  it('is refused with one byte flipped, one byte more or one less', async () => {
    const data = readFileSync(path.join(bundles, build, 'data.mdb'));
    const manifestText = readFileSync(path.join(bundles, build, 'manifest.json'), 'utf8');
    const flipped = Buffer.from(data);
    flipped[100] ^= 1;
    await expect(verify(flipped, manifestText)).rejects.toThrow(BundleRefused);
    await expect(verify(flipped, manifestText)).rejects.toThrow(/data\.mdb has SHA-256 [0-9a-f]{64}; its manifest says/);
    await expect(verify(Buffer.concat([data, Buffer.from([0])]), manifestText)).rejects.toThrow(/longer than the \d+ bytes/);
    await expect(verify(data.subarray(1), manifestText)).rejects.toThrow(/has \d+ bytes; its manifest says/);
  });

  it('is refused when its manifest was changed after the pointer was written', async () => {
    const data = readFileSync(path.join(bundles, build, 'data.mdb'));
    const manifestText = readFileSync(path.join(bundles, build, 'manifest.json'), 'utf8');
    await expect(verify(data, manifestText.replace('"places": 1', '"places": 2'))).rejects.toThrow(/manifest\.json has SHA-256 .*; latest\.json says/);
  });

  it('has a pointer that must name a build and a hash', () => {
    expect(() => parsePointer('{')).toThrow(BundleRefused);
    expect(() => parsePointer(JSON.stringify({ format: 'prayer-times-store-bundle/1', build: '../x', manifestSha256: 'a'.repeat(64) }))).toThrow(/does not name a build/);
    expect(() => parsePointer(JSON.stringify({ format: 'other/2', build, manifestSha256: 'a'.repeat(64) }))).toThrow(/format/);
  });

  it('is written again whole when the same build is published again', async () => {
    const again = await publishBundle(dataDir, bundleLocation(bundles));
    expect(again.manifest.build).toBe(build);
    expect(readdirSync(bundles).sort()).toEqual([build, 'latest.json']);
    expect(parsePointer(readFileSync(path.join(bundles, 'latest.json'), 'utf8')).published).toBe(again.pointer.published);
  });

  it('needs a live build to publish', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'prayer-times-data-'));
    await expect(publishBundle(empty, bundleLocation(path.join(empty, 'out')))).rejects.toThrow(StorePublishError);
    expect(existsSync(path.join(empty, 'out'))).toBe(false);
  });
});
