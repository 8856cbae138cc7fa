// The site's search (`/tr/ara?q=`, `/en/search?q=`): the catalog's matching, as the API's /cities and `city=` use
// it, shown as a list of links to the places' pages. Results are not for search engines (noindex).
import { SEARCH_PATH, placePagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { html } from '../web/html.js';
import { page } from './layout.js';
import { searchForm } from './errorPages.js';
import { placeLabel, placeWhere } from './placeNames.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { WORDS } from './words.js';

const RESULTS = 30;
const MAX_QUERY = 100;
const SEARCH_VALID_MS = 600_000;

function results(request: SiteRequest, ctx: SiteContext, language: SiteLanguage): SitePage {
  const w = WORDS[language];
  const query = (request.query.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const found = query.length >= 2 && ctx.catalog ? ctx.catalog.find(query, RESULTS) : [];
  const main = html`<h1>${query === '' ? w.search : w.searchResultsFor(query)}</h1>
${searchForm(language, query, query === '')}
${query !== '' && query.length < 2 && html`<p>${w.searchTooShort}</p>`}
${query.length >= 2 && found.length === 0 && html`<p>${w.noResults}</p>`}
${found.length > 0 && html`<ol class="list">${found.map((p) => html`<li><a href="${placePagePath(language, p.path)}">${placeLabel(p)}</a> <span class="note">${placeWhere(p, language)}</span></li>`)}</ol>`}`;
  return {
    status: 200,
    body: page(request.base, {
      language,
      title: `${query === '' ? w.search : w.searchResultsFor(query)} · ${w.siteName}`,
      description: w.tagline,
      canonicalPath: SEARCH_PATH[language],
      alternates: SEARCH_PATH,
      noindex: true,
      main,
    }),
    validUntil: request.now + SEARCH_VALID_MS,
  };
}

export function searchPage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  const language = SITE_LANGUAGES.find((l) => request.path === SEARCH_PATH[l]);
  return language && results(request, ctx, language);
}
