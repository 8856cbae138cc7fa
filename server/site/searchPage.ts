// The site's search (`/tr/ara?q=`, `/en/search?q=`): the catalog's matching, as the API's /cities uses it (typos
// and place-and-region in any order included), in the order for people: a far larger place a typo away goes before a
// small one matched exactly (placeQuery.ts). When one place is clearly meant, the answer is a 302 to its page;
// otherwise a list of links to the places' pages. Results are not for search engines (noindex).
import { SEARCH_PATH, placePagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { html } from '../web/html.js';
import { page } from './layout.js';
import { searchForm } from './errorPages.js';
import { placeLabel, placeWhere } from './placeNames.js';
import type { FoundPlace } from '../places/placeQuery.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { WORDS } from './words.js';

const RESULTS = 30;
const MAX_QUERY = 100;
const SEARCH_VALID_MS = 600_000;
/** How far (in matchScore, orders of magnitude) the first place must be ahead of every other to go to it at once. */
export const CLEARLY_AHEAD = 1;

/**
 * The place a search clearly means, if one: the first result, matched exactly or a typo away (a prefix match may
 * be a name still being typed), scoring at least CLEARLY_AHEAD above every other result (ten times the population
 * at the same closeness; a place an edit closer, at a tenth of it).
 */
export function clearlyMeant<T extends FoundPlace>(found: readonly T[]): T | undefined {
  const [first, ...rest] = found;
  if (!first || first.kind === 'prefix') return undefined;
  return rest.every((other) => first.score - other.score >= CLEARLY_AHEAD) ? first : undefined;
}

function results(request: SiteRequest, ctx: SiteContext, language: SiteLanguage): SitePage {
  const w = WORDS[language];
  const query = (request.query.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const matches = query.length >= 2 && ctx.catalog ? ctx.catalog.searchPlaces(query, RESULTS, 'people') : [];
  const meant = clearlyMeant(matches);
  if (meant) return { status: 302, body: '', location: `${request.base}${placePagePath(language, meant.place.path)}`, validUntil: request.now + SEARCH_VALID_MS };
  const found = matches.map((m) => m.place);
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
