// The catalog on disk: one msgpack file under DATA_DIR, replaced atomically (write beside, then rename), so a
// failed build leaves the previous catalog in place and a reader never sees half a file.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Packr } from 'msgpackr';
import type { CatalogPlace } from './buildCatalog.js';
import type { SearchIndex } from './searchIndex.js';

/**
 * 3: places have a qualifier, Turkish names their Turkish spelling, slugs one folding, and former paths are kept.
 * 4: the search index has a typo index (typoIndex.ts).
 */
export const CATALOG_FORMAT = 4;

/** A place as stored: its names live in the search index. */
export type StoredPlace = Omit<CatalogPlace, 'names'>;

export interface CatalogFile {
  format: number;
  builtAt: string;
  sources: Record<string, string>;
  places: StoredPlace[];
  search: SearchIndex;
  /** The k-d tree of the places (spatialIndex.ts). */
  spatialOrder: Int32Array;
  /** Paths places had under the former slug rule (placePaths.ts), each with the index of its place now. */
  formerPaths: FormerPaths;
}

export interface FormerPaths {
  paths: string[];
  places: Int32Array;
}

export function formerPathsOf(aliases: ReadonlyMap<string, number>): FormerPaths {
  const paths = [...aliases.keys()].sort();
  return { paths, places: Int32Array.from(paths, (p) => aliases.get(p)!) };
}

/** `moreTypes` keeps typed arrays typed (by default msgpackr gives them back as bytes). */
const packr = new Packr({ moreTypes: true });

export const catalogPath = (dataDir: string): string => path.join(dataDir, 'catalog', 'catalog.msgpack');

export function writeCatalog(dataDir: string, catalog: CatalogFile): { file: string; bytes: number } {
  const file = catalogPath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const bytes = packr.pack(catalog);
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  return { file, bytes: bytes.length };
}

export function readCatalog(dataDir: string): CatalogFile | undefined {
  const file = catalogPath(dataDir);
  if (!existsSync(file)) return undefined;
  const catalog = packr.unpack(readFileSync(file)) as CatalogFile;
  if (
    catalog?.format !== CATALOG_FORMAT ||
    !Array.isArray(catalog.places) ||
    !(catalog.spatialOrder instanceof Int32Array) ||
    !(catalog.formerPaths?.places instanceof Int32Array) ||
    !(catalog.search?.postings?.values instanceof Int32Array) ||
    !(catalog.search?.typo?.present instanceof Int32Array)
  ) {
    throw new Error(`${file} is not a catalog of format ${CATALOG_FORMAT}; rebuild it with: npm run cli -- catalog build`);
  }
  return catalog;
}
