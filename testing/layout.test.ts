// The arrows of the layout point down (README, "Layout"): cli, scripts and testing on top, then server/process, then
// the edge and the surfaces (api, site, dashboard), then places, timetables and access, then accounts, then the
// pipeline. This test reads every production file's import lines and fails on an arrow that points up, on a surface
// that imports another surface (or the edge one), and on production code that imports the test harness.
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
  // The vocabulary every server folder shares: error codes, public URL shapes, the log.
  [1.5, ['server/errors.ts', 'server/links.ts', 'server/log.ts']],
  [1, ['pipeline/']],
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

describe('the layout', () => {
  it('has every arrow pointing down', () => {
    const files = ['pipeline', 'server', 'cli', 'testing', 'scripts', 'deploy'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(80);
    // Every production file belongs to a layer.
    expect(files.filter((f) => rankOf(f) === Infinity && !f.endsWith('.test.ts'))).toEqual([]);
    expect(violations(files.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]))).toEqual([]);
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
