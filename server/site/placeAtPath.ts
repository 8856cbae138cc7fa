// A place's path as it reaches a page about one place (the widget): the place itself, or the canonical path of the
// place another spelling means — case, slashes or percent-encoding (`Turkey//Istanbul/Kadikoy`), the path it had
// before the slug rule changed (`eminoenue` → `eminonu`), the country by its Turkish or English name
// (`turkiye/…`) — for a 301; undefined when no place is meant. The place pages read country and region paths too, with
// the same rules (placePages.ts).
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { directoryOf } from '../places/placeDirectory.js';
import { withCountrySlug } from './countryAliases.js';
import { canonicalPlacePath } from './placePages.js';

export type PlaceAtPath = { place: StoredPlace; movedTo?: undefined } | { place?: undefined; movedTo: string } | undefined;

export function placeAtPath(catalog: PlaceCatalog, rest: string): PlaceAtPath {
  const place = catalog.byPath(rest);
  if (place) return { place };
  const canonical = canonicalPlacePath(rest);
  if (canonical !== rest && catalog.byPath(canonical)) return { movedTo: canonical };
  const moved = catalog.byFormerPath(canonical);
  if (moved) return { movedTo: moved.path };
  const renamed = withCountrySlug(directoryOf(catalog), canonical);
  if (renamed !== undefined && catalog.byPath(renamed)) return { movedTo: renamed };
  return undefined;
}
