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

/** A place's page in one language. */
export const placePageUrl = (base: string, language: SiteLanguage, placePath: string): string =>
  `${base}${PLACE_PAGE_PREFIX[language]}/${placePath}`;

/** The section of /docs/errors that explains one error code (its `id` is the code). */
export const errorDocsUrl = (base: string, code: string): string => `${base}${ERRORS_DOCS_PATH}#${code}`;

export const authenticationDocsUrl = (base: string): string => `${base}${AUTHENTICATION_DOCS_PATH}`;

export const pricingUrl = (base: string): string => `${base}${PRICING_PATH}`;
