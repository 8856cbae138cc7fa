// GET /readyz, for load balancers: 200 only when this server serves and holds the build it should. It never asks
// Redis (a Redis outage must not empty the load balancer; the limits have their own failure mode) and never reads
// STORE_URL on the request's path: it reads what this thread holds and what the primary's BundleFollower last said.
//
// Without STORE_URL: ready once serving, with a readable store or none at all (a set-aside store is computed live:
// correct, so ready). With STORE_URL: ready when this thread holds the build the follower vouches for: the latest
// published build once fetched and checked, or the last good one while a newer one downloads, was refused or set
// aside, or cannot be fetched (the body says which). Not ready before any good build is here.
import type { BundleStatus } from './bundleFollower.js';

export interface ReadinessInput {
  serving: boolean;
  /** The build this thread serves from, if any. */
  build: string | undefined;
  storeProblem: string | undefined;
  storeSetAside: string | undefined;
  /** Whether STORE_URL is set, and what the follower last said (undefined until it has said anything). */
  followsStoreUrl: boolean;
  bundle: BundleStatus | undefined;
}

export interface Readiness {
  ready: boolean;
  body: Record<string, unknown>;
}

const notReady = (reason: string, extra: Record<string, unknown> = {}): Readiness => ({ ready: false, body: { status: 'not_ready', reason, ...extra } });

export function readiness(input: ReadinessInput): Readiness {
  if (!input.serving) return notReady('starting or stopping');
  if (input.storeProblem !== undefined) return notReady(`the store cannot be read: ${input.storeProblem}`, { build: input.build ?? null });
  if (!input.followsStoreUrl) return { ready: true, body: { status: 'ready', build: input.build ?? null } };

  const bundle = input.bundle;
  if (!bundle) return notReady('the store follower has not reported yet', { build: input.build ?? null });
  const notes = {
    latest: bundle.latest?.build ?? null,
    ...(bundle.fetching ? { fetching: bundle.fetching } : {}),
    ...(bundle.refused ? { refused: bundle.refused } : {}),
    ...(bundle.setAside ? { setAside: bundle.setAside } : {}),
    ...(bundle.problem ? { problem: bundle.problem } : {}),
  };
  if (bundle.build === null) {
    const why = bundle.fetching
      ? `fetching ${bundle.fetching}`
      : (bundle.refused?.reason ?? bundle.setAside?.reason ?? bundle.problem ?? (bundle.latest ? `${bundle.latest.build} is not here yet` : `nothing is published at ${bundle.storeUrl} yet`));
    return notReady(`no build yet: ${why}`, { build: input.build ?? null, ...notes });
  }
  if (input.build !== bundle.build) {
    const why = input.storeSetAside ? `${bundle.build} is set aside here: ${input.storeSetAside}` : `switching to ${bundle.build}`;
    return notReady(why, { build: input.build ?? null, ...notes });
  }
  return { ready: true, body: { status: 'ready', build: bundle.build, ...notes } };
}
