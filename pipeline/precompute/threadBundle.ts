// A worker thread's code (the serving threads', the precompute's) as one JavaScript file, compiled once per process.
// Under Node 20 a worker that loads TypeScript through tsx starts a module-hooks thread of its own (a second V8 isolate
// with tsx and its transforms: about 33 MB resident per thread, measured in BENCHMARKS.md, issue 18); a worker that loads
// plain JavaScript needs none. esbuild (the one tsx itself runs) compiles the thread's modules into one file in the
// temporary directory, packages left as they are, imported by their resolved paths; every module keeps its own
// `import.meta.url`, so files read beside the sources (assets, tz data, examples) are found where they are.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** esbuild's API, the subset used here (the package comes with tsx; no types of its own are declared here). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ outputFiles: Array<{ path: string; contents: Uint8Array }> }>;
  stop(): void | Promise<void>;
}
interface ResolveArgs {
  path: string;
  kind: string;
  resolveDir: string;
  importer: string;
  pluginData?: unknown;
}
interface Plugin {
  name: string;
  setup(build: {
    onResolve(options: { filter: RegExp }, callback: (args: ResolveArgs) => unknown): void;
    onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => unknown): void;
    resolve(path: string, options: { kind: string; resolveDir: string; importer: string; pluginData: unknown }): Promise<{ path: string; errors: unknown[] }>;
  }): void;
}

const OWN_RESOLUTION = Symbol('esbuild resolves this one');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function esbuildOfTsx(): Esbuild {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  return fromTsx('esbuild') as Esbuild;
}

/**
 * Packages stay outside the bundle, imported by the absolute path Node would resolve them to from the importing
 * module (ESM conditions); a module's `import.meta.url` becomes its own file's URL.
 */
function sourcesInPlace(): Plugin {
  return {
    name: 'sources-in-place',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === OWN_RESOLUTION) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        // Resolved from the importer's directory with the conditions of its kind of import ("import" for import
        // statements: a package's ES module build, as Node would load it).
        const { path: resolved, errors } = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: OWN_RESOLUTION });
        if (errors.length > 0 || !resolved) return undefined;
        return { path: pathToFileURL(realpathSync(resolved)).href, external: true };
      });
      build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta')) return undefined;
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: source.replace(/\bimport\.meta\.url\b/g, url), loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/**
 * Compiles `entry` (a module of this project) and what it imports into one ES module; returns the URL of a small
 * file that turns source maps on (stack traces name the TypeScript sources, as under tsx) and imports it. The files
 * are named after their content, so servers started from the same sources share them.
 */
export async function bundleForThread(entry: URL): Promise<URL> {
  const esbuild = esbuildOfTsx();
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    mainFields: ['main'],
    // No keepNames (tsx's default): its wrappers around every function cost the precompute's day loop about 5%
    // (BENCHMARKS.md, the sixth step); nothing here reads a function's or class's name.
    sourcemap: 'linked',
    sourcesContent: false,
    sourceRoot: pathToFileURL(ROOT).href,
    absWorkingDir: ROOT,
    outfile: 'thread.mjs',
    logLevel: 'silent',
    plugins: [sourcesInPlace()],
  }).finally(() => esbuild.stop());
  const code = result.outputFiles.find((f) => f.path.endsWith('.mjs'))!.contents;
  const map = result.outputFiles.find((f) => f.path.endsWith('.map'))!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const base = path.join(tmpdir(), `prayer-times-threads-${process.getuid?.() ?? 'user'}`);
  mkdirSync(base, { recursive: true, mode: 0o700 });
  // The code the threads run: never from a folder another user could have made or could write into.
  const owner = lstatSync(base);
  if (!owner.isDirectory() || (process.getuid && owner.uid !== process.getuid()) || (owner.mode & 0o022) !== 0) {
    throw new Error(`${base} is not a private folder of this user`);
  }
  const dir = path.join(base, `${path.basename(fileURLToPath(entry)).replace(/\.\w+$/, '')}-${hash}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const write = (name: string, contents: Uint8Array | string): void => {
    // Written under a unique name, then renamed: a server starting at the same time never reads half a file.
    const partial = path.join(dir, `.${name}.${process.pid}.${Math.random().toString(36).slice(2)}`);
    writeFileSync(partial, contents);
    renameSync(partial, path.join(dir, name));
  };
  write('thread.mjs.map', map);
  write('thread.mjs', code);
  write('start.mjs', `process.setSourceMapsEnabled(true);\nawait import('./thread.mjs');\n`);
  return pathToFileURL(path.join(dir, 'start.mjs'));
}
