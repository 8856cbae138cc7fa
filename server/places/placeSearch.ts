// Finding places by name (contract: exact name before prefix, then the larger population; names folded the
// Turkish way), over the index the pipeline stored with the catalog: a query is binary searches and short lists.
import type { CatalogPlace } from '../../pipeline/catalog/buildCatalog.js';
import { PRECOMPUTED_PREFIX_LENGTH, type FlatLists, type SearchIndex } from '../../pipeline/catalog/searchIndex.js';
import { foldName } from '../../pipeline/textFold.js';

export interface SearchFilter {
  country?: string;
  /** Folded region name. */
  region?: string;
}

function lowerBound(sorted: readonly string[], text: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < text) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const list = (lists: FlatLists, k: number): Int32Array => lists.values.subarray(lists.offsets[k], lists.offsets[k + 1]);

export class PlaceSearch {
  private readonly regionKey: string[];

  constructor(
    private readonly places: readonly Pick<CatalogPlace, 'country' | 'region' | 'rankWeight'>[],
    private readonly index: SearchIndex,
  ) {
    const folded = new Map<string, string>();
    this.regionKey = places.map((p) => {
      let key = folded.get(p.region);
      if (key === undefined) folded.set(p.region, (key = foldName(p.region)));
      return key;
    });
  }

  get size(): number {
    return this.index.keys.length;
  }

  private passes(i: number, filter: SearchFilter | undefined): boolean {
    if (!filter) return true;
    if (filter.country && this.places[i].country !== filter.country) return false;
    if (filter.region && this.regionKey[i] !== filter.region) return false;
    return true;
  }

  /** Indices of the best `limit` places for a folded name: exact matches first, then prefix matches. */
  search(folded: string, limit: number, filter?: SearchFilter): number[] {
    const out: number[] = [];
    if (folded === '') return out;
    const seen = new Set<number>();
    const take = (i: number): boolean => {
      if (!seen.has(i) && this.passes(i, filter)) {
        seen.add(i);
        out.push(i);
      }
      return out.length >= limit;
    };
    const { keys, postings, prefixes, prefixBest } = this.index;
    const at = lowerBound(keys, folded);
    if (keys[at] === folded) {
      for (const i of list(postings, at)) if (take(i)) return out;
    }
    if (!filter && folded.length <= PRECOMPUTED_PREFIX_LENGTH) {
      const p = lowerBound(prefixes, folded);
      if (prefixes[p] === folded) for (const i of list(prefixBest, p)) if (take(i)) break;
      return out;
    }
    // Longer prefixes (or a filter): rank every place under the key range.
    const candidates: number[] = [];
    for (let k = at; k < keys.length && keys[k].startsWith(folded); k++) {
      for (const i of list(postings, k)) if (!seen.has(i) && this.passes(i, filter)) candidates.push(i);
    }
    candidates.sort((a, b) => this.places[b].rankWeight - this.places[a].rankWeight || a - b);
    for (const i of candidates) if (take(i)) break;
    return out;
  }
}
