// Walks the keys of a pattern with SCAN (never KEYS, which blocks Redis for as long as it takes): the purges of
// expired records and the daily-usage pruning use it.
import type { Redis } from 'ioredis';

/** Every key of a SCAN pattern, a page at a time (a key may come twice; callers are idempotent). */
export async function* scanKeys(redis: Redis, pattern: string): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) yield keys;
  } while (cursor !== '0');
}
