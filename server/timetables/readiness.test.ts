// What /readyz says in each state a server can be in (the endpoint itself is exercised in bundleFollower.test.ts).
import { describe, expect, it } from 'vitest';
import type { BundleStatus } from './bundleFollower.js';
import { readiness, type ReadinessInput } from './readiness.js';

const bundle = (over: Partial<BundleStatus> = {}): BundleStatus => ({
  storeUrl: '/srv/bundles',
  build: 'build-b',
  latest: { build: 'build-b', published: '2026-01-01T00:00:00Z' },
  fetching: null,
  refused: null,
  setAside: null,
  problem: null,
  checks: 3,
  ...over,
});
const input = (over: Partial<ReadinessInput> = {}): ReadinessInput => ({
  serving: true,
  build: 'build-b',
  storeProblem: undefined,
  storeSetAside: undefined,
  followsStoreUrl: true,
  bundle: bundle(),
  ...over,
});

describe('/readyz', () => {
  it('without STORE_URL: ready once serving, with or without a store, unless the store cannot be read', () => {
    expect(readiness(input({ followsStoreUrl: false, bundle: undefined, build: undefined }))).toEqual({ ready: true, body: { status: 'ready', build: null } });
    expect(readiness(input({ followsStoreUrl: false, bundle: undefined })).ready).toBe(true);
    expect(readiness(input({ followsStoreUrl: false, storeProblem: 'gone' })).ready).toBe(false);
    expect(readiness(input({ followsStoreUrl: false, serving: false })).body).toMatchObject({ status: 'not_ready', reason: 'starting or stopping' });
  });

  it('with STORE_URL: ready on the latest build', () => {
    expect(readiness(input())).toEqual({ ready: true, body: { status: 'ready', build: 'build-b', latest: 'build-b' } });
  });

  it('with STORE_URL: not ready before any good build is here', () => {
    const none = readiness(input({ build: undefined, bundle: bundle({ build: null, latest: null }) }));
    expect(none.ready).toBe(false);
    expect(none.body).toMatchObject({ reason: 'no build yet: nothing is published at /srv/bundles yet' });
    const refused = readiness(input({ build: undefined, bundle: bundle({ build: null, refused: { build: 'build-b', reason: 'bad hash' } }) }));
    expect(refused).toMatchObject({ ready: false, body: { reason: 'no build yet: bad hash', refused: { build: 'build-b' } } });
    expect(readiness(input({ bundle: undefined })).ready).toBe(false);
  });

  it('with STORE_URL: ready on the last good build while a newer one downloads, was refused or cannot be fetched', () => {
    const latest = { build: 'build-c', published: '' };
    expect(readiness(input({ bundle: bundle({ latest, fetching: 'build-c' }) })).body).toMatchObject({ status: 'ready', build: 'build-b', latest: 'build-c', fetching: 'build-c' });
    expect(readiness(input({ bundle: bundle({ latest, refused: { build: 'build-c', reason: 'x' } }) })).ready).toBe(true);
    expect(readiness(input({ bundle: bundle({ latest, setAside: { build: 'build-c', reason: 'x' } }) })).ready).toBe(true);
    expect(readiness(input({ bundle: bundle({ latest, problem: 'ECONNREFUSED' }) })).body).toMatchObject({ status: 'ready', problem: 'ECONNREFUSED' });
  });

  it('with STORE_URL: not ready while this thread has not switched to the build it should hold', () => {
    expect(readiness(input({ build: 'build-a' })).body).toMatchObject({ status: 'not_ready', reason: 'switching to build-b', build: 'build-a' });
    expect(readiness(input({ build: undefined, storeSetAside: 'other catalog' })).body.reason).toBe('build-b is set aside here: other catalog');
  });
});
