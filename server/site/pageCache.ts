// Rendered pages kept in memory, per serving thread: a page is rendered once per place, language, local day and
// choice of method (and again after each prayer, so the marked "next prayer" stays true with JavaScript off), then
// answered as it is until it expires, with its compressed forms (made on the first request that asks for each, then
// kept with it). Bounded by bytes, the compressed forms' included; the oldest entries go first.
import type { HeaderBlock } from '../edge/edge.js';
import type { CompressedForms } from '../web/compression.js';

/** The head of one form of a page (siteSurface.ts): its ETag and every header line, for the max-age it says. */
export interface PageHead {
  maxAge: number;
  etag: string;
  block: HeaderBlock;
}

export interface CachedPage {
  status: number;
  /** The plain body. */
  body: Buffer;
  /** Its compressed forms, for a body worth compressing (web/compression.ts); undefined: always plain. */
  forms?: CompressedForms;
  /** The head of each form once answered (plain, brotli, gzip), made again when its max-age changes. */
  heads?: Array<PageHead | undefined>;
  contentType: string;
  etag: string;
  /** UTC ms; the entry is not used after it. */
  validUntil: number;
  /** UTC ms, when it was rendered: not used before it either (a clock set back must not see a later page). */
  validFrom?: number;
  location?: string;
  /** The widget's pages, framable by any site (SitePage.embeddable). */
  embeddable?: boolean;
}

/**
 * The bytes an entry is counted for: its plain body, and half as much again for a body with compressed forms (made
 * later, on demand: brotli and gzip of a page together come to a quarter to a half of the plain bytes). Fixed when
 * the entry is kept, so dropping it gives back exactly what keeping it took.
 */
const weightOf = (page: CachedPage): number => page.body.length + (page.forms ? page.body.length >> 1 : 0);

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string, now: number): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.validUntil > now && now >= (page.validFrom ?? -Infinity)) return page;
    this.drop(key, page);
    return undefined;
  }

  keep(key: string, page: CachedPage): void {
    const old = this.pages.get(key);
    if (old) this.drop(key, old);
    const weight = weightOf(page);
    if (weight > this.budgetBytes / 8) return; // one huge answer must not empty the cache
    for (const [k, p] of this.pages) {
      if (this.bytes + weight <= this.budgetBytes) break;
      this.drop(k, p);
    }
    this.pages.set(key, page);
    this.bytes += weight;
  }

  clear(): void {
    this.pages.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.pages.size;
  }

  private drop(key: string, page: CachedPage): void {
    this.pages.delete(key);
    this.bytes -= weightOf(page);
  }
}
