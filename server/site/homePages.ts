// The chooser at `/` (both languages), and each language's home: the search form, the largest cities of the world
// and every country; the Turkish home opens with Türkiye's 81 provinces, as Diyanet's site does.
import { CHOOSER_PATH, LANGUAGE_HOME_PATH, placePagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { directoryOf, largestPlaces } from '../places/placeDirectory.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { html } from '../web/html.js';
import { page } from './layout.js';
import { searchForm } from './errorPages.js';
import { lastPlaceSlot, nearMe } from './nearPage.js';
import { placeLabel } from './placeNames.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { countryName, WORDS } from './words.js';

const HOME_VALID_MS = 3_600_000;
const LARGEST_COUNT = 24;
const TURKEY_PATH = 'turkey';

const largestByCatalog = new WeakMap<PlaceCatalog, StoredPlace[]>();

/** The most populous places of the catalog, largest first (what the site knows; not what people look at most). */
function largestCities(catalog: PlaceCatalog): StoredPlace[] {
  let list = largestByCatalog.get(catalog);
  if (!list) largestByCatalog.set(catalog, (list = largestPlaces(catalog, LARGEST_COUNT)));
  return list;
}

function chooser(request: SiteRequest): SitePage {
  const main = html`<h1>${WORDS.tr.siteName} · ${WORDS.en.siteName}</h1>
<p lang="tr">${WORDS.tr.tagline}</p>
<p>${WORDS.en.tagline}</p>
<ul class="list">
<li><a href="${LANGUAGE_HOME_PATH.tr}" hreflang="tr" lang="tr">Türkçe</a></li>
<li><a href="${LANGUAGE_HOME_PATH.en}" hreflang="en">English</a></li>
</ul>`;
  return {
    status: 200,
    body: page(request.base, {
      language: 'en',
      title: `${WORDS.en.siteName} · ${WORDS.tr.siteName}`,
      description: WORDS.en.tagline,
      canonicalPath: CHOOSER_PATH,
      alternates: LANGUAGE_HOME_PATH,
      main,
    }),
    validUntil: request.now + HOME_VALID_MS,
  };
}

function home(request: SiteRequest, ctx: SiteContext, language: SiteLanguage): SitePage {
  const w = WORDS[language];
  const catalog = ctx.catalog;
  const countries = catalog
    ? directoryOf(catalog).countries.map((c) => ({ path: c.path, name: countryName(c.code, language) })).sort((a, b) => a.name.localeCompare(b.name, language))
    : [];
  // Every Turkish district is in the catalog: on the Turkish home the provinces come first, one click away, as on
  // Diyanet's site; the English home opens with the world's largest cities (Türkiye is among the countries).
  const turkey = language === 'tr' && catalog && directoryOf(catalog).country(TURKEY_PATH);
  const main = html`<h1>${w.siteName}</h1>
<p class="lede">${w.tagline}</p>
${lastPlaceSlot(language)}
${searchForm(language)}
${nearMe(language)}
${turkey && html`<h2>${w.regionsOf(countryName(turkey.code, language))}</h2>
<ul class="list">${turkey.regions.map((r) => html`<li><a href="${placePagePath(language, r.path)}">${r.name}</a></li>`)}</ul>`}
${catalog && html`<h2>${w.largestCities}</h2>
<ul class="list">${largestCities(catalog).map((p) => html`<li><a href="${placePagePath(language, p.path)}">${placeLabel(p)}</a> <span class="note">${countryName(p.country, language)}</span></li>`)}</ul>
<h2>${w.countries}</h2>
<ul class="list">${countries.map((c) => html`<li><a href="${placePagePath(language, c.path)}">${c.name}</a></li>`)}</ul>`}`;
  return {
    status: 200,
    body: page(request.base, {
      language,
      title: w.siteName,
      description: w.tagline,
      canonicalPath: LANGUAGE_HOME_PATH[language],
      alternates: LANGUAGE_HOME_PATH,
      // The last place viewed on this device and "use my location" (nearMe.js); the HTML is the same for everyone.
      scripts: ['nearMe.js'],
      main,
    }),
    validUntil: request.now + HOME_VALID_MS,
  };
}

export function homePages(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (request.path === CHOOSER_PATH) return chooser(request);
  const language = SITE_LANGUAGES.find((l) => request.path === LANGUAGE_HOME_PATH[l] || request.path === `${LANGUAGE_HOME_PATH[l]}/`);
  return language && home(request, ctx, language);
}
