// What a person typed into a search (/cities, the site's search form), read every way it can mean a place and found
// in tiers (docs/catalog.md, "Typos and words in any order"). First the name exactly, then the longer names it begins,
// as `city=` finds them (placeSearch.ts); a place and its region or country written without a comma, in either
// order ("istanbul kadikoy", "paris texas"), counts as the same kind of match. Below these come names an edit or two
// away, by closeness and population together (matchScore), also with a region or country an edit or two away.
// The API keeps that order; the site lets a far larger place an edit away go first (order "people").
import { editsAllowed, matchScore, type MatchKind, type PlaceSearch, type SearchFilter } from './placeSearch.js';
import { codeUnits, distanceWithin } from './typoSearch.js';

/**
 * "contract": exact, prefix, then typos, as the API contract orders matches. "people": the same, except that typos
 * scoring above the best exact or prefix match (a place a hundred times larger an edit away) go first.
 */
export type SearchOrder = 'contract' | 'people';

export interface FoundPlace {
  index: number;
  kind: MatchKind;
  edits: number;
  /** matchScore: closeness and population in one number (an exact or prefix match has no edits). */
  score: number;
}

/** A way to read the query: the place's name and what narrows it, found so many edits from what was typed. */
interface Reading {
  name: string;
  filter?: SearchFilter;
  edits: number;
}

/** Queries of more words are read only as a whole (each split is a few lookups more). */
const MOST_WORDS_SPLIT = 6;

export class PlaceQuery {
  /** Region and country names a query may name a place with, folded; country codes are left out (`rio de`). */
  private readonly byName = new Map<string, SearchFilter>();
  /** The same names for typos: by length, each with its letter counts. */
  private readonly qualifiers: Qualifier[];

  constructor(
    private readonly search: PlaceSearch,
    countries: ReadonlyMap<string, string>,
    regions: ReadonlySet<string>,
  ) {
    for (const [name, country] of countries) if (name.length > 2 && !this.byName.has(name)) this.byName.set(name, { country });
    // A name both a country's and a region's (Georgia) reads as the country, as after a comma.
    for (const region of regions) if (region !== '' && !this.byName.has(region)) this.byName.set(region, { region });
    this.qualifiers = [...this.byName]
      .map(([name, filter]) => ({ units: codeUnits(name), counts: letterCounts(name), filter }))
      .sort((a, b) => a.units.length - b.units.length);
  }

  /**
   * The best `limit` places for a folded name and the filter its comma qualifiers gave: each place once, in the
   * order asked for.
   */
  find(folded: string, filter: SearchFilter | undefined, limit: number, order: SearchOrder): FoundPlace[] {
    if (folded === '' || limit <= 0) return [];
    const splits = filter ? [] : this.splits(folded);
    const readings: Reading[] = [{ name: folded, filter, edits: 0 }];
    for (const [name, qualifier] of splits) {
      const exact = this.byName.get(qualifier);
      if (exact) readings.push({ name, filter: exact, edits: 0 });
    }
    const found: FoundPlace[] = [];
    const seen = new Set<number>();
    const add = (index: number, kind: MatchKind, edits: number): void => {
      if (seen.has(index)) return;
      seen.add(index);
      found.push({ index, kind, edits, score: matchScore(this.search.rankWeight(index), edits) });
    };
    for (const r of readings) for (const i of this.search.exact(r.name, limit - found.length, r.filter)) add(i, 'exact', 0);
    for (const r of readings) for (const i of this.search.prefixed(r.name, limit - found.length, r.filter, seen)) add(i, 'prefix', 0);
    // The typo tier cannot change a contract answer already full, nor a "people" one whose first no place outranks.
    if (found.length >= limit && (order === 'contract' || found[0].score + 2 >= this.search.topScore)) return found;

    const typos = new Map<number, FoundPlace>();
    const offer = (index: number, edits: number): void => {
      const score = matchScore(this.search.rankWeight(index), edits);
      const before = typos.get(index);
      if (!before || score > before.score) typos.set(index, { index, kind: 'typo', edits, score });
    };
    // The query as a whole is looked up for every kind of typo; the parts of a split not for two changed letters,
    // the costliest kind to look for (typoSearch.ts), so that a query of several words costs about as much.
    readings.forEach((r, k) => {
      for (const m of this.search.typos(r.name, limit, r.filter, seen, k === 0)) offer(m.index, m.edits);
    });
    // A place named exactly, with its region or country a typo away.
    for (const [name, qualifier] of splits) {
      if (this.byName.has(qualifier) || this.search.exact(name, 1).length === 0) continue;
      for (const [filter, edits] of this.nearQualifiers(qualifier)) {
        for (const i of this.search.exact(name, limit, filter)) if (!seen.has(i)) offer(i, edits);
      }
    }
    const ranked = [...typos.values()].sort((a, b) => b.score - a.score || a.index - b.index);
    if (order === 'contract' || found.length === 0) return [...found, ...ranked].slice(0, limit);
    const ahead = ranked.filter((t) => t.score > found[0].score);
    return [...ahead, ...found, ...ranked.slice(ahead.length)].slice(0, limit);
  }

  /** Every way to cut a query of several words in two: [the place's words, the region's or country's words]. */
  private splits(folded: string): Array<[name: string, qualifier: string]> {
    const words = folded.split(' ');
    if (words.length < 2 || words.length > MOST_WORDS_SPLIT) return [];
    const out: Array<[string, string]> = [];
    for (let cut = 1; cut < words.length; cut++) {
      const head = words.slice(0, cut).join(' ');
      const tail = words.slice(cut).join(' ');
      out.push([head, tail], [tail, head]);
    }
    return out;
  }

  /** The regions and countries whose name is within the edits a qualifier of its length allows, not exactly it. */
  private nearQualifiers(qualifier: string): Array<[SearchFilter, number]> {
    const allowed = editsAllowed(qualifier.length);
    if (allowed === 0) return [];
    const out: Array<[SearchFilter, number]> = [];
    const typed = codeUnits(qualifier);
    const counts = letterCounts(qualifier);
    const shortest = qualifier.length - allowed;
    let lo = 0;
    let hi = this.qualifiers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.qualifiers[mid].units.length < shortest) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < this.qualifiers.length && this.qualifiers[k].units.length <= qualifier.length + allowed; k++) {
      const { units, filter } = this.qualifiers[k];
      // Each edit changes the letter counts by two at most: most names are ruled out without measuring.
      let apart = 0;
      for (let c = 0; c < counts.length; c++) apart += Math.abs(counts[c] - this.qualifiers[k].counts[c]);
      if (apart > 2 * allowed) continue;
      const edits = distanceWithin(typed, units, 0, units.length, allowed);
      if (edits > 0 && edits <= allowed) out.push([filter, edits]);
    }
    return out;
  }
}

interface Qualifier {
  units: Uint16Array;
  counts: Uint8Array;
  filter: SearchFilter;
}

/** How many of each Latin letter a name has, and (last) how many other characters. */
function letterCounts(name: string): Uint8Array {
  const counts = new Uint8Array(27);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i) - 97;
    const slot = c >= 0 && c < 26 ? c : 26;
    counts[slot] = Math.min(255, counts[slot] + 1);
  }
  return counts;
}
