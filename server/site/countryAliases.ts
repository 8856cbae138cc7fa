// A country typed by its name in one of the site's languages: `/tr/namaz-vakitleri/turkiye/istanbul` is where a Turkish
// reader looks for `/tr/namaz-vakitleri/turkey/istanbul`, `/en/prayer-times/almanya` for `…/germany`. The site's
// paths keep one slug per country (the catalog's, from its English name); the slug of every country's name in
// Turkish and in English, as the pages print it (words.ts countryName), leads there with a 301. A name that is
// another country's slug, or the name of two countries, leads nowhere.
import { slugify } from '../../pipeline/catalog/textFold.js';
import { SITE_LANGUAGES } from '../links.js';
import type { PlaceDirectory } from '../places/placeDirectory.js';
import { countryName } from './words.js';

const aliasesByDirectory = new WeakMap<PlaceDirectory, ReadonlyMap<string, string>>();

/** Each country's names as slugs (`turkiye`, `almanya`), to its slug in the site's paths (`turkey`, `germany`). */
export function countryAliases(directory: PlaceDirectory): ReadonlyMap<string, string> {
  let aliases = aliasesByDirectory.get(directory);
  if (aliases) return aliases;
  const found = new Map<string, string | undefined>();
  for (const country of directory.countries) {
    for (const language of SITE_LANGUAGES) {
      const alias = slugify(countryName(country.code, language));
      if (alias === '' || alias === country.path || directory.country(alias)) continue;
      // The same name for two countries is neither's.
      found.set(alias, found.has(alias) && found.get(alias) !== country.path ? undefined : country.path);
    }
  }
  aliases = new Map([...found].filter((entry): entry is [string, string] => entry[1] !== undefined));
  aliasesByDirectory.set(directory, aliases);
  return aliases;
}

/**
 * A site path (`turkiye/istanbul/kadikoy`, decoded and in lower case) whose first segment is a country's name rather
 * than its slug, with the slug put in its place; undefined when it is not one.
 */
export function withCountrySlug(directory: PlaceDirectory, path: string): string | undefined {
  const end = path.indexOf('/');
  const first = end < 0 ? path : path.slice(0, end);
  const slug = countryAliases(directory).get(slugify(first));
  return slug === undefined ? undefined : `${slug}${end < 0 ? '' : path.slice(end)}`;
}
