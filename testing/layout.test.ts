// The arrows of the layout point down (docs/layout.md): cli, scripts and testing on top, then server/process, then
// the edge and the surfaces (api, site, dashboard), then places, timetables and access, then accounts, then the
// pipeline: precompute, the store, the catalog and astronomy, and the zones at the bottom. This test reads every
// production file's import lines and fails on an arrow that points up, on a surface that imports another surface (or
// the edge one), on production code that imports the test harness, on a circle of imports between files, and on a
// pipeline folder of more than 16 source files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Layers, highest first; a file may import its own layer's files and lower layers'. */
const LAYERS: Array<[rank: number, prefixes: string[]]> = [
  [7, ['cli/', 'scripts/', 'deploy/']],
  [6, ['testing/']],
  [5, ['server/process/']],
  [4, ['server/edge/', 'server/api/', 'server/site/', 'server/dashboard/']],
  // server/web: what the HTML surfaces share (the escaping template, static assets, security headers).
  [3, ['server/places/', 'server/timetables/', 'server/access/', 'server/web/']],
  [2, ['server/accounts/']],
  // The vocabulary every server folder shares: error codes, public URL shapes, the log, the metrics' counters.
  [1.5, ['server/errors.ts', 'server/links.ts', 'server/log.ts', 'server/threadCounters.ts']],
  // The pipeline's rooms: the batch job over the store, the store over the day's computation, the catalog beside
  // it, and the tz database and local clocks under everything.
  [1, ['pipeline/precompute/']],
  [0.8, ['pipeline/store/']],
  [0.6, ['pipeline/astronomy/', 'pipeline/catalog/']],
  [0.4, ['pipeline/zones/']],
];
const SURFACES = ['server/edge/', 'server/api/', 'server/site/', 'server/dashboard/'];

const rankOf = (file: string): number => LAYERS.find(([, prefixes]) => prefixes.some((p) => file.startsWith(p)))?.[0] ?? Infinity;
const surfaceOf = (file: string): string | undefined => SURFACES.find((s) => file.startsWith(s));

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : sourceFiles(rel);
    return /\.(ts|mjs)$/.test(name) ? [rel] : [];
  });
}

/** The project files a file imports (relative specifiers, `.js` standing for `.ts`). */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specifiers.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)).replace(/\.js$/, '.ts'));
}

/** Every arrow that breaks the rules, as `from → to (why)`. */
export function violations(files: ReadonlyArray<[file: string, text: string]>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (/\.test\.ts$/.test(file)) continue; // tests may reach anything they test
    for (const target of importsOf(file, text)) {
      const why =
        file.startsWith('pipeline/') && !target.startsWith('pipeline/')
          ? 'the pipeline imports nothing of the server, the CLI or the tests'
          : !file.startsWith('testing/') && !file.startsWith('scripts/') && !file.startsWith('deploy/') && target.startsWith('testing/')
            ? 'production code never imports the test harness'
            : rankOf(target) > rankOf(file)
              ? 'an arrow pointing up'
              : surfaceOf(file) && surfaceOf(target) && surfaceOf(file) !== surfaceOf(target) && !(surfaceOf(target) === 'server/edge/' && surfaceOf(file) !== 'server/edge/')
                ? 'a surface importing another surface'
                : undefined;
      if (why) found.push(`${file} → ${target} (${why})`);
    }
  }
  return found;
}

/** The circles of imports between files (each a strongly connected set of two or more, or a file importing itself). */
export function importCircles(files: ReadonlyArray<[file: string, text: string]>): string[][] {
  const edges = new Map(files.map(([file, text]) => [file, importsOf(file, text)]));
  // Tarjan's algorithm, iterative over the explicit stack of a depth-first walk.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const walk: Array<[string, number]> = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (walk.length > 0) {
      const top = walk[walk.length - 1];
      const [node, next] = top;
      const targets = (edges.get(node) ?? []).filter((t) => edges.has(t));
      if (next < targets.length) {
        top[1]++;
        const target = targets[next];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          walk.push([target, 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
        continue;
      }
      walk.pop();
      if (walk.length > 0) {
        const parent = walk[walk.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== node);
        if (members.length > 1 || (edges.get(node) ?? []).includes(node)) circles.push(members.sort());
      }
    }
  }
  return circles;
}

