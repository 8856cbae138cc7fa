// Whether a point's answer is worth keeping: a mobile app sends each user's own coordinates, so most points are asked
// once, and keeping each answer (twice: under its point and under the exact request) only pushes the answers that
// are asked again out of the bounded caches, and through the old generation of the garbage collector. A point's
// answer is kept the second time the point is asked: the first time, only a 32-bit hash of its key is noted, in a
// fixed table (no allocation, a later key with the same slot overwrites it). A hash collision makes a first ask look
// like a second, which only keeps an answer early: the answer kept is still the one for its own key.

const SLOTS = 1 << 16;
const table = new Uint32Array(SLOTS);

/** FNV-1a over the key's UTF-16 code units, never 0 (0 marks an empty slot). */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}

/** True when `key` was asked before (as far as the table remembers); notes it otherwise. */
export function askedBefore(key: string): boolean {
  const h = hashOf(key);
  // The slot from the hash's high bits, the check on all of them.
  const slot = h >>> 16;
  if (table[slot] === h) return true;
  table[slot] = h;
  return false;
}
