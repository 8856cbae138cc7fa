// Finding places by name (contract: exact name before prefix, then the larger population; names folded the
// Turkish way), over the index the pipeline stored with the catalog (shared by the threads, catalogTables.ts): a
// query is binary searches and short lists.
import { PRECOMPUTED_PREFIX_LENGTH, type FlatLists } from '../../pipeline/catalog/searchIndex.js';
import { foldName } from '../../pipeline/catalog/textFold.js';
import type { CatalogTables } from './catalogTables.js';

export interface SearchFilter {
  country?: string;
  /** Folded region name. */
  region?: string;
}

const list = (lists: FlatLists, k: number): Int32Array => lists.values.subarray(lists.offsets[k], lists.offsets[k + 1]);

export class PlaceSearch {
  /** The folded name of each region of the tables' region list. */
  private readonly regionKeys: string[];

  constructor(private readonly tables: CatalogTables) {
    this.regionKeys = tables.regions.map((r) => foldName(r));
  }

  get size(): number {
    return this.tables.keys.length;
  }

  /** Indices of the best `limit` places for a folded name: exact matches first, then prefix matches. */
  search(folded: string, limit: number, filter?: SearchFilter): number[] {
    const out: number[] = [];
    if (folded === '') return out;
    const { keys, postings, prefixes, prefixBest, rankWeight } = this.tables;
    // The filter as table indexes: a country or region no place has lets nothing pass.
    const country = filter?.country ? this.tables.countries.indexOf(filter.country) : -2;
    const regions = filter?.region ? this.regionKeys.flatMap((k, r) => (k === filter.region ? [r] : [])) : undefined;
    const passes = (i: number): boolean =>
      (country === -2 || this.tables.country[i] === country) && (regions === undefined || regions.includes(this.tables.region[i]));
    const seen = new Set<number>();
    const take = (i: number): boolean => {
      if (!seen.has(i) && passes(i)) {
        seen.add(i);
        out.push(i);
      }
      return out.length >= limit;
    };
    const at = keys.lowerBound(folded);
    if (at < keys.length && keys.compare(at, folded) === 0) {
      for (const i of list(postings, at)) if (take(i)) return out;
    }
    if (!filter && folded.length <= PRECOMPUTED_PREFIX_LENGTH) {
      const p = prefixes.lowerBound(folded);
      if (p < prefixes.length && prefixes.compare(p, folded) === 0) for (const i of list(prefixBest, p)) if (take(i)) break;
      return out;
    }
    // Longer prefixes (or a filter): rank every place under the key range.
    const candidates: number[] = [];
    for (let k = at; k < keys.length && keys.startsWith(k, folded); k++) {
      for (const i of list(postings, k)) if (!seen.has(i) && passes(i)) candidates.push(i);
    }
    candidates.sort((a, b) => rankWeight[b] - rankWeight[a] || a - b);
    for (const i of candidates) if (take(i)) break;
    return out;
  }
}
