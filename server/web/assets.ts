// The site's static files (stylesheet, countdown script, icon), read once at start-up. Pages link them with a
// version (a hash of the content), so browsers may keep them for a year and still see a change at once.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ASSETS_PREFIX } from '../links.js';

export interface Asset {
  body: Buffer;
  contentType: string;
  /** The URL pages link to: `/assets/site.css?v=…`. */
  href: string;
}

const TYPES: Readonly<Record<string, string>> = {
  'site.css': 'text/css; charset=utf-8',
  'countdown.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

export const ASSETS: ReadonlyMap<string, Asset> = new Map(
  Object.entries(TYPES).map(([name, contentType]) => {
    const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    const version = createHash('sha1').update(body).digest('base64url').slice(0, 10);
    return [name, { body, contentType, href: `${ASSETS_PREFIX}/${name}?v=${version}` }];
  }),
);

export const assetHref = (name: 'site.css' | 'countdown.js' | 'icon.svg'): string => ASSETS.get(name)!.href;
