// A zone's offsets from UTC as a table of transitions: the UTC instants where the offset changes and the offset from
// each on. Every source of zone rules (the system's TZif files, the npm package's lines) ends in one of these, and
// every wall clock the service prints is read from one.

export interface TransitionTable {
  /** UTC milliseconds from which each offset holds; the first is -Infinity. Strictly increasing. */
  at: Float64Array;
  /** Offset from UTC in seconds (east positive) from `at[i]` on. */
  offset: Int32Array;
  /** The interval of the last lookup (a cache: each thread has its own tables). */
  hint?: number;
}

/** Rules are expanded up to this year; the last offset then holds for ever (the API's dates end in 2100). */
export const LAST_COMPILED_YEAR = 2102;

/**
 * A table from changes [instant, offset] in order, the first at -Infinity. Two changes at one instant: the later
 * wins. A change to the offset already in force is no transition.
 */
export function transitionTableOf(changes: Iterable<readonly [number, number]>): TransitionTable {
  const at: number[] = [];
  const offset: number[] = [];
  for (const [instant, seconds] of changes) {
    while (at.length && at[at.length - 1] >= instant) {
      at.pop();
      offset.pop();
    }
    if (offset.length && offset[offset.length - 1] === seconds) continue;
    at.push(instant);
    offset.push(seconds);
  }
  return { at: Float64Array.from(at), offset: Int32Array.from(offset) };
}

/** Offset in seconds at the instant `ms`: the last transition at or before it. */
export function offsetAt(table: TransitionTable, ms: number): number {
  const { at } = table;
  // Lookups come in runs around one instant (a day's times, a month's days): try the last one's interval first.
  const hint = table.hint ?? 0;
  if (at[hint] <= ms && (hint + 1 === at.length || ms < at[hint + 1])) return table.offset[hint];
  let lo = 0;
  let hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at[mid] <= ms) lo = mid;
    else hi = mid - 1;
  }
  table.hint = lo;
  return table.offset[lo];
}
