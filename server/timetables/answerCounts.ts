// How many answers came from the precomputed store and how many were computed live (shown by /healthz), and of
// those how many were kept answers given again (the metrics tell the three apart). Each serving thread counts in its
// own cells of one shared buffer, without locks; any thread can add them up.

const CELLS = 4;
const STORE = 0;
const LIVE = 1;
/** Of STORE and LIVE: the answers given again from the kept ones (renderedResponses.ts). */
const KEPT_STORE = 2;
const KEPT_LIVE = 3;

let all: Float64Array<ArrayBufferLike> = new Float64Array(CELLS);
let mine = all;

export const answerCountsBuffer = (threads: number): SharedArrayBuffer => new SharedArrayBuffer(threads * CELLS * 8);

/** Makes this thread count in cells `thread` of a shared buffer. */
export function shareAnswerCounts(buffer: SharedArrayBuffer, thread: number): void {
  all = new Float64Array(buffer);
  mine = all.subarray(thread * CELLS, thread * CELLS + CELLS);
}

export function countAnswer(fromStore: boolean): void {
  mine[fromStore ? STORE : LIVE]++;
}

/** A kept answer given again: counted where it came from, and as kept. */
export function countKeptAnswer(fromStore: boolean): void {
  mine[fromStore ? STORE : LIVE]++;
  mine[fromStore ? KEPT_STORE : KEPT_LIVE]++;
}

/** The totals over every serving thread. */
export function answerCounts(): { store: number; live: number } {
  let store = 0;
  let live = 0;
  for (let i = 0; i < all.length; i += CELLS) {
    store += all[i + STORE];
    live += all[i + LIVE];
  }
  return { store, live };
}

/** Each thread's answers by where they came from, apart: read from the store, kept answers given again, computed live. */
export function answerSources(buffer: SharedArrayBuffer): Array<{ store: number; kept: number; live: number }> {
  const cells = new Float64Array(buffer);
  const threads: Array<{ store: number; kept: number; live: number }> = [];
  for (let i = 0; i < cells.length; i += CELLS) {
    const kept = cells[i + KEPT_STORE] + cells[i + KEPT_LIVE];
    threads.push({ store: cells[i + STORE] - cells[i + KEPT_STORE], kept, live: cells[i + LIVE] - cells[i + KEPT_LIVE] });
  }
  return threads;
}

/** Runs `work` without its answers being counted: what a thread does for itself before taking requests (warming). */
export function uncounted(work: () => void): void {
  const saved = mine.slice();
  try {
    work();
  } finally {
    mine.set(saved);
  }
}
