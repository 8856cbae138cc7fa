// The store as a bundle, end to end with real processes: `store publish` to a directory and over HTTP, servers with
// STORE_URL following a new build (answers change), a bundle for another catalog set aside, a corrupt bundle refused
// while the old build keeps serving, /readyz before and after, and three servers following one published bundle.
import { createHash } from 'node:crypto';
import { cpSync, createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readCatalog } from '../../pipeline/catalog/catalogFile.js';
import { precompute } from '../../pipeline/precompute/precompute.js';
import { timetablesDir } from '../../pipeline/store/timetableStore.js';
import { dataDirWithCatalog, runCli, startServerWithKey, type ServerWithKey } from '../../testing/serverProcess.js';

const ISTANBUL = 'g745044';
const KADIKOY = 'tr-34-kadikoy';

/** The operator's machine: a data directory with the run's catalog, where builds are made and published from. */
let publisherDir: string;
const build = async (places: string[]): Promise<string> =>
  (await precompute({ dataDir: publisherDir, years: [2026], methods: 'default', madhabs: 'default', scope: `places:${places.join(',')}`, workers: 1 })).build;
const publish = async (to: string): Promise<void> => {
  const result = await runCli(['store', 'publish', '--to', to], { DATA_DIR: publisherDir });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
};

const newDir = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
const json = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as any };
};
const ready = (s: ServerWithKey) => json(`${s.server.baseUrl}/readyz`);
const health = async (s: ServerWithKey) => (await json(`${s.server.baseUrl}/healthz`)).body;

/** Polls until `probe` gives a value (a bound, not a timing assumption). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const onBuild = (s: ServerWithKey, name: string) =>
  until(`${s.server.baseUrl} on ${name}`, async () => {
    const [r, h] = await Promise.all([ready(s), health(s)]);
    return r.status === 200 && r.body.build === name && h.precomputed?.build === name ? r.body : undefined;
  });

/** Whether a Kadıköy answer came from the store or was computed: the store's coverage, seen from outside. */
async function kadikoyAnsweredFrom(s: ServerWithKey): Promise<'store' | 'live'> {
  const path_ = readCatalog(inject('catalogDataDir'))!.places.find((p) => p.id === KADIKOY)!.path;
  const before = (await health(s)).answers;
  const response = await fetch(`${s.server.baseUrl}/api/v1/times?city=${encodeURIComponent(path_)}&date=2026-03-01`, { headers: { 'X-API-Key': s.key } });
  expect(response.status).toBe(200);
  const after = (await health(s)).answers;
  return after.store > before.store ? 'store' : 'live';
}

/** Publishes the live build to `bundles` with one byte of its data flipped (written as a publisher would: pointer last). */
async function publishCorrupt(bundles: string): Promise<string> {
  const staging = newDir('prayer-times-bundle-staging-');
  await publish(staging);
  const name = JSON.parse(readFileSync(path.join(staging, 'latest.json'), 'utf8')).build as string;
  const data = path.join(staging, name, 'data.mdb');
  const bytes = readFileSync(data);
  bytes[bytes.length >> 1] ^= 0xff;
  writeFileSync(data, bytes);
  cpSync(path.join(staging, name), path.join(bundles, name), { recursive: true });
  writeFileSync(path.join(bundles, '.latest.json.tmp'), readFileSync(path.join(staging, 'latest.json')));
  renameSync(path.join(bundles, '.latest.json.tmp'), path.join(bundles, 'latest.json'));
  return name;
}

/**
 * Publishes the live build to `bundles` as if made from another catalog: a consistent bundle (every hash right) that
 * does not fit these servers.
 */
async function publishForAnotherCatalog(bundles: string): Promise<string> {
  const staging = newDir('prayer-times-bundle-staging-');
  await publish(staging);
  const pointer = JSON.parse(readFileSync(path.join(staging, 'latest.json'), 'utf8'));
  const manifestFile = path.join(staging, pointer.build, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  manifest.meta.catalogBuiltAt = '2001-01-01T00:00:00.000Z';
  const manifestText = JSON.stringify(manifest, null, 2) + '\n';
  writeFileSync(manifestFile, manifestText);
  pointer.manifestSha256 = createHash('sha256').update(manifestText).digest('hex');
  cpSync(path.join(staging, pointer.build), path.join(bundles, pointer.build), { recursive: true });
  writeFileSync(path.join(bundles, '.latest.json.tmp'), JSON.stringify(pointer));
  renameSync(path.join(bundles, '.latest.json.tmp'), path.join(bundles, 'latest.json'));
  return pointer.build;
}

const serversStarted: ServerWithKey[] = [];
async function follower(storeUrl: string): Promise<ServerWithKey> {
  const started = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), STORE_URL: storeUrl, STORE_POLL_SECONDS: '1', WORKERS: '1' });
  serversStarted.push(started);
  return started;
}

beforeAll(() => {
  publisherDir = dataDirWithCatalog(inject('catalogDataDir'));
});
afterAll(async () => {
  await Promise.all(serversStarted.map((s) => s.server.stop()));
});

