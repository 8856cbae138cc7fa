// Rendered JSON of answers kept in memory: a popular city's day or month from the precomputed store is rendered once,
// then served as it is (stored answers change only with the build, which is part of the key, so a new store starts
// with an empty cache). Answers computed live that depend only on what was asked are kept too, apart (liveBodies):
// a point's day for a date, a qibla answer, a city search; their keys hold everything the answer depends on. Both
// bounded: the oldest entries go first.

const LIMIT = 20_000;

/** Which timetable answer a kept body counts as when it is served again (answerCounts.ts); 'none': not a timetable. */
export type BodySource = 'store' | 'live' | 'none';

/**
 * A response body rendered already, kept as UTF-8 bytes: written as it is (http.ts) with no encoding per response
 * (a month is about 10 KB of text), parsed again only for MCP.
 */
export class RenderedBody {
  readonly bytes: Buffer;
  constructor(
    json: string,
    /** True when it does not depend on the clock (the request named its date, or its year and month). */
    readonly timeless: boolean,
    readonly source: BodySource = 'store',
  ) {
    this.bytes = Buffer.from(json);
  }

  get json(): string {
    return this.bytes.toString();
  }
}

const bodies = new Map<string, RenderedBody>();
const liveBodies = new Map<string, RenderedBody>();

export function cachedBody(key: string): RenderedBody | undefined {
  return bodies.get(key);
}

/** Drops the oldest tenth of a full map at once, so the eviction cost stays off most requests. */
function makeRoom(map: Map<string, RenderedBody>): void {
  if (map.size < LIMIT) return;
  let drop = LIMIT / 10;
  for (const k of map.keys()) {
    map.delete(k);
    if (--drop === 0) break;
  }
}

/** A live answer kept under a key that holds all it depends on (see the top of this file). */
export function cachedLiveBody(key: string): RenderedBody | undefined {
  return liveBodies.get(key);
}

export function keepLiveBody(key: string, body: object, timeless: boolean, source: BodySource): RenderedBody {
  makeRoom(liveBodies);
  const rendered = new RenderedBody(JSON.stringify(body), timeless, source);
  liveBodies.set(key, rendered);
  return rendered;
}

export function keepBody(key: string, body: object, timeless: boolean): RenderedBody {
  return keepRendered(key, new RenderedBody(JSON.stringify(body), timeless));
}

/**
 * Also kept under the exact request (its path and query, with the build): a repeated request for a stored answer
 * that does not depend on the clock is answered without parsing, validating or resolving it again (http.ts).
 */
export function keepRendered(key: string, rendered: RenderedBody): RenderedBody {
  makeRoom(bodies);
  bodies.set(key, rendered);
  return rendered;
}

export const requestKey = (build: string, baseUrl: string, path: string, rawQuery: string): string => `${build}|${baseUrl}|${path}?${rawQuery}`;
