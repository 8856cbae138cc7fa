// `store publish` with bad input: a clear one-line error and a non-zero exit, never a stack trace, and nothing
// written where the bundle would go.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { precompute } from '../pipeline/precompute/precompute.js';
import { dataDirWithCatalog, runCli } from '../testing/serverProcess.js';

const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe('store publish', () => {
  let withStore: string;
  beforeAll(async () => {
    withStore = dataDirWithCatalog(inject('catalogDataDir'));
    await precompute({ dataDir: withStore, years: [2026], methods: 'default', madhabs: 'default', scope: 'places:g745044', workers: 1 });
  }, 60_000);

  it('without --to says it is required', async () => {
    const { code, stderr } = await runCli(['store', 'publish'], { DATA_DIR: withStore });
    expect(code).not.toBe(0);
    expect(stderr).toContain("required option '--to <location>' not specified");
    noStack(stderr);
  });

  it('to an unreachable URL names it and fails', async () => {
    const { code, stderr } = await runCli(['store', 'publish', '--to', 'http://127.0.0.1:9/bundles'], { DATA_DIR: withStore });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^store publish failed: PUT http:\/\/127\.0\.0\.1:9\/bundles\/build-[\w.-]+\/data\.mdb failed: connect ECONNREFUSED/);
    noStack(stderr);
  });

  it('with no live store says to build one', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'prayer-times-data-'));
    const to = path.join(empty, 'bundles');
    const { code, stderr } = await runCli(['store', 'publish', '--to', to], { DATA_DIR: empty });
    expect(code).toBe(1);
    expect(stderr).toContain('store publish failed: no live store under');
    expect(stderr).toContain('npm run cli -- precompute');
    noStack(stderr);
    expect(existsSync(to)).toBe(false);
  });

  it('to a directory whose parent does not exist, or to another scheme, refuses', async () => {
    const missing = await runCli(['store', 'publish', '--to', '/nonexistent-parent/bundles'], { DATA_DIR: withStore });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('store publish failed: /nonexistent-parent is not a directory');
    const ftp = await runCli(['store', 'publish', '--to', 'ftp://example.com/x'], { DATA_DIR: withStore });
    expect(ftp.code).toBe(1);
    expect(ftp.stderr).toContain('a bundle location is a directory or an http(s):// URL');
    noStack(missing.stderr + ftp.stderr);
  });
});
