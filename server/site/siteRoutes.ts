// The site's pages in the order they are tried: each module answers the paths it owns and passes (undefined) on the
// rest; a path nobody answers is the localized 404 (errorPages.ts). Public URL shapes come from links.ts.
import { apiReferencePage } from './apiReferencePage.js';
import { authenticationDocsPage } from './authenticationDocsPage.js';
import { errorsDocsPage } from './errorsDocsPage.js';
import { gettingStartedPage } from './gettingStartedPage.js';
import { mcpDocsPage } from './mcpDocsPage.js';
import { pricingPage } from './pricingPage.js';
import { calendarFeeds } from './calendarFeed.js';
import { robots } from './robots.js';
import type { SiteContext } from './siteContext.js';
import { sitemaps } from './sitemaps.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { homePages } from './homePages.js';
import { placePages } from './placePages.js';
import { ramadanPages } from './ramadanPage.js';
import { searchPage } from './searchPage.js';
import { nearPage } from './nearPage.js';
import { offlinePages } from './offlinePage.js';
import { embedPages } from './embedPage.js';

export type SiteHandler = (request: SiteRequest, ctx: SiteContext) => SitePage | undefined;

export const SITE_HANDLERS: readonly SiteHandler[] = [
  homePages,
  searchPage,
  nearPage,
  offlinePages,
  robots,
  sitemaps,
  // Before the place pages: `{place page}.ics` is under their prefix.
  calendarFeeds,
  placePages,
  ramadanPages,
  embedPages,
  gettingStartedPage,
  apiReferencePage,
  errorsDocsPage,
  authenticationDocsPage,
  mcpDocsPage,
  pricingPage,
];

/** The query parameters pages read: the page cache keys on these alone, so other parameters cannot multiply it. */
export const PAGE_PARAMETERS: readonly string[] = ['method', 'madhab', 'month', 'q', 'theme', 'alarm'];
