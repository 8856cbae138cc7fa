// Compressed answers (brotli, gzip) as a request's Accept-Encoding asks: which coding it takes, and a body's
// compressed forms, made at most once per coding and kept beside the plain bytes by whoever keeps the body (the site's
// page cache, the API's kept answers), so a kept answer costs no compression per request. The surfaces pick the form
// and say so in their headers (Content-Encoding, Vary: Accept-Encoding); the edge writes what they pick. Here beside
// the other things the surfaces share, below them: the API's kept answers (server/timetables) hold forms too.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';

/** Kept bodies smaller than this stay plain: what compression saves is less than a packet. */
export const MIN_COMPRESSED_BYTES = 1024;
/**
 * An answer made for one request alone is compressed from this size: under it, brotli's and zlib's set-up makes
 * compressing cost about what making the answer did (60-110 µs for 1 KB of JSON, against 10-20 µs to answer a kept
 * one), for a saving of half a packet.
 */
export const MIN_COMPRESSED_ONCE_BYTES = 4096;

/**
 * How hard to compress. `answer`: bodies made while serving (pages, JSON), compressed on the request that first asks,
 * in about a millisecond for a 70 KB page (brotli 5 is within 10-20% of brotli 11 at a twentieth of its time).
 * `static`: files read at start-up (stylesheet, scripts), compressed once with the best ratio.
 */
export type Effort = 'answer' | 'static';

const BROTLI_QUALITY: Readonly<Record<Effort, number>> = { answer: 5, static: constants.BROTLI_MAX_QUALITY };
const GZIP_LEVEL: Readonly<Record<Effort, number>> = { answer: 6, static: 9 };

/** Text types are worth compressing; images other than SVG are compressed already. */
const COMPRESSIBLE_TYPE = /^(?:text\/|application\/(?:json|xml|javascript|manifest\+json)|image\/svg\+xml|[a-z]+\/[^;]*\+(?:json|xml)(?:;|$))/i;

export const compressibleType = (contentType: string | undefined): boolean => contentType !== undefined && COMPRESSIBLE_TYPE.test(contentType);

export function compress(plain: Buffer, coding: ContentCoding, effort: Effort): Buffer {
  if (coding === 'br') {
    return brotliCompressSync(plain, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
        [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        // A window no larger than the body: the default (4 MB) is set up for every call, whatever the body.
        [constants.BROTLI_PARAM_LGWIN]: Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(plain.length + 1)))),
      },
    });
  }
  return gzipSync(plain, { level: GZIP_LEVEL[effort] });
}

/** The q-value among an element's parameters (`;q=0.5`), 1 without one; NaN when it is not one (RFC 9110, 12.4.2). */
function qualityOf(parameters: string): number {
  for (const parameter of parameters.split(';')) {
    const eq = parameter.indexOf('=');
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const value = parameter.slice(eq + 1).trim();
    return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : NaN;
  }
  return 1;
}

/**
 * The coding a request's Accept-Encoding takes (RFC 9110, 12.5.3), or undefined for the plain body: none asked (an
 * absent or empty header, `identity`), every coding we have refused (`q=0`), or `identity` preferred by a higher q.
 * `*` stands for the codings not named; `x-gzip` is gzip. Between equal q-values brotli wins (smaller).
 */
export function parseAcceptEncoding(header: string): ContentCoding | undefined {
  let br: number | undefined;
  let gzip: number | undefined;
  let identity: number | undefined;
  let any: number | undefined;
  for (const element of header.split(',')) {
    const semicolon = element.indexOf(';');
    const name = (semicolon < 0 ? element : element.slice(0, semicolon)).trim().toLowerCase();
    if (name === '') continue;
    const q = semicolon < 0 ? 1 : qualityOf(element.slice(semicolon));
    if (Number.isNaN(q)) continue; // a malformed q-value: the element is ignored
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (name === 'identity') identity = q;
    else if (name === '*') any = q;
  }
  const brQ = br ?? any ?? 0;
  const gzipQ = gzip ?? any ?? 0;
  const best: ContentCoding | undefined = brQ > 0 && brQ >= gzipQ ? 'br' : gzipQ > 0 ? 'gzip' : undefined;
  if (best === undefined) return undefined;
  // Identity left unnamed stays acceptable, but below any coding asked for; named, its q counts.
  if (identity !== undefined && identity > (best === 'br' ? brQ : gzipQ)) return undefined;
  return best;
}

// Clients send a handful of distinct headers (each browser one string): the choice is remembered per header.
const MAX_REMEMBERED = 256;
const chosen = new Map<string, ContentCoding | null>(); // null: the plain body

/** parseAcceptEncoding, remembered for the headers seen (one lookup); '' (no header) is the plain body at once. */
export function chosenCoding(header: string): ContentCoding | undefined {
  if (header === '') return undefined;
  const remembered = chosen.get(header);
  if (remembered !== undefined) return remembered ?? undefined;
  const coding = parseAcceptEncoding(header);
  if (chosen.size >= MAX_REMEMBERED) chosen.clear();
  if (header.length <= 200) chosen.set(header, coding ?? null);
  return coding;
}

/**
 * A body and its compressed forms, each made the first time a request takes that coding. A form that would not be
 * smaller is not used (the plain body goes out). For bodies under MIN_COMPRESSED_BYTES use no forms at all.
 */
export class CompressedForms {
  private br: Buffer | undefined;
  private gzip: Buffer | undefined;

  constructor(
    readonly plain: Buffer,
    private readonly effort: Effort = 'answer',
  ) {}

  /** The bytes for a coding, or undefined when the plain body is as small. */
  form(coding: ContentCoding): Buffer | undefined {
    let made = coding === 'br' ? this.br : this.gzip;
    if (made === undefined) {
      made = compress(this.plain, coding, this.effort);
      if (coding === 'br') this.br = made;
      else this.gzip = made;
    }
    return made.length < this.plain.length ? made : undefined;
  }

  /** Bytes held, the plain body and the forms made so far. */
  get bytes(): number {
    return this.plain.length + (this.br?.length ?? 0) + (this.gzip?.length ?? 0);
  }
}

/**
 * Forms for a body worth compressing (a text type, at least `minBytes`: MIN_COMPRESSED_BYTES for a body that is kept,
 * MIN_COMPRESSED_ONCE_BYTES for one made for one request), else undefined: that body always goes out plain.
 */
export function formsFor(plain: Buffer, contentType: string | undefined, effort: Effort = 'answer', minBytes = MIN_COMPRESSED_BYTES): CompressedForms | undefined {
  return plain.length >= minBytes && compressibleType(contentType) ? new CompressedForms(plain, effort) : undefined;
}

/** What goes out for one request: the bytes, and their coding (undefined: plain). */
export interface Encoded {
  body: Buffer;
  coding: ContentCoding | undefined;
}

/** The form of `forms` a request's Accept-Encoding takes. */
export function encodedFor(forms: CompressedForms, acceptEncoding: string): Encoded {
  const coding = chosenCoding(acceptEncoding);
  const form = coding && forms.form(coding);
  return form ? { body: form, coding } : { body: forms.plain, coding: undefined };
}

export const VARY_ACCEPT_ENCODING = 'Accept-Encoding';
