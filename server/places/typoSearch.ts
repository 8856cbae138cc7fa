// The names within one or two edits of a query (a letter left out, added or changed, or two neighbours swapped),
// through the catalog's typo index (pipeline/catalog/typoIndex.ts, which holds every name and every form of it with
// one letter left out). A name within one edit shares a form with the query, so the query's own forms (itself, and
// with a letter left out) are looked up: a few dozen lookups. Within two edits, forms one edit further are looked up
// too: with two letters left out, with a letter added, changed or two swapped, and, for queries of a usual length,
// with a letter changed or two swapped in each form with one left out (two letters changed: letters × length²
// lookups, the most by far). Most forms are no name's, and the index's bit table turns them away before a bucket is
// read. Every name found is then measured, so a false lead costs a little time, never a wrong answer.
import * as typoIndex from '../../pipeline/catalog/typoIndex.js';
import type { TypoIndex } from '../../pipeline/catalog/typoIndex.js';
import type { SortedStrings } from './catalogTables.js';

// Module-local names for the index's hashing, which runs thousands of times a query (a call through an import can
// cost a property read each time, as tsx's module wrappers do).
const { bucketOf, FNV_OFFSET, fnvStep, hashCheck, mayBePresent, typoIdBits } = typoIndex;

/** The letters a second edit may add or change, besides the query's own: the folded Latin alphabet and the space. */
const LATIN = Array.from('abcdefghijklmnopqrstuvwxyz ', (c) => c.charCodeAt(0));
/** Two edits that both change a letter in place (changed or swapped) are looked for in queries up to this long. */
export const TWO_CHANGES_UP_TO = 10;
/** Longer queries are not looked up for typos (no place name is near this long, and each letter costs lookups). */
export const LONGEST_TYPO_QUERY = 60;

export class TypoSearch {
  private readonly idBits: number;
  private readonly idMask: number;
  // Per query: its letters, the bound, and what was found (a distance over the bound: measured, not near).
  private query: Uint16Array = new Uint16Array(0);
  private bound = 0;
  private found = new Map<number, number>();
  // Scratch: the forms, and the hash of each prefix of a form.
  private readonly form = new Uint16Array(LONGEST_TYPO_QUERY + 2);
  private readonly dropped = new Uint16Array(LONGEST_TYPO_QUERY + 2);
  private readonly prefixHashes = new Int32Array(LONGEST_TYPO_QUERY + 3);

  constructor(
    private readonly keys: SortedStrings,
    private readonly index: TypoIndex,
  ) {
    this.idBits = typoIdBits(keys.length);
    this.idMask = 2 ** this.idBits - 1;
  }

  /**
   * The keys within `maxEdits` (1 or 2) of a folded query, each with its distance (optimal string alignment: each
   * letter edited once at most, two neighbours swapped as one edit). One edit finds names in any script; a second edit
   * adds or changes only letters of the Latin alphabet, the space or the query's own letters.
   */
  near(query: string, maxEdits: 1 | 2, twoChanges = query.length <= TWO_CHANGES_UP_TO): Map<number, number> {
    const m = query.length;
    const found = (this.found = new Map<number, number>());
    if (m === 0 || m > LONGEST_TYPO_QUERY) return found;
    const q = (this.query = codeUnits(query));
    this.bound = maxEdits;
    const { dropped, form } = this;
    this.lookupForm(q, m);
    for (let skip = 0; skip < m; skip++) {
      if (skip > 0 && q[skip] === q[skip - 1]) continue;
      this.without(q, m, skip, dropped);
      this.lookupForm(dropped, m - 1);
      if (maxEdits === 2) {
        for (let again = skip; again < m - 1; again++) {
          if (again > skip && dropped[again] === dropped[again - 1]) continue;
          this.without(dropped, m - 1, again, form);
          this.lookupForm(form, m - 2);
        }
      }
    }
    if (maxEdits === 2) {
      const letters = new Set(LATIN);
      for (const unit of q) letters.add(unit);
      const alphabet = Uint16Array.from(letters);
      // Two letters left out of the query: a letter added to it. One left out and one changed or swapped: a letter
      // changed or two swapped in it.
      this.insertions(q, m, alphabet);
      this.changes(q, m, alphabet);
      // Two letters changed or swapped: a letter changed or two swapped in each form with a letter left out (the
      // other change is the letter left out on both sides). The most lookups by far (letters × length²), so only for
      // queries of a usual length.
      if (twoChanges) {
        for (let skip = 0; skip < m; skip++) {
          if (skip > 0 && q[skip] === q[skip - 1]) continue;
          this.without(q, m, skip, dropped);
          this.changes(dropped, m - 1, alphabet);
        }
      }
    }
    for (const [id, d] of found) if (d > maxEdits) found.delete(id);
    return found;
  }

