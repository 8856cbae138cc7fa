// Rendered JSON of answers that came from the precomputed store, kept in memory: a popular city's day or month is
// rendered once, then served as it is. Only stored answers are kept (they change only with the build, which is part
// of the key, so a new store starts with an empty cache); live answers are not. Bounded: the oldest entries go first.

const LIMIT = 20_000;

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
  ) {
    this.bytes = Buffer.from(json);
  }

  get json(): string {
    return this.bytes.toString();
  }
}

const bodies = new Map<string, RenderedBody>();

export function cachedBody(key: string): RenderedBody | undefined {
  return bodies.get(key);
}

export function keepBody(key: string, body: object, timeless: boolean): RenderedBody {
  return keepRendered(key, new RenderedBody(JSON.stringify(body), timeless));
}

/**
 * Also kept under the exact request (its path and query, with the build): a repeated request for a stored answer
 * that does not depend on the clock is answered without parsing, validating or resolving it again (http.ts).
 */
export function keepRendered(key: string, rendered: RenderedBody): RenderedBody {
  if (bodies.size >= LIMIT) {
    // Drop the oldest tenth at once, so the eviction cost stays off most requests.
    let drop = LIMIT / 10;
    for (const k of bodies.keys()) {
      bodies.delete(k);
      if (--drop === 0) break;
    }
  }
  bodies.set(key, rendered);
  return rendered;
}

export const requestKey = (build: string, baseUrl: string, path: string, rawQuery: string): string => `${build}|${baseUrl}|${path}?${rawQuery}`;
