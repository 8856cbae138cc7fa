// The typo index of the catalog's names (symmetric deletion): every folded name, and every form of it with one
// letter left out, hashed into buckets that give the names back. A query then finds the names within an edit or two
// of it by hashing a few of its own forms (server/places/typoSearch.ts) rather than by comparing it with each of the
// 650,000 names. Built with the catalog, stored in it, and shared by the serving threads like its other tables.

/** Hash buckets are chosen by this many high bits of a form's hash: 4 MB of bucket offsets, a few entries each. */
export const TYPO_BUCKET_BITS = 20;

/**
 * Bucket b holds entries[buckets[b] .. buckets[b + 1]). An entry holds a name's index among the sorted keys in its low
 * `typoIdBits(keys)` bits and, above them, more bits of its form's hash, so that a lookup skips the other forms that
 * share the bucket without reading their names.
 */
export interface TypoIndex {
  buckets: Int32Array;
  entries: Int32Array;
  /**
   * One bit for each value of a hash's high TYPO_FILTER_BITS bits, set when some form has it: most forms a query tries
   * are no name's, and this small table (4 MB, a sixth of it set) turns most of them away before the buckets are read.
   */
  present: Int32Array;
}

export const TYPO_FILTER_BITS = 25;

/** Whether some form's hash has the high bits of this one (if not, no name has this form). */
export function mayBePresent(present: Int32Array, hash: number): boolean {
  const bit = hash >>> (32 - TYPO_FILTER_BITS);
  return (present[bit >>> 5] & (1 << (bit & 31))) !== 0;
}

/** The bits an entry gives a name's index. */
export function typoIdBits(keyCount: number): number {
  let bits = 1;
  while (2 ** bits < keyCount) bits++;
  return bits;
}

/** FNV-1a over UTF-16 code units: the first state, and one step. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const fnvStep = (hash: number, unit: number): number => Math.imul(hash ^ unit, 0x01000193);

export const bucketOf = (hash: number): number => hash >>> (32 - TYPO_BUCKET_BITS);

/** The hash bits an entry keeps beside the name's index (those the bucket does not give), as they sit in the entry. */
export const hashCheck = (hash: number, idBits: number): number => (hash << TYPO_BUCKET_BITS) >>> idBits;

/**
 * The hashes of `name` and of each distinct form of it with one letter left out, into `out` (which must hold
 * name.length + 1); returns how many. `prefix` is scratch of the same size.
 */
export function formHashes(name: string, prefix: Int32Array, out: Int32Array): number {
  const n = name.length;
  let h = FNV_OFFSET;
  for (let i = 0; i < n; i++) {
    prefix[i] = h;
    h = fnvStep(h, name.charCodeAt(i));
  }
  out[0] = h;
  let count = 1;
  for (let skip = 0; skip < n; skip++) {
    // Leaving out either letter of a doubled pair gives the same form: one entry.
    if (skip > 0 && name.charCodeAt(skip) === name.charCodeAt(skip - 1)) continue;
    let f = prefix[skip];
    for (let i = skip + 1; i < n; i++) f = fnvStep(f, name.charCodeAt(i));
    out[count++] = f;
  }
  return count;
}

export function buildTypoIndex(keys: readonly string[]): TypoIndex {
  const idBits = typoIdBits(keys.length);
  // At least a few bits must check the hash, or most entries of a bucket would be read as matches.
  if (idBits > 26) throw new Error(`too many names (${keys.length}) for the typo index's entries`);
  let longest = 0;
  for (const k of keys) longest = Math.max(longest, k.length);
  const prefix = new Int32Array(longest + 1);
  const hashes = new Int32Array(longest + 1);
  const bucketCount = 2 ** TYPO_BUCKET_BITS;
  const buckets = new Int32Array(bucketCount + 1);
  // Two passes: count each bucket's entries, then place them.
  for (const k of keys) {
    const count = formHashes(k, prefix, hashes);
    for (let f = 0; f < count; f++) buckets[bucketOf(hashes[f]) + 1]++;
  }
  for (let b = 0; b < bucketCount; b++) buckets[b + 1] += buckets[b];
  const entries = new Int32Array(buckets[bucketCount]);
  const next = buckets.slice(0, bucketCount);
  const present = new Int32Array(2 ** (TYPO_FILTER_BITS - 5));
  for (let id = 0; id < keys.length; id++) {
    const count = formHashes(keys[id], prefix, hashes);
    for (let f = 0; f < count; f++) {
      entries[next[bucketOf(hashes[f])]++] = (hashCheck(hashes[f], idBits) << idBits) | id;
      const bit = hashes[f] >>> (32 - TYPO_FILTER_BITS);
      present[bit >>> 5] |= 1 << (bit & 31);
    }
  }
  return { buckets, entries, present };
}
