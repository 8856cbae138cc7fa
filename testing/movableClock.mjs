// Preloaded into a test's server process and its threads (NODE_OPTIONS=--import, testing/movableClock.ts): while the
// file named by MOVABLE_CLOCK_FILE holds a number, Date.now() answers that instant (UTC ms), fixed, so a test can put
// the server's clock one second before a place's midnight and then on it; while the file is empty, the real time.
// Read at every call, so a move is seen by the next request. Plain JavaScript: it runs before tsx is registered.
import { readFileSync } from 'node:fs';

const file = process.env.MOVABLE_CLOCK_FILE;
if (file) {
  const realNow = Date.now;
  Date.now = () => {
    const text = readFileSync(file, 'utf8').trim();
    return text === '' ? realNow() : Number(text);
  };
}
