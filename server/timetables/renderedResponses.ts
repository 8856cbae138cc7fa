// Rendered JSON of answers kept in memory: a popular city's day or month from the precomputed store is rendered once,
// then served as it is (stored answers change only with the build, which is part of the key, so a new store starts
// with an empty cache). Answers computed live that depend only on what was asked are kept too, apart (liveBodies):
// a point's day for a date, a qibla answer, a city search; their keys hold everything the answer depends on. Both
// bounded: the oldest entries go first.
// An answer that depends on the clock (today's times, when no date was asked; /next) is kept under the exact request
// for as long as it holds (its Validity): from the instant it was rendered until the place's next local midnight for
// a day, within its second for /next (whose body counts the seconds). Served only while the clock is inside that
// span, so it is the bytes the request would render then; a clock set back before it renders again too.
import { CompressedForms, MIN_COMPRESSED_BYTES } from '../web/compression.js';

const LIMIT = 20_000;

/** Which timetable answer a kept body counts as when it is served again (answerCounts.ts); 'none': not a timetable. */
export type BodySource = 'store' | 'live' | 'none';

/** When a request's answer is what it is: from `from` (inclusive) until `until` (exclusive), UTC ms. */
export interface Validity {
  from: number;
  until: number;
}

/** An answer that does not depend on the clock (the request named its date, or its year and month; a place). */
export const ALWAYS: Validity = { from: -Infinity, until: Infinity };

/**
 * A response body rendered already, kept as UTF-8 bytes: written as it is (server/edge/edge.ts) with no encoding per response
 * (a month is about 10 KB of text), parsed again only for MCP. A kept body of 1 KB or more has its compressed forms
 * beside it (web/compression.ts), each made the first time a request asks for it and shared with its copies
 * (heldFor); a body made for one request has none (replies.ts compresses a large one for its request).
 */
export class RenderedBody {
  readonly bytes: Buffer;
  private compressed: CompressedForms | undefined;
  constructor(
    json: string | Buffer,
    readonly validity: Validity,
    readonly source: BodySource = 'store',
    forms?: CompressedForms,
  ) {
    this.bytes = typeof json === 'string' ? Buffer.from(json) : json;
    this.compressed = forms;
  }

  /** Its compressed forms, once it is kept (undefined for a body under 1 KB, or one not kept). */
  get forms(): CompressedForms | undefined {
    return this.compressed;
  }

  /** Gives a body that is kept its compressed forms (made later, each when first asked for); itself. */
  kept(): this {
    if (this.compressed === undefined && this.bytes.length >= MIN_COMPRESSED_BYTES) this.compressed = new CompressedForms(this.bytes);
    return this;
  }

  get json(): string {
    return this.bytes.toString();
  }

  /** Whether it is the answer at `now` (UTC ms). */
  holdsAt(now: number): boolean {
    return now >= this.validity.from && now < this.validity.until;
  }

  /**
   * The same bytes as the answer to a request whose answer holds for `validity`: how long an answer holds belongs to
   * the request (one kept day answers both `date=…` and "today"), not to the body.
   */
  heldFor(validity: Validity): RenderedBody {
    return validity === this.validity ? this : new RenderedBody(this.bytes, validity, this.source, this.compressed);
  }
}

const bodies = new Map<string, RenderedBody>();
const liveBodies = new Map<string, RenderedBody>();

/** The body kept under `key`, unless it does not hold at `now` (UTC ms). */
export function cachedBody(key: string, now: number): RenderedBody | undefined {
  const body = bodies.get(key);
  return body?.holdsAt(now) ? body : undefined;
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

/** Kept for good: the key names the day (or month, or place) it answers for; the request says how long it holds. */
export function keepLiveBody(key: string, body: RenderedBody): RenderedBody;
export function keepLiveBody(key: string, body: object, source: BodySource): RenderedBody;
export function keepLiveBody(key: string, body: object, source?: BodySource): RenderedBody {
  makeRoom(liveBodies);
  const rendered = (body instanceof RenderedBody ? body : new RenderedBody(JSON.stringify(body), ALWAYS, source)).kept();
  liveBodies.set(key, rendered);
  return rendered;
}

/**
 * Also kept under the exact request (its path and query, with the build), for as long as it holds: a repeated request
 * is answered without parsing, validating or resolving it again (apiSurface.ts).
 */
export function keepRendered(key: string, rendered: RenderedBody): RenderedBody {
  makeRoom(bodies);
  bodies.set(key, rendered.kept());
  return rendered;
}

export const requestKey = (build: string, baseUrl: string, path: string, rawQuery: string): string => `${build}|${baseUrl}|${path}?${rawQuery}`;
