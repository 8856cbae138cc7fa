// The site's static files (stylesheet, scripts, icon), read once at start-up. Pages link them with a version (a hash
// of the content), so browsers may keep them for a year and still see a change at once. Most are files of
// server/web/assets/; a package's browser bundle is read from the installed package itself (never copied into the
// repository), so the bundle served is always the version package.json pins.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ASSETS_PREFIX } from '../links.js';

export interface Asset {
  body: Buffer;
  contentType: string;
  /** The URL pages link to: `/assets/site.css?v=…`. */
  href: string;
}

const JS = 'text/javascript; charset=utf-8';
const PNG = 'image/png';
const ownFile = (name: string): URL => new URL(`./assets/${name}`, import.meta.url);
/** A file of server/web/assets/ served elsewhere than /assets: the service worker's code, the favicon (site/webApp.ts). */
export const ownFileBytes = (name: string): Buffer => readFileSync(ownFile(name));

/**
 * A file inside an installed package: its entry point is resolved as Node would, then `file` is taken relative to the
 * package's folder (the nearest folder above the entry whose package.json names the package). Packages whose
 * `exports` do not list the file (like @simplewebauthn/browser's `dist/bundle/…`) can be read this way.
 */
export function packageFile(packageName: string, file: string): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve(packageName));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === packageName) return path.join(dir, file);
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the folder of the package ${packageName}`);
    dir = up;
  }
}

const SOURCES: Readonly<Record<string, { contentType: string; file: () => URL | string }>> = {
  'site.css': { contentType: 'text/css; charset=utf-8', file: () => ownFile('site.css') },
  'countdown.js': { contentType: JS, file: () => ownFile('countdown.js') },
  // The method and madhab chosen on a place page, kept on the device (localStorage) and carried to other place pages.
  'preferences.js': { contentType: JS, file: () => ownFile('preferences.js') },
  // "Use my location" (geolocation, to the near page) and the last place viewed, offered on the homes.
  'nearMe.js': { contentType: JS, file: () => ownFile('nearMe.js') },
  // The qibla dial turning with the phone (device orientation), started by a button shown where the browser has it.
  'compass.js': { contentType: JS, file: () => ownFile('compass.js') },
  // The Ramadan timetable's today and its countdown to the next suhoor or iftar.
  'ramadan.js': { contentType: JS, file: () => ownFile('ramadan.js') },
  'icon.svg': { contentType: 'image/svg+xml', file: () => ownFile('icon.svg') },
  // The installable app (server/site/webApp.ts): the service worker's registration and the offline page's list of kept
  // places; the manifest's icons and the apple-touch-icon, rendered from icon.svg by scripts/make-icons.ts.
  'offline.js': { contentType: JS, file: () => ownFile('offline.js') },
  'icon-192.png': { contentType: PNG, file: () => ownFile('icon-192.png') },
  'icon-512.png': { contentType: PNG, file: () => ownFile('icon-512.png') },
  'icon-maskable-512.png': { contentType: PNG, file: () => ownFile('icon-maskable-512.png') },
  'apple-touch-icon.png': { contentType: PNG, file: () => ownFile('apple-touch-icon.png') },
  // The widget (/embed/…): compact, and its colours fixed by ?theme=, over site.css.
  'embed.css': { contentType: 'text/css; charset=utf-8', file: () => ownFile('embed.css') },
  // The place page's Copy button for the widget's code.
  'copySnippet.js': { contentType: JS, file: () => ownFile('copySnippet.js') },
  // /docs/api's try-it forms: each sends its operation's request with fetch, the key in a header, and shows the answer.
  'tryIt.js': { contentType: JS, file: () => ownFile('tryIt.js') },
  // The dashboard's passkey buttons (server/dashboard/passkeys/), and the WebAuthn helpers they call (global
  // `SimpleWebAuthnBrowser`), as the package ships them for a page without a bundler.
  'passkeys.js': { contentType: JS, file: () => ownFile('passkeys.js') },
  'simplewebauthn-browser.js': { contentType: JS, file: () => packageFile('@simplewebauthn/browser', 'dist/bundle/index.umd.min.js') },
};

export type AssetName = 'site.css' | 'countdown.js' | 'preferences.js' | 'nearMe.js' | 'ramadan.js' | 'compass.js' | 'icon.svg' | 'offline.js' | 'icon-192.png' | 'icon-512.png' | 'icon-maskable-512.png' | 'apple-touch-icon.png' | 'embed.css' | 'copySnippet.js' | 'tryIt.js' | 'passkeys.js' | 'simplewebauthn-browser.js';

export const ASSETS: ReadonlyMap<string, Asset> = new Map(
  Object.entries(SOURCES).map(([name, { contentType, file }]) => {
    const body = readFileSync(file());
    const version = createHash('sha1').update(body).digest('base64url').slice(0, 10);
    return [name, { body, contentType, href: `${ASSETS_PREFIX}/${name}?v=${version}` }];
  }),
);

export const assetHref = (name: AssetName): string => ASSETS.get(name)!.href;
