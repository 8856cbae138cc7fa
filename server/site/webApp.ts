// The site as an installable app that works without a connection: a web app manifest per language, the service worker
// (/sw.js, from server/web/assets/sw.js with its settings written in), /favicon.ico, what every page's head carries
// for them, and the offline notice every page holds hidden (the worker shows it on a copy it answers). All of it is
// made once, at start-up; the site surface serves the files as it serves the static assets (ETags, compressed forms).
import { createHash } from 'node:crypto';
import {
  ASSETS_PREFIX,
  DOCS_PATH,
  FAVICON_PATH,
  LANGUAGE_HOME_PATH,
  OFFLINE_PATH,
  PLACE_PAGE_PREFIX,
  PRICING_PATH,
  SERVICE_WORKER_PATH,
  SITE_LANGUAGES,
  WEB_APP_MANIFEST_PATH,
  type SiteLanguage,
} from '../links.js';
import { ASSETS, assetHref, ownFileBytes } from '../web/assets.js';
import { html, trusted, type Html } from '../web/html.js';
import { WORDS } from './words.js';

/** The icon's green: the browser's bar and the splash's accent. */
export const THEME_COLOR = '#0b5d4b';
/** The pages' light background, shown while the app starts. */
const BACKGROUND_COLOR = '#ffffff';
/** How many place pages the worker keeps (a page is its URL, query included). */
export const KEPT_PLACES = 10;
/** Our caches' names begin with this; an activating worker deletes the ones of other versions. */
const CACHE_PREFIX = 'prayer-times-';
/** The kept pages: not versioned, so a deploy keeps the places a visitor saved. */
export const PAGES_CACHE = `${CACHE_PREFIX}pages`;
/** Static files the dashboard alone uses: never cached by the worker (it leaves the dashboard alone). */
const DASHBOARD_ASSETS: ReadonlySet<string> = new Set(['passkeys.js', 'simplewebauthn-browser.js']);

export interface RootFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
}

/** The manifest of one language's app: it opens on that language's home, and its scope is that language's pages. */
export function manifestOf(language: SiteLanguage): Record<string, unknown> {
  const w = WORDS[language];
  const home = LANGUAGE_HOME_PATH[language];
  const png = (name: 'icon-192.png' | 'icon-512.png' | 'icon-maskable-512.png', sizes: string, purpose: string) => ({ src: assetHref(name), sizes, type: 'image/png', purpose });
  return {
    id: home,
    name: w.siteName,
    short_name: w.appShortName,
    description: w.tagline,
    lang: language,
    dir: 'ltr',
    start_url: home,
    scope: home,
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [png('icon-192.png', '192x192', 'any'), png('icon-512.png', '512x512', 'any'), png('icon-maskable-512.png', '512x512', 'maskable')],
  };
}

const NOTICE_OPEN = '<p id="offline-notice" class="offline-notice" role="status"';

/** Every page's notice, hidden; the worker unhides it on a copy it answers without a connection. */
export const offlineNotice = (language: SiteLanguage): Html => html`${trusted(NOTICE_OPEN)} hidden>${WORDS[language].offlineNotice}</p>`;

/** What every page's head carries for the app: its manifest, colour, icons and the worker's registration. */
export const webAppHead = (language: SiteLanguage): Html => html`<link rel="manifest" href="${WEB_APP_MANIFEST_PATH[language]}">
<meta name="theme-color" content="${THEME_COLOR}">
<link rel="icon" href="${FAVICON_PATH}" sizes="16x16 32x32 48x48">
<link rel="apple-touch-icon" href="${assetHref('apple-touch-icon.png')}">
<script src="${assetHref('offline.js')}" defer data-service-worker="${SERVICE_WORKER_PATH}"></script>
`;

/** The files at fixed URLs that the worker keeps too (an installed app reads its manifest; pages link the favicon). */
const FIXED_FILES: ReadonlyMap<string, RootFile> = new Map<string, RootFile>([
  ...SITE_LANGUAGES.map((language): [string, RootFile] => [
    WEB_APP_MANIFEST_PATH[language],
    { body: Buffer.from(JSON.stringify(manifestOf(language))), contentType: 'application/manifest+json', cacheControl: 'public, max-age=86400' },
  ]),
  [FAVICON_PATH, { body: ownFileBytes('favicon.ico'), contentType: 'image/x-icon', cacheControl: 'public, max-age=86400' }],
]);

/**
 * The worker's settings, and its version: a hash of them, of its code and of the fixed files it keeps (the assets'
 * URLs carry their own hashes), so a deploy that changes any of them is a new worker with a cache of its own.
 */
export function serviceWorkerSettings(template: string): Record<string, unknown> {
  const shellAssets = [...ASSETS.keys()].filter((name) => !DASHBOARD_ASSETS.has(name));
  const fixed = [...FIXED_FILES.keys()];
  const settings = {
    cachePrefix: CACHE_PREFIX,
    pagesCache: PAGES_CACHE,
    shell: [...shellAssets.map((name) => ASSETS.get(name)!.href), ...fixed, ...SITE_LANGUAGES.map((l) => OFFLINE_PATH[l])],
    shellFiles: [...shellAssets.map((name) => `${ASSETS_PREFIX}/${name}`), ...fixed],
    placePrefixes: SITE_LANGUAGES.map((l) => `${PLACE_PAGE_PREFIX[l]}/`),
    homes: SITE_LANGUAGES.map((l) => LANGUAGE_HOME_PATH[l]),
    sitePrefixes: [...SITE_LANGUAGES.map((l) => LANGUAGE_HOME_PATH[l]), DOCS_PATH, PRICING_PATH],
    offlinePages: OFFLINE_PATH,
    keptPlaces: KEPT_PLACES,
    noticeHidden: `${NOTICE_OPEN} hidden>`,
    noticeShown: `${NOTICE_OPEN}>`,
  };
  const hash = createHash('sha1').update(template).update(JSON.stringify(settings));
  for (const file of FIXED_FILES.values()) hash.update(file.body);
  const version = hash.digest('base64url').slice(0, 12);
  return { version, shellCache: `${CACHE_PREFIX}shell-${version}`, ...settings };
}

const CONFIG_SLOT = '/* CONFIG */ null';

function serviceWorker(): string {
  const template = ownFileBytes('sw.js').toString('utf8');
  if (!template.includes(CONFIG_SLOT)) throw new Error(`server/web/assets/sw.js has no ${CONFIG_SLOT} for its settings`);
  return template.replace(CONFIG_SLOT, JSON.stringify(serviceWorkerSettings(template)));
}

/** The files at fixed URLs outside /assets, by path: browsers ask for them by name, so they are kept briefly. */
export const ROOT_FILES: ReadonlyMap<string, RootFile> = new Map<string, RootFile>([
  ...FIXED_FILES,
  // Asked again at every check for an update (browsers skip their cache for it): a 304 while it has not changed.
  [SERVICE_WORKER_PATH, { body: Buffer.from(serviceWorker()), contentType: 'text/javascript; charset=utf-8', cacheControl: 'no-cache' }],
]);
