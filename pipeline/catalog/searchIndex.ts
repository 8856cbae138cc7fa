// The name index of the catalog, built by the pipeline and stored with it so that the server only loads it:
// sorted folded names with the places under each (best first), the best places of every short prefix, and the
// typo index over the names (typoIndex.ts).
import type { CatalogPlace } from './buildCatalog.js';
import { buildTypoIndex, type TypoIndex } from './typoIndex.js';

/** Prefixes up to this length have their best places precomputed; longer ones scan their (short) key range. */
export const PRECOMPUTED_PREFIX_LENGTH = 3;
export const PRECOMPUTED_RESULTS = 50;
/**
 * Among exact matches, a place matched by its own name counts this many times its rank weight against one matched
 * by an alternate name: Cologne still finds Köln (600 times larger than any place called Cologne), but Menteşe
 * finds the district before Muğla, a town four times its estimated size that merely lists the name.
 */
export const OWN_NAME_FACTOR = 10;

/** Lists stored flat: list k is values[offsets[k] .. offsets[k + 1]). */
export interface FlatLists {
  offsets: Int32Array;
  values: Int32Array;
}

export interface SearchIndex {
  /** Sorted, unique folded names. */
  keys: string[];
  /** Place indices under each key, best first. */
  postings: FlatLists;
  /** Sorted prefixes of up to PRECOMPUTED_PREFIX_LENGTH characters… */
  prefixes: string[];
  /** …and their best places, best first. */
  prefixBest: FlatLists;
  /** The names and their forms with a letter left out, for the names within an edit or two of a query. */
  typo: TypoIndex;
}

function flatten(keys: string[], lists: Map<string, number[]>): FlatLists {
  const offsets = new Int32Array(keys.length + 1);
  let total = 0;
  keys.forEach((k, i) => {
    offsets[i] = total;
    total += lists.get(k)!.length;
  });
  offsets[keys.length] = total;
  const values = new Int32Array(total);
  keys.forEach((k, i) => values.set(lists.get(k)!, offsets[i]));
  return { offsets, values };
}

/** Best first: the larger rank weight, then the lower index (the catalog is sorted by id, so this is stable). */
export function rankOrder(places: readonly Pick<CatalogPlace, 'rankWeight'>[]): number[] {
  return places.map((_, i) => i).sort((a, b) => places[b].rankWeight - places[a].rankWeight || a - b);
}

export function buildSearchIndex(places: readonly CatalogPlace[]): SearchIndex {
  const byKey = new Map<string, number[]>();
  const weightInKey = new Map<string, number[]>();
  const byPrefix = new Map<string, number[]>();
  // Walking places best first makes every prefix list come out ranked.
  for (const i of rankOrder(places)) {
    const prefixesSeen = new Set<string>();
    places[i].names.forEach((name, n) => {
      const weight = places[i].rankWeight * (n < places[i].ownNameCount ? OWN_NAME_FACTOR : 1);
      const list = byKey.get(name);
      if (!list) {
        byKey.set(name, [i]);
        weightInKey.set(name, [weight]);
      } else if (list[list.length - 1] !== i) {
        list.push(i);
        weightInKey.get(name)!.push(weight);
      }
      for (let n = 1; n <= Math.min(PRECOMPUTED_PREFIX_LENGTH, name.length); n++) {
        const prefix = name.slice(0, n);
        if (prefixesSeen.has(prefix)) continue;
        prefixesSeen.add(prefix);
        const best = byPrefix.get(prefix);
        if (!best) byPrefix.set(prefix, [i]);
        else if (best.length < PRECOMPUTED_RESULTS) best.push(i);
      }
    });
  }
  // Exact matches: by weight counting own names up; ties keep the rank order they were added in.
  for (const [key, list] of byKey) {
    const weights = weightInKey.get(key)!;
    if (list.length < 2) continue;
    const order = list.map((_, j) => j).sort((a, b) => weights[b] - weights[a] || a - b);
    byKey.set(key, order.map((j) => list[j]));
  }
  const keys = [...byKey.keys()].sort();
  const prefixes = [...byPrefix.keys()].sort();
  return { keys, postings: flatten(keys, byKey), prefixes, prefixBest: flatten(prefixes, byPrefix), typo: buildTypoIndex(keys) };
}
