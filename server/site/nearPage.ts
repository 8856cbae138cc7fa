// Near me: `/tr/yakin?lat=&lon=` and `/en/near?lat=&lon=` send a visitor to the nearest catalog place's page in that
// language (302); without the parameters, a small form to type them (works with JavaScript off); bad or missing
// coordinates, that form again with what was wrong (400). Also the "use my location" widget the homes and place pages
// show, which nearMe.js turns into a button when the browser has geolocation.
//
// None of these answers is kept by the page cache (maxAgeSeconds 0): it keys on the pages' own parameters, not on
// lat/lon, and a redirect per point would only grow it.
import { ApiError } from '../errors.js';
import { LANGUAGE_HOME_PATH, NEAR_PATH, PLACE_PAGE_PREFIX, placePagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { html, type Html } from '../web/html.js';
import { page } from './layout.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { WORDS } from './words.js';

/** Decimal degrees as people type them: `41.0082`, `-8.6`, `+29`, and the decimal comma of Turkish (`41,0082`). */
const DECIMAL_DEGREES = /^[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;
/** Longer input is not a coordinate; it is not echoed back in full either. */
const MAX_INPUT = 32;

/** A coordinate in [-limit, limit], or undefined when the text is not one. */
export function coordinate(text: string, limit: number): number | undefined {
  const trimmed = text.trim();
  if (trimmed.length > MAX_INPUT || !DECIMAL_DEGREES.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : undefined;
}

/**
 * The "use my location" widget: a button, hidden until nearMe.js finds geolocation in the browser, that asks for the
 * position and goes to the near page with it. On a place page it also names the place, which nearMe.js keeps as the
 * last place viewed on this device (the homes offer it).
 */
export function nearMe(language: SiteLanguage, place?: StoredPlace): Html {
  const w = WORDS[language];
  return html`<div class="near-me" data-near="${NEAR_PATH[language]}" data-locating="${w.locating}" data-denied="${w.locationDenied}" data-failed="${w.locationFailed}"${place && html` data-place-path="${place.path}" data-place-name="${place.name}"`}>
<button type="button" hidden>${w.useMyLocation}</button> <span class="note" role="status"></span>
</div>`;
}

/** The homes' slot for the last place viewed on this device: nearMe.js fills it in (the home's HTML is the same for all). */
export function lastPlaceSlot(language: SiteLanguage): Html {
  return html`<p id="last-place" class="last-place" data-prefix="${PLACE_PAGE_PREFIX[language]}" hidden>${WORDS[language].lastPlace} <a></a></p>`;
}

function formPage(request: SiteRequest, language: SiteLanguage, status: 200 | 400, typed: { lat: string; lon: string }, problem?: string): SitePage {
  const w = WORDS[language];
  const described = problem ? html` aria-describedby="near-problem"` : '';
  const main = html`<h1>${w.nearTitle}</h1>
${problem && html`<p id="near-problem"><strong>${problem}</strong></p>`}
<p>${w.nearText}</p>
${nearMe(language)}
<form class="choose" action="${NEAR_PATH[language]}" method="get">
<div><label for="lat">${w.latitude}</label>
<input id="lat" name="lat" type="text" inputmode="decimal" autocomplete="off" size="12" maxlength="${MAX_INPUT}" required value="${typed.lat.slice(0, MAX_INPUT)}"${described}></div>
<div><label for="lon">${w.longitude}</label>
<input id="lon" name="lon" type="text" inputmode="decimal" autocomplete="off" size="12" maxlength="${MAX_INPUT}" required value="${typed.lon.slice(0, MAX_INPUT)}"${described}></div>
<button type="submit">${w.find}</button>
</form>`;
  return {
    status,
    body: page(request.base, {
      language,
      title: `${problem ? `${w.badRequestTitle} · ` : ''}${w.nearTitle} · ${w.siteName}`,
      description: w.nearText,
      canonicalPath: NEAR_PATH[language],
      alternates: NEAR_PATH,
      crumbs: [
        { name: w.home, path: LANGUAGE_HOME_PATH[language] },
        { name: w.nearTitle, path: NEAR_PATH[language] },
      ],
      noindex: true,
      scripts: ['nearMe.js'],
      main,
    }),
    maxAgeSeconds: 0,
  };
}

export function nearPage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  const language = SITE_LANGUAGES.find((l) => request.path === NEAR_PATH[l]);
  if (!language) return undefined;
  const w = WORDS[language];
  const lat = request.query.get('lat');
  const lon = request.query.get('lon');
  const typed = { lat: lat ?? '', lon: lon ?? '' };
  // The bare address is the form; a form sent with a box left empty is a missing coordinate.
  if (lat === undefined && lon === undefined) return formPage(request, language, 200, typed);
  if (!lat?.trim() || !lon?.trim()) return formPage(request, language, 400, typed, w.coordinatesMissing);
  const latitude = coordinate(lat, 90);
  if (latitude === undefined) return formPage(request, language, 400, typed, w.latitudeInvalid);
  const longitude = coordinate(lon, 180);
  if (longitude === undefined) return formPage(request, language, 400, typed, w.longitudeInvalid);
  const catalog = ctx.catalog;
  if (!catalog || catalog.size === 0) throw new ApiError('service_unavailable', 'The place catalog has not been built yet; try again in a minute.');
  const place = catalog.nearest(latitude, longitude);
  return { status: 302, body: '', location: `${request.base}${placePagePath(language, place.path)}`, maxAgeSeconds: 0 };
}
