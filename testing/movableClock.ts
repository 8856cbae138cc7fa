// A server clock that a test moves (testing/movableClock.mjs does the moving inside the server): `env` goes into the
// server's environment, `set` puts its clock at an instant, `real` gives it back the real time.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('./movableClock.mjs', import.meta.url));

export interface MovableClock {
  /** For startServer: preloads the clock into the server's process and threads. */
  env: Record<string, string>;
  /** From the next request on, the server's Date.now() is `instant` (UTC ms), fixed. */
  set(instant: number): void;
  /** The real time again. */
  real(): void;
}

export function movableClock(): MovableClock {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'movable-clock-')), 'now');
  writeFileSync(file, '');
  return {
    env: { MOVABLE_CLOCK_FILE: file, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${PRELOAD}`.trim() },
    set: (instant) => writeFileSync(file, String(instant)),
    real: () => writeFileSync(file, ''),
  };
}
