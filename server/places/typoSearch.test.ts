// The typo index and its lookups against a plain oracle (every name measured), on made-up names and on the real
// catalog's; and a catalog file without the index (built before it) refused with a message that says what to do.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Packr } from 'msgpackr';
import { describe, expect, inject, it } from 'vitest';
import { CATALOG_FORMAT, catalogPath, readCatalog } from '../../pipeline/catalog/catalogFile.js';
import { buildTypoIndex } from '../../pipeline/catalog/typoIndex.js';
import { buildSharedCatalog, CatalogTables, SortedStrings } from './catalogTables.js';
import { codeUnits, distanceWithin, TWO_CHANGES_UP_TO, TypoSearch } from './typoSearch.js';

let seed = 5;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: ArrayLike<T>): T => list[Math.floor(random() * list.length)];

/** The textbook optimal string alignment distance, for the oracle. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const LETTERS = 'abcdeiklmnorstuy ';
/** A name with one random edit of the given kind. */
function edit(name: string, kind: 'leave out' | 'add' | 'change' | 'swap'): string {
  const at = Math.floor(random() * name.length);
  if (kind === 'leave out') return name.slice(0, at) + name.slice(at + 1);
  if (kind === 'add') return name.slice(0, at) + pick(LETTERS) + name.slice(at);
  if (kind === 'change') return name.slice(0, at) + pick(LETTERS) + name.slice(at + 1);
  return at + 1 < name.length ? name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2) : name;
}

function searchOver(names: string[]): { keys: string[]; search: TypoSearch } {
  const keys = [...new Set(names)].sort();
  const sorted = codeUnitsOf(keys);
  return { keys, search: new TypoSearch(new SortedStrings(sorted.chars, sorted.offsets), buildTypoIndex(keys)) };
}

function codeUnitsOf(strings: readonly string[]): { chars: Uint16Array; offsets: Int32Array } {
  const offsets = new Int32Array(strings.length + 1);
  strings.forEach((s, k) => (offsets[k + 1] = offsets[k] + s.length));
  const chars = new Uint16Array(offsets[strings.length]);
  strings.forEach((s, k) => chars.set(codeUnits(s), offsets[k]));
  return { chars, offsets };
}

describe('typo lookups against every name measured', () => {
  const names = Array.from({ length: 4000 }, () => Array.from({ length: 3 + Math.floor(random() * 9) }, () => pick(LETTERS.slice(0, 8))).join(''));
  names.push('istanbul', 'kadikoy', 'москва', 'ankara', 'new york');
  const { keys, search } = searchOver(names);
  const oracle = (query: string, bound: number) =>
    new Map(keys.flatMap((k, id) => (osa(query, k) <= bound ? [[id, osa(query, k)] as [number, number]] : [])));

  it('finds exactly the names within one edit, in any script', () => {
    const queries = ['istanbl', 'kadikyo', 'мосвка', 'ankaraa', ...Array.from({ length: 150 }, () => edit(pick(keys), pick(['leave out', 'add', 'change', 'swap'] as const)))];
    for (const q of queries) expect(search.near(q, 1), q).toEqual(oracle(q, 1));
  });

  it('finds exactly the names within two edits, up to TWO_CHANGES_UP_TO letters', () => {
    const kinds = ['leave out', 'add', 'change', 'swap'] as const;
    const queries = Array.from({ length: 150 }, () => edit(edit(pick(keys), pick(kinds)), pick(kinds))).filter((q) => q.length <= TWO_CHANGES_UP_TO);
    for (const q of queries) expect(search.near(q, 2), q).toEqual(oracle(q, 2));
  });

  it('without two changes, finds every name within two edits of which one adds or leaves out a letter', () => {
    for (let n = 0; n < 150; n++) {
      const name = pick(keys);
      const q = edit(edit(name, pick(['leave out', 'add'] as const)), pick(['leave out', 'add', 'change', 'swap'] as const));
      const found = search.near(q, 2, false);
      const all = oracle(q, 2);
      for (const [id, d] of found) expect(all.get(id), q).toBe(d);
      const id = keys.indexOf(name);
      if (all.has(id)) expect(found.get(id), `${q} → ${name}`).toBe(all.get(id));
    }
  });

  it('measures with the same distance as the oracle', () => {
    for (let n = 0; n < 300; n++) {
      const a = pick(keys);
      const b = edit(edit(pick(keys), 'change'), 'swap');
      const exact = osa(a, b);
      for (const bound of [0, 1, 2, 3]) expect(distanceWithin(codeUnits(a), codeUnits(b), 0, b.length, bound), `${a} ${b}`).toBe(Math.min(exact, bound + 1));
    }
  });
});

describe('typo lookups in the real catalog', () => {
  it('find a name back after one or two edits, at most the distance the edits made', () => {
    const catalog = readCatalog(inject('catalogDataDir'))!;
    const tables = new CatalogTables(buildSharedCatalog(catalog));
    const search = new TypoSearch(tables.keys, tables.typo);
    const latin = catalog.search.keys.filter((k) => /^[a-z ]{8,}$/.test(k));
    for (let n = 0; n < 300; n++) {
      const name = pick(latin);
      const id = tables.keys.lowerBound(name);
      const once = edit(name, pick(['leave out', 'add', 'change', 'swap'] as const));
      expect(search.near(once, 1).get(id), `${name} as ${once}`).toBe(osa(once, name));
      const twice = edit(once, pick(['leave out', 'add'] as const));
      if (osa(twice, name) <= 2) expect(search.near(twice, 2).get(id), `${name} as ${twice}`).toBe(osa(twice, name));
    }
  });
});

describe('a catalog built before the typo index', () => {
  it('is refused with a message saying how to rebuild it', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'prayer-times-old-catalog-'));
    mkdirSync(path.dirname(catalogPath(dataDir)), { recursive: true });
    const old = { format: CATALOG_FORMAT - 1, builtAt: '', sources: {}, places: [], spatialOrder: new Int32Array(0), search: { keys: [] } };
    writeFileSync(catalogPath(dataDir), new Packr({ moreTypes: true }).pack(old));
    expect(() => readCatalog(dataDir)).toThrow(/is not a catalog of format \d+; rebuild it with: npm run cli -- catalog build/);
  });
});
