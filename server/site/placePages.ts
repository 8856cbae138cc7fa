// Everything under the place prefixes (`/tr/namaz-vakitleri`, `/en/prayer-times`): a place's page, the index of a
// country (its regions) and of a region (its places). A known page reached by another spelling of its path (case,
// slashes, percent-encoding) or by the path it had before the slug rule changed (`eminoenue` → `eminonu`) is sent
// to its canonical URL with a 301; anything else there is the localized 404.
import { ApiError } from '../errors.js';
import { LANGUAGE_HOME_PATH, PLACE_PAGE_PREFIX, placePagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { directoryOf, type DirectoryCountry, type DirectoryRegion } from '../places/placeDirectory.js';
import { html } from '../web/html.js';
import { page } from './layout.js';
import { withCountrySlug } from './countryAliases.js';
import { crumbsOf, placePage } from './placePage.js';
import { placeLabel, regionLabel } from './placeNames.js';
import type { SiteContext } from './siteContext.js';
import { decodeLeniently, type SitePage, type SiteRequest } from './sitePage.js';
import { countryName, formatNumber, WORDS } from './words.js';

const INDEX_VALID_MS = 3_600_000;

/** A path as people may type it: decoded, lower case, without empty segments. */
export const canonicalPlacePath = (rest: string): string =>
  decodeLeniently(rest).toLowerCase().split('/').filter((s) => s !== '').join('/');

function redirect(location: string, now: number): SitePage {
  return { status: 301, body: '', location, validUntil: now + INDEX_VALID_MS };
}

function countryPage(request: SiteRequest, language: SiteLanguage, country: DirectoryCountry): SitePage {
  const w = WORDS[language];
  const name = countryName(country.code, language);
  const count = (n: number): string => w.placeCount(formatNumber(n, language), n);
  const main = html`<h1>${w.regionsOf(name)}</h1>
<p class="lede">${name} · ${count(country.placeCount)}</p>
${country.largest.length > 0 && html`<h2>${w.largestCities}</h2>
<ul class="list">${country.largest.map((p) => html`<li><a href="${placePagePath(language, p.path)}">${placeLabel(p)}</a>${p.region && html` <span class="note">${p.region}</span>`}</li>`)}</ul>`}
<h2>${w.regions}</h2>
<ul class="list">${country.regions.map((r) => html`<li><a href="${placePagePath(language, r.path)}">${regionLabel(r.name, language)}</a> <span class="note">(${count(r.places.length)})</span></li>`)}</ul>`;
  return indexPage(request, language, country.path, `${w.regionsOf(name)} · ${w.siteName}`, w.regionsOf(name), crumbsOf(language, [{ path: country.path, name }]), main);
}

function regionPage(request: SiteRequest, language: SiteLanguage, country: DirectoryCountry, region: DirectoryRegion): SitePage {
  const w = WORDS[language];
  const name = countryName(country.code, language);
  // The places whose region the sources do not name (`norway/all`) are the country's "other places".
  const heading = region.name ? w.placesIn(region.name) : w.otherPlacesOf(name);
  const places = region.places.length;
  const main = html`<h1>${heading}</h1>
<p class="lede">${region.name ? `${region.name}, ${name}` : name} · ${w.placeCount(formatNumber(places, language), places)}</p>
<ul class="list">${region.places.map((p) => html`<li><a href="${placePagePath(language, p.path)}">${placeLabel(p)}</a></li>`)}</ul>`;
  const crumbs = crumbsOf(language, [
    { path: country.path, name },
    { path: region.path, name: regionLabel(region.name, language) },
  ]);
  return indexPage(request, language, region.path, `${region.name ? `${heading}, ${name}` : heading} · ${w.siteName}`, heading, crumbs, main);
}

function indexPage(request: SiteRequest, language: SiteLanguage, sitePath: string, title: string, description: string, crumbs: ReturnType<typeof crumbsOf>, main: ReturnType<typeof html>): SitePage {
  return {
    status: 200,
    body: page(request.base, {
      language,
      title,
      description,
      canonicalPath: placePagePath(language, sitePath),
      alternates: { tr: placePagePath('tr', sitePath), en: placePagePath('en', sitePath) },
      crumbs,
      main,
    }),
    validUntil: request.now + INDEX_VALID_MS,
  };
}

export function placePages(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  for (const language of SITE_LANGUAGES) {
    const prefix = PLACE_PAGE_PREFIX[language];
    if (request.path === prefix || request.path === `${prefix}/`) return redirect(`${request.base}${LANGUAGE_HOME_PATH[language]}`, request.now);
    if (!request.path.startsWith(`${prefix}/`)) continue;
    const catalog = ctx.catalog;
    if (!catalog) throw new ApiError('service_unavailable', 'The place catalog has not been built yet; try again in a minute.');
    const rest = request.path.slice(prefix.length + 1);
    const place = catalog.byPath(rest);
    if (place) return placePage(request, ctx, catalog, place, language);
    const directory = directoryOf(catalog);
    const country = directory.country(rest);
    if (country) return countryPage(request, language, country);
    const region = directory.region(rest);
    if (region) return regionPage(request, language, directory.country(rest.slice(0, rest.indexOf('/')))!, region);
    const canonical = canonicalPlacePath(rest);
    if (canonical !== rest && (catalog.byPath(canonical) || directory.country(canonical) || directory.region(canonical))) {
      return redirect(`${request.base}${placePagePath(language, canonical)}`, request.now);
    }
    // A place's path before the slug rule changed (placePaths.ts): its page now.
    const moved = catalog.byFormerPath(canonical);
    if (moved) return redirect(`${request.base}${placePagePath(language, moved.path)}`, request.now);
    // The country by its name in Turkish or English (`turkiye/…`): countryAliases.ts.
    const renamed = withCountrySlug(directory, canonical);
    if (renamed && (catalog.byPath(renamed) || directory.country(renamed) || directory.region(renamed))) {
      return redirect(`${request.base}${placePagePath(language, renamed)}`, request.now);
    }
    return undefined;
  }
  return undefined;
}
