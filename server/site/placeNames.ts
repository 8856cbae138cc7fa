// How the site names a place: its name, with the qualifier that tells it from a namesake in its region
// (`Yenice (İnegöl)`, pipeline/catalog/namesakes.ts), and where it is (`Bursa, Türkiye`; only `Norway` where the
// sources name no region: 772 places, most of Vietnam and northern Norway). Every page that shows a place says it so.
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import type { SiteLanguage } from '../links.js';
import { countryName, WORDS } from './words.js';

type Named = Pick<StoredPlace, 'name'> & Partial<Pick<StoredPlace, 'qualifier'>>;

/** The place's name, and its qualifier in brackets when a namesake shares its region. */
export const placeLabel = (place: Named): string => (place.qualifier ? `${place.name} (${place.qualifier})` : place.name);

/** The region (when the sources name one) and the country: `İstanbul, Türkiye`, `Norway`. */
export const placeWhere = (place: Pick<StoredPlace, 'region' | 'country'>, language: SiteLanguage): string =>
  place.region ? `${place.region}, ${countryName(place.country, language)}` : countryName(place.country, language);

/** A region's name in lists, headings and the breadcrumb: the places without one are "Other places". */
export const regionLabel = (region: string, language: SiteLanguage): string => region || WORDS[language].otherPlaces;