/** Folders holding more than `most` source files (tests not counted), with their count. */
export function crowdedFolders(files: readonly string[], most = 16): string[] {
  const counts = new Map<string, number>();
  for (const file of files) {
    if (file.endsWith('.test.ts')) continue;
    const folder = path.posix.dirname(file);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > most).map(([folder, n]) => `${folder}: ${n}`);
}

describe('the layout', () => {
  it('has every arrow pointing down', () => {
    const files = ['pipeline', 'server', 'cli', 'testing', 'scripts', 'deploy'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(80);
    // Every production file belongs to a layer.
    expect(files.filter((f) => rankOf(f) === Infinity && !f.endsWith('.test.ts'))).toEqual([]);
    expect(violations(files.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]))).toEqual([]);
  });

  it('has no circle of imports between files, and no pipeline folder of more than 16 source files', () => {
    const files = ['pipeline', 'server', 'cli', 'testing', 'scripts', 'deploy'].flatMap(sourceFiles);
    const texts = files.map((f): [string, string] => [f, readFileSync(path.join(ROOT, f), 'utf8')]);
    expect(importCircles(texts)).toEqual([]);
    // The pipeline's rooms stay small enough to read (the server's folders are by concern, some larger).
    expect(crowdedFolders(files.filter((f) => f.startsWith('pipeline/')))).toEqual([]);
    // The pipeline lives in its rooms: no source file left at its top.
    expect(files.filter((f) => /^pipeline\/[^/]+$/.test(f))).toEqual([]);
  });

  it('catches circles and crowded folders', () => {
    const circle: Array<[string, string]> = [
      ['server/accounts/store.ts', "import { LmdbStore } from './lmdbStore.js';"],
      ['server/accounts/lmdbStore.ts', "import type { Store } from './store.js';"],
      ['server/dashboard/a.ts', "import { b } from './b.js';"],
      ['server/dashboard/b.ts', "import { c } from './c.js';"],
      ['server/dashboard/c.ts', "import type { A } from './a.js';"],
      ['server/dashboard/d.ts', "import { a } from './a.js';"],
      ['server/web/self.ts', "export { x } from './self.js';"],
    ];
    expect(importCircles(circle)).toEqual([
      ['server/accounts/lmdbStore.ts', 'server/accounts/store.ts'],
      ['server/dashboard/a.ts', 'server/dashboard/b.ts', 'server/dashboard/c.ts'],
      ['server/web/self.ts'],
    ]);
    expect(importCircles(circle.filter(([f]) => f !== 'server/dashboard/c.ts' && f !== 'server/web/self.ts' && f !== 'server/accounts/lmdbStore.ts'))).toEqual([]);
    const many = Array.from({ length: 17 }, (_, i) => `pipeline/zones/f${i}.ts`);
    expect(crowdedFolders([...many, 'pipeline/zones/f.test.ts'])).toEqual(['pipeline/zones: 17']);
    expect(crowdedFolders(many.slice(1))).toEqual([]);
    expect(violations([['pipeline/zones/x.ts', "import { computeDay } from '../astronomy/prayerTimes.js';"]])).toHaveLength(1);
    expect(violations([['pipeline/astronomy/x.ts', "import { localDate } from '../zones/localTime.js';"]])).toEqual([]);
  });

  it('catches each kind of wrong arrow', () => {
    const wrong: Array<[string, string]> = [
      ['pipeline/x.ts', "import { serve } from '../server/process/serve.js';"],
      ['server/accounts/x.ts', "import type { Usage } from '../access/quota.js';"],
      ['server/api/x.ts', "import { page } from '../site/page.js';"],
      ['server/edge/x.ts', "import { apiSurface } from '../api/apiSurface.js';"],
      ['server/places/x.ts', "import { startServer } from '../../testing/serverProcess.js';"],
      ['server/timetables/x.ts', "export { cityParam } from '../api/location.js';"],
    ];
    expect(violations(wrong)).toHaveLength(wrong.length);
    expect(violations([['server/api/x.ts', "import type { Surface } from '../edge/edge.js';\nimport { log } from '../log.js';"]])).toEqual([]);
  });
});
