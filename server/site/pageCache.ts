// Rendered pages kept in memory, per serving thread: a page is rendered once per place, language, local day and
// choice of method (and again after each prayer, so the marked "next prayer" stays true with JavaScript off), then
// answered as it is until it expires. Bounded by bytes; the oldest entries go first.

export interface CachedPage {
  status: number;
  body: Buffer;
  contentType: string;
  etag: string;
  /** UTC ms; the entry is not used after it. */
  validUntil: number;
  location?: string;
}

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string, now: number): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.validUntil > now) return page;
    this.drop(key, page);
    return undefined;
  }

  keep(key: string, page: CachedPage): void {
    const old = this.pages.get(key);
    if (old) this.drop(key, old);
    if (page.body.length > this.budgetBytes / 8) return; // one huge answer must not empty the cache
    for (const [k, p] of this.pages) {
      if (this.bytes + page.body.length <= this.budgetBytes) break;
      this.drop(k, p);
    }
    this.pages.set(key, page);
    this.bytes += page.body.length;
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
    this.bytes -= page.body.length;
  }
}
