// The site paths of places (`country/region/place`, lowercase ASCII): the slug of each segment, one path per place,
// and the paths places had under the slug rule before (kept as aliases, so old links and API clients still work).
import { slugify, foldName } from './textFold.js';

const englishCountryNames = new Intl.DisplayNames('en', { type: 'region' });
/** Path segments for countries whose current English name differs from the slug the site uses. */
const COUNTRY_SLUG_OVERRIDES: Readonly<Record<string, string>> = { TR: 'turkey' };
/** The region segment of a place whose region the sources do not name. */
export const NO_REGION_SLUG = 'all';

export function countrySlug(country: string): string {
  return COUNTRY_SLUG_OVERRIDES[country] ?? slugify(englishCountryNames.of(country) ?? country);
}

export const regionSlug = (region: string): string => slugify(region) || NO_REGION_SLUG;

/**
 * A place's slug: its own name folded by one rule for every Latin script (ö→o, ü→u, ş→s, ç→c, ğ→g, ı→i, ß→ss,
 * đ→d: `Eminönü` → `eminonu`, `Köln` → `koln`), so a slug never depends on which language's ASCII habits a source
 * followed. A name in another script, or with letters the folding keeps (ə), takes the source's ASCII name.
 */
export function placeSlug(name: string, asciiName: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const own = /^[\x00-\x7f]*$/.test(foldName(name)) ? slugify(name) : '';
  return own || slugify(asciiName) || fallback;
}

/**
 * The slug rule before issue 30 (GeoNames' ASCII name, which writes ö as oe in German-speaking places and in some
 * Turkish ones: `eminoenue`). Frozen: it only finds the paths places had, to answer them with the new one.
 */
export const formerPlaceSlug = (name: string, asciiName: string, fallback: string): string => slugify(asciiName || name) || fallback;

export interface PathClaim {
  /** The path the place wants. */
  wanted: string;
  /** Keeps the path first: a Turkish district… */
  district: boolean;
  /** …then the place that had this path under the former rule (an old link keeps showing the same place)… */
  held?: boolean;
  rankWeight: number;
  /** The GeoNames id (0 for a district): the older id keeps the path among equals; the others get it appended. */
  geonameId: number;
}

/** Which of two places that want one path (or one name in one region) keeps it: negative for the first. */
export const precedence = (a: Omit<PathClaim, 'wanted'>, b: Omit<PathClaim, 'wanted'>): number =>
  Number(b.district) - Number(a.district) || Number(b.held ?? false) - Number(a.held ?? false) || b.rankWeight - a.rankWeight || a.geonameId - b.geonameId;

/**
 * One path per place: when several want one, the district, else the one that had it, else the larger rank weight,
 * else the older GeoNames id keeps it, and each other gets its GeoNames id appended, which no later data can take from it.
 */
export function uniquePaths(claims: readonly PathClaim[]): string[] {
  const byPath = new Map<string, number[]>();
  claims.forEach((c, i) => {
    const list = byPath.get(c.wanted);
    if (list) list.push(i);
    else byPath.set(c.wanted, [i]);
  });
  const paths = claims.map((c) => c.wanted);
  for (const group of byPath.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => precedence(claims[a], claims[b]));
    for (const i of group.slice(1)) paths[i] = `${claims[i].wanted}-${claims[i].geonameId}`;
  }
  return paths;
}

/**
 * Former path → index of the place now at another path: a place whose former path differs from its path, unless
 * that former path is now another place's.
 */
export function formerPaths(paths: readonly string[], former: readonly string[]): Map<string, number> {
  const current = new Set(paths);
  const aliases = new Map<string, number>();
  former.forEach((path, i) => {
    if (path !== paths[i] && !current.has(path)) aliases.set(path, i);
  });
  return aliases;
}