  /** `units` without the letter at `skip`, into `into`. */
  private without(units: Uint16Array, length: number, skip: number, into: Uint16Array): void {
    for (let i = 0, j = 0; i < length; i++) if (i !== skip) into[j++] = units[i];
  }

  private lookupForm(units: Uint16Array, length: number): void {
    let h = FNV_OFFSET;
    for (let i = 0; i < length; i++) h = fnvStep(h, units[i]);
    this.lookup(h);
  }

  private hashPrefixes(units: Uint16Array, length: number): void {
    const prefixHashes = this.prefixHashes;
    let h = FNV_OFFSET;
    for (let i = 0; i < length; i++) {
      prefixHashes[i] = h;
      h = fnvStep(h, units[i]);
    }
    prefixHashes[length] = h;
  }

  /** Looks up `units` with each letter of the alphabet added at each place. */
  private insertions(units: Uint16Array, length: number, alphabet: Uint16Array): void {
    this.hashPrefixes(units, length);
    for (let at = 0; at <= length; at++) {
      const before = this.prefixHashes[at];
      for (let a = 0; a < alphabet.length; a++) {
        const letter = alphabet[a];
        // Adding a letter just after the same letter makes the form adding it before made.
        if (at > 0 && units[at - 1] === letter) continue;
        let h = fnvStep(before, letter);
        for (let i = at; i < length; i++) h = fnvStep(h, units[i]);
        this.lookup(h);
      }
    }
  }

  /** Looks up `units` with each letter changed to each other letter of the alphabet, and each pair of neighbours swapped. */
  private changes(units: Uint16Array, length: number, alphabet: Uint16Array): void {
    this.hashPrefixes(units, length);
    for (let at = 0; at < length; at++) {
      const before = this.prefixHashes[at];
      for (let a = 0; a < alphabet.length; a++) {
        const letter = alphabet[a];
        if (letter === units[at]) continue;
        let h = fnvStep(before, letter);
        for (let i = at + 1; i < length; i++) h = fnvStep(h, units[i]);
        this.lookup(h);
      }
      if (at + 1 < length && units[at] !== units[at + 1]) {
        let h = fnvStep(fnvStep(before, units[at + 1]), units[at]);
        for (let i = at + 2; i < length; i++) h = fnvStep(h, units[i]);
        this.lookup(h);
      }
    }
  }

  /** Measures each name a form's hash leads to (once per name). */
  private lookup(hash: number): void {
    const { buckets, entries, present } = this.index;
    if (!mayBePresent(present, hash)) return;
    const idBits = this.idBits;
    const bucket = bucketOf(hash);
    const check = hashCheck(hash, idBits);
    for (let e = buckets[bucket], end = buckets[bucket + 1]; e < end; e++) {
      const entry = entries[e];
      if (entry >>> idBits === check) {
        const id = entry & this.idMask;
        if (!this.found.has(id)) this.found.set(id, this.distance(id));
      }
    }
  }

  /** The distance between the query and key `id`, or the bound + 1 once it must exceed it. */
  private distance(id: number): number {
    const { chars, offsets } = this.keys;
    return distanceWithin(this.query, chars, offsets[id], offsets[id + 1] - offsets[id], this.bound);
  }
}

// Three rows of the distance, grown as needed (one thread runs one search at a time).
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The optimal string alignment distance (letters added, left out or changed, neighbours swapped, each letter edited
 * once at most) between `a` and b[start .. start + length), or bound + 1 as soon as it must exceed the bound.
 */
export function distanceWithin(a: Uint16Array, b: Uint16Array, start: number, length: number, bound: number): number {
  const m = a.length;
  if (Math.abs(length - m) > bound) return bound + 1;
  if (rows[0].length < m + 1) rows = [new Int32Array(m + 1), new Int32Array(m + 1), new Int32Array(m + 1)];
  let [before, previous, row] = rows;
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= length; i++) {
    const unit = b[start + i - 1];
    row[0] = i;
    let best = i;
    for (let j = 1; j <= m; j++) {
      let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[j - 1] === unit ? 0 : 1));
      if (i > 1 && j > 1 && a[j - 1] === b[start + i - 2] && a[j - 2] === unit) d = Math.min(d, before[j - 2] + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    // A row's least value never falls in a later row (a swap reaches back two rows, but only past a row as low).
    if (best > bound) return bound + 1;
    const spent = before;
    before = previous;
    previous = row;
    row = spent;
  }
  return Math.min(previous[m], bound + 1);
}

/** A string's UTF-16 code units, as the keys are stored. */
export function codeUnits(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}
