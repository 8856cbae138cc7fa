// Every public URL shape of the service, declared once: the site's place pages in both languages, the docs, the
// pricing page, the dashboard. Location objects, error bodies, the OpenAPI document and (next) the site's own
// links and sitemaps take them from here. Shared sideways, like errors.ts.

export type SiteLanguage = 'tr' | 'en';

/** Where each language's place pages live: `/tr/namaz-vakitleri/{path}`, `/en/prayer-times/{path}`. */
export const PLACE_PAGE_PREFIX: Readonly<Record<SiteLanguage, string>> = {
  tr: '/tr/namaz-vakitleri',
  en: '/en/prayer-times',
};

export const DOCS_PATH = '/docs';
export const API_REFERENCE_PATH = '/docs/api';
export const ERRORS_DOCS_PATH = '/docs/errors';
export const AUTHENTICATION_DOCS_PATH = '/docs/authentication';
export const MCP_DOCS_PATH = '/docs/mcp';
export const PRICING_PATH = '/pricing';
export const DASHBOARD_PATH = '/dashboard';
/**
 * What the dashboard's door is called, wherever it is named (the sign-in page's heading, /pricing's link): one
 * sign-in form both signs in and opens an account, so the words say both and agree everywhere.
 */
export const DASHBOARD_ENTRY: Readonly<Record<SiteLanguage, string>> = {
  en: 'Sign in or create an account',
  tr: 'Giriş yapın ya da hesap açın',
};
/** The MCP server (Streamable HTTP, POST). */
export const MCP_PATH = '/mcp';
/** The OpenAPI description, served without a key. */
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** The request the start-up banner and the dashboard's new-key page offer to try: it works with any key, with or without the catalog. */
export const SAMPLE_API_REQUEST = '/api/v1/times?lat=41.0082&lon=28.9784';

/** A place's page in one language. */
export const placePageUrl = (base: string, language: SiteLanguage, placePath: string): string =>
  `${base}${PLACE_PAGE_PREFIX[language]}/${placePath}`;

/** The section of /docs/errors that explains one error code (its `id` is the code). */
export const errorDocsUrl = (base: string, code: string): string => `${base}${ERRORS_DOCS_PATH}#${code}`;

export const authenticationDocsUrl = (base: string): string => `${base}${AUTHENTICATION_DOCS_PATH}`;

export const pricingUrl = (base: string): string => `${base}${PRICING_PATH}`;

export const SITE_LANGUAGES: readonly SiteLanguage[] = ['tr', 'en'];

/** Each language's home page, and the chooser at `/`. */
export const LANGUAGE_HOME_PATH: Readonly<Record<SiteLanguage, string>> = { tr: '/tr', en: '/en' };
export const CHOOSER_PATH = '/';
/** The site's search form answers here (`?q=`). */
export const SEARCH_PATH: Readonly<Record<SiteLanguage, string>> = { tr: '/tr/ara', en: '/en/search' };
/** The nearest catalog place to a point (`?lat=&lon=`): a 302 to its page in that language; bare, a form to type them. */
export const NEAR_PATH: Readonly<Record<SiteLanguage, string>> = { tr: '/tr/yakin', en: '/en/near' };
/** A place's calendar subscription: its page's URL with `.ics`. */
export const CALENDAR_SUFFIX = '.ics';
export const ROBOTS_PATH = '/robots.txt';
export const SITEMAP_INDEX_PATH = '/sitemap.xml';
/** The sitemaps the index lists: `/sitemaps/{name}.xml`. */
export const SITEMAPS_PREFIX = '/sitemaps';
/** Stylesheets, the countdown script, the icon. */
export const ASSETS_PREFIX = '/assets';
/**
 * The installable app (server/site/webApp.ts): a web app manifest per language (the English one at the contract's
 * `/manifest.webmanifest`), the service worker at the root (its scope is the whole site), the favicon, and the page
 * the worker answers for a page it does not keep when there is no connection.
 */
export const WEB_APP_MANIFEST_PATH: Readonly<Record<SiteLanguage, string>> = { tr: '/tr/manifest.webmanifest', en: '/manifest.webmanifest' };
export const SERVICE_WORKER_PATH = '/sw.js';
export const FAVICON_PATH = '/favicon.ico';
export const OFFLINE_PATH: Readonly<Record<SiteLanguage, string>> = { tr: '/tr/cevrimdisi', en: '/en/offline' };

/** A site path (place, country or region prefix) in one language, without the base: `/en/prayer-times/turkey`. */
export const placePagePath = (language: SiteLanguage, placePath: string): string =>
  placePath === '' ? PLACE_PAGE_PREFIX[language] : `${PLACE_PAGE_PREFIX[language]}/${placePath}`;

/** A place's Ramadan timetable (the coming or current Ramadan): `/tr/imsakiye/{path}`, `/en/ramadan/{path}`. */
export const RAMADAN_PAGE_PREFIX: Readonly<Record<SiteLanguage, string>> = {
  tr: '/tr/imsakiye',
  en: '/en/ramadan',
};

export const ramadanPagePath = (language: SiteLanguage, placePath: string): string => `${RAMADAN_PAGE_PREFIX[language]}/${placePath}`;

export const placeCalendarUrl = (base: string, language: SiteLanguage, placePath: string): string =>
  `${placePageUrl(base, language, placePath)}${CALENDAR_SUFFIX}`;

/** The same feed for a calendar app to subscribe to: its URL with the `webcal:` scheme in place of `https:` or `http:`. */
export const calendarSubscriptionUrl = (feedUrl: string): string => feedUrl.replace(/^https?:/, 'webcal:');

/** The widget (a place's day, compact, framable by any site): `/embed/tr/{path}`, `/embed/en/{path}`. */
export const EMBED_ROOT = '/embed';
export const EMBED_PREFIX: Readonly<Record<SiteLanguage, string>> = { tr: `${EMBED_ROOT}/tr`, en: `${EMBED_ROOT}/en` };
export const embedPagePath = (language: SiteLanguage, placePath: string): string => `${EMBED_PREFIX[language]}/${placePath}`;
