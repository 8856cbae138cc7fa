// How many answers came from the precomputed store and how many were computed live (shown by /healthz). Each
// serving thread counts in its own pair of cells of one shared buffer, without locks; any thread can add them up.

const CELLS = 2;
const STORE = 0;
const LIVE = 1;

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

/** Runs `work` without its answers being counted: what a thread does for itself before taking requests (warming). */
export function uncounted(work: () => void): void {
  const saved = mine.slice();
  try {
    work();
  } finally {
    mine.set(saved);
  }
}