describe('a server with STORE_URL (a directory)', () => {
  it('is not ready before a build is published, follows each new one, and answers from it', async () => {
    const bundles = path.join(newDir('prayer-times-bundles-'), 'bundles');
    const s = await follower(bundles);
    const before = await until('a first check', async () => ((await health(s)).bundle?.checks > 0 ? true : undefined));
    expect(before).toBe(true);
    const notYet = await ready(s);
    expect(notYet.status).toBe(503);
    expect(notYet.body).toMatchObject({ status: 'not_ready', build: null });
    expect(notYet.body.reason).toContain('nothing is published');

    const first = await build([ISTANBUL]);
    await publish(bundles);
    expect((await onBuild(s, first)).latest).toBe(first);
    expect(await kadikoyAnsweredFrom(s)).toBe('live');

    const second = await build([ISTANBUL, KADIKOY]);
    await publish(bundles);
    await onBuild(s, second);
    expect(await kadikoyAnsweredFrom(s)).toBe('store');
    // Fetched beside the live build under its own name; nothing half-downloaded is left.
    const held = readdirSync(timetablesDir(s.server.dataDir));
    expect(held).toContain(second);
    expect(held.filter((n) => n.startsWith('incoming-'))).toEqual([]);

    // A bundle from another catalog is set aside, not downloaded; the build before keeps serving, and says why.
    await build([ISTANBUL]);
    const other = await publishForAnotherCatalog(bundles);
    const setAside = await until('the set-aside', async () => (await health(s)).bundle?.setAside ?? undefined);
    expect(setAside).toMatchObject({ build: other, reason: expect.stringContaining('built from the catalog of 2001-01-01T00:00:00.000Z') });
    expect((await ready(s)).body).toMatchObject({ status: 'ready', build: second, latest: other, setAside: { build: other } });
    expect(await kadikoyAnsweredFrom(s)).toBe('store');
    expect(readdirSync(timetablesDir(s.server.dataDir))).not.toContain(other);
    expect(s.server.output.filter((line) => line.includes('"event":"store_bundle_set_aside"'))).toHaveLength(1);
  }, 120_000);
});

describe('publishing over HTTP', () => {
  let http: Server;
  let base: string;
  const requests: string[] = [];
  beforeAll(async () => {
    // A tiny bundle host: PUT stores a file (written beside, renamed), GET serves it.
    const root = newDir('prayer-times-http-bundles-');
    http = createServer((request, response) => {
      const name = decodeURIComponent(new URL(request.url!, 'http://x').pathname);
      const file = path.join(root, name);
      if (!file.startsWith(root + path.sep)) return response.writeHead(400).end();
      requests.push(`${request.method} ${name}`);
      if (request.method === 'PUT') {
        mkdirSync(path.dirname(file), { recursive: true });
        const temporary = `${file}.${requests.length}.tmp`;
        pipeline(request, createWriteStream(temporary)).then(
          () => {
            renameSync(temporary, file);
            response.writeHead(201).end();
          },
          () => response.writeHead(500).end(),
        );
      } else if (request.method === 'GET') {
        if (!existsSync(file)) return response.writeHead(404).end();
        response.writeHead(200);
        createReadStream(file).pipe(response);
      } else response.writeHead(405).end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as { port: number }).port}/bundles`;
  });
  // A follower's keep-alive connection (or a download it gave up) would hold close() for ever: ended here.
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve()).closeAllConnections()));

  it('PUTs the files, then the manifest, then the pointer; a server with an http STORE_URL follows', async () => {
    const name = await build([ISTANBUL, KADIKOY]);
    requests.length = 0;
    await publish(base);
    expect(requests).toEqual([`PUT /bundles/${name}/data.mdb`, `PUT /bundles/${name}/manifest.json`, 'PUT /bundles/latest.json']);

    const s = await follower(base);
    await onBuild(s, name);
    expect(await kadikoyAnsweredFrom(s)).toBe('store');
    expect(requests).toContain(`GET /bundles/${name}/data.mdb`);
  }, 60_000);
});

describe('three servers following one published bundle', () => {
  it('all switch to it, then all refuse a corrupt one and keep serving the good build', async () => {
    const bundles = path.join(newDir('prayer-times-bundles-'), 'bundles');
    const good = await build([ISTANBUL, KADIKOY]);
    await publish(bundles);
    const servers = await Promise.all([follower(bundles), follower(bundles), follower(bundles)]);
    await Promise.all(servers.map((s) => onBuild(s, good)));

    await build([ISTANBUL]);
    const corrupt = await publishCorrupt(bundles);
    for (const s of servers) {
      const refused = await until('the refusal', async () => (await health(s)).bundle?.refused ?? undefined);
      expect(refused.build).toBe(corrupt);
      expect(refused.reason).toMatch(/data\.mdb has SHA-256 [0-9a-f]{64}; its manifest says/);
    }
    // A few more polls: the same bad bundle is not fetched again, and the refusal is logged once.
    await Promise.all(
      servers.map(async (s) => {
        const checks = (await health(s)).bundle.checks;
        await until('three more checks', async () => ((await health(s)).bundle.checks >= checks + 3 ? true : undefined));
      }),
    );
    for (const s of servers) {
      const r = await ready(s);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'ready', build: good, latest: corrupt, refused: { build: corrupt } });
      expect((await health(s)).precomputed.build).toBe(good);
      expect(await kadikoyAnsweredFrom(s)).toBe('store'); // the good build (with Kadıköy) still answers
      expect(s.server.output.filter((line) => line.includes('"event":"store_bundle_refused"'))).toHaveLength(1);
      const held = readdirSync(timetablesDir(s.server.dataDir));
      expect(held).not.toContain(corrupt);
      expect(held.filter((n) => n.startsWith('incoming-'))).toEqual([]);
    }

    // Published again, intact: followed.
    const fixed = await build([ISTANBUL]);
    await publish(bundles);
    await Promise.all(servers.map((s) => onBuild(s, fixed)));
    for (const s of servers) expect((await ready(s)).body.refused).toBeUndefined();
  }, 120_000);
});
