// Finding places by name (contract: exact name before prefix, then the larger population; names folded the
// Turkish way), over the index the pipeline stored with the catalog (shared by the threads, catalogTables.ts): a
// query is binary searches and short lists. Below both, names one or two edits away (typos, typoSearch.ts), ranked by
// closeness and population together.
import { PRECOMPUTED_PREFIX_LENGTH, type FlatLists } from '../../pipeline/catalog/searchIndex.js';
import { foldName } from '../../pipeline/catalog/textFold.js';
import type { CatalogTables } from './catalogTables.js';
import { TWO_CHANGES_UP_TO, TypoSearch } from './typoSearch.js';

export interface SearchFilter {
  country?: string;
  /** Folded region name. */
  region?: string;
}

export type MatchKind = 'exact' | 'prefix' | 'typo';

export interface PlaceMatch {
  index: number;
  kind: MatchKind;
  /** Letters added, left out, changed or swapped between the query and the name (0 for exact and prefix matches). */
  edits: number;
}

/** Typos are tolerated from this many letters on: one edit… */
export const ONE_EDIT_FROM = 4;
/** …and two from this many. */
export const TWO_EDITS_FROM = 8;

/** How many edits a query of this many letters may be from a name (0: none). */
export function editsAllowed(length: number): 0 | 1 | 2 {
  return length >= TWO_EDITS_FROM ? 2 : length >= ONE_EDIT_FROM ? 1 : 0;
}

/**
 * Closeness and population in one number: the place's rank weight (its population, or a district's estimate) in
 * orders of magnitude, less two for each edit. A place one edit away ranks with one a hundredth its size matched
 * exactly, two edits away with one a ten-thousandth.
 */
export function matchScore(rankWeight: number, edits: number): number {
  return Math.log10(Math.max(rankWeight, 1)) - 2 * edits;
}

const list = (lists: FlatLists, k: number): Int32Array => lists.values.subarray(lists.offsets[k], lists.offsets[k + 1]);

export class PlaceSearch {
  /** The folded name of each region of the tables' region list. */
  private readonly regionKeys: string[];
  private readonly typoSearch: TypoSearch;
  private top: number | undefined;
  private regionsByName: Map<string, number[]> | undefined;

  constructor(private readonly tables: CatalogTables) {
    this.regionKeys = tables.regions.map((r) => foldName(r));
    this.typoSearch = new TypoSearch(tables.keys, tables.typo);
  }

  get size(): number {
    return this.tables.keys.length;
  }

  rankWeight(i: number): number {
    return this.tables.rankWeight[i];
  }

  /** The highest matchScore of any place (the largest place, matched exactly). */
  get topScore(): number {
    if (this.top === undefined) this.top = matchScore(this.tables.rankWeight.reduce((a, b) => Math.max(a, b), 0), 0);
    return this.top;
  }

  /** Whether place i passes a filter: a country or region no place has lets nothing pass. */
  private passes(filter: SearchFilter | undefined): (i: number) => boolean {
    if (!filter) return () => true;
    const country = filter.country ? this.tables.countries.indexOf(filter.country) : -2;
    const regions = filter.region === undefined ? undefined : this.regionsNamed(filter.region);
    return (i) => (country === -2 || this.tables.country[i] === country) && (regions === undefined || regions.includes(this.tables.region[i]));
  }

  /** The regions of the tables' list with this folded name (several countries may have one). */
  private regionsNamed(folded: string): readonly number[] {
    if (!this.regionsByName) {
      this.regionsByName = new Map();
      this.regionKeys.forEach((k, r) => {
        const list = this.regionsByName!.get(k);
        if (list) list.push(r);
        else this.regionsByName!.set(k, [r]);
      });
    }
    return this.regionsByName.get(folded) ?? [];
  }

  /** Indices of the best `limit` places for a folded name: exact matches first, then prefix matches. */
  search(folded: string, limit: number, filter?: SearchFilter): number[] {
    const exact = this.exact(folded, limit, filter);
    return [...exact, ...this.prefixed(folded, limit - exact.length, filter, new Set(exact))];
  }

  /** The places named exactly so, best first (an own name counting ten times an alternate one: searchIndex.ts). */
  exact(folded: string, limit: number, filter?: SearchFilter): number[] {
    const out: number[] = [];
    if (folded === '' || limit <= 0) return out;
    const { keys, postings } = this.tables;
    const passes = this.passes(filter);
    const at = keys.lowerBound(folded);
    if (at < keys.length && keys.compare(at, folded) === 0) {
      for (const i of list(postings, at)) {
        if (passes(i)) out.push(i);
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /** The places with a longer name that begins so (none of `skip`), the larger first. */
  prefixed(folded: string, limit: number, filter?: SearchFilter, skip: ReadonlySet<number> = new Set()): number[] {
    const out: number[] = [];
    if (folded === '' || limit <= 0) return out;
    const { keys, postings, prefixes, prefixBest, rankWeight } = this.tables;
    const seen = new Set(skip);
    const take = (i: number): boolean => {
      if (!seen.has(i)) {
        seen.add(i);
        out.push(i);
      }
      return out.length >= limit;
    };
    if (!filter && folded.length <= PRECOMPUTED_PREFIX_LENGTH) {
      const p = prefixes.lowerBound(folded);
      if (p < prefixes.length && prefixes.compare(p, folded) === 0) for (const i of list(prefixBest, p)) if (take(i)) break;
      return out;
    }
    // Longer prefixes (or a filter): rank every place under the key range.
    const passes = this.passes(filter);
    const candidates: number[] = [];
    for (let k = keys.lowerBound(folded); k < keys.length && keys.startsWith(k, folded); k++) {
      for (const i of list(postings, k)) if (!seen.has(i) && passes(i)) candidates.push(i);
    }
    candidates.sort((a, b) => rankWeight[b] - rankWeight[a] || a - b);
    for (const i of candidates) if (take(i)) break;
    return out;
  }

  /**
   * The places with a name within the edits a query of its length allows (editsAllowed), but not exactly so, none of
   * `skip`: the best `limit` by matchScore, each with its fewest edits. `twoChanges: false` leaves out the costliest
   * kind of two edits, two letters changed or swapped (typoSearch.ts).
   */
  typos(folded: string, limit: number, filter?: SearchFilter, skip: ReadonlySet<number> = new Set(), twoChanges?: boolean): PlaceMatch[] {
    const allowed = editsAllowed(folded.length);
    if (allowed === 0 || limit <= 0) return [];
    const { postings, rankWeight } = this.tables;
    const passes = this.passes(filter);
    const edits = new Map<number, number>();
    for (const [key, distance] of this.typoSearch.near(folded, allowed, twoChanges && folded.length <= TWO_CHANGES_UP_TO)) {
      if (distance === 0) continue;
      for (const i of list(postings, key)) {
        if (skip.has(i) || !passes(i)) continue;
        const before = edits.get(i);
        if (before === undefined || distance < before) edits.set(i, distance);
      }
    }
    const score = (i: number) => matchScore(rankWeight[i], edits.get(i)!);
    return [...edits.keys()]
      .sort((a, b) => score(b) - score(a) || a - b)
      .slice(0, limit)
      .map((index) => ({ index, kind: 'typo', edits: edits.get(index)! }));
  }
}
