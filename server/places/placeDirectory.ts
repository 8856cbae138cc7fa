// The catalog as a tree for browsing: countries, their regions, the places of each region, by the site path's
// segments (`turkey`, `turkey/istanbul`, `turkey/istanbul/kadikoy`). Built once, on first use, from the catalog.
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';

export interface DirectoryRegion {
  /** `turkey/istanbul` */
  path: string;
  /** The region's name as the catalog has it (`İstanbul`); '' for the places whose region the sources do not name
   * (`norway/all`). */
  name: string;
  country: string;
  /** Its places, by name. */
  places: readonly StoredPlace[];
}

export interface DirectoryCountry {
  /** `turkey` */
  path: string;
  /** ISO 3166 alpha-2. */
  code: string;
  /** Its regions, by name; the one without a name last. */
  regions: readonly DirectoryRegion[];
  placeCount: number;
  /** Its most populous places, largest first (at most 12). */
  largest: readonly StoredPlace[];
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });

export class PlaceDirectory {
  readonly countries: readonly DirectoryCountry[];
  private readonly byPath = new Map<string, DirectoryCountry | DirectoryRegion>();

  constructor(places: readonly StoredPlace[]) {
    const regions = new Map<string, { name: string; country: string; places: StoredPlace[] }>();
    for (const place of places) {
      const regionPath = place.path.slice(0, place.path.lastIndexOf('/'));
      let region = regions.get(regionPath);
      if (!region) regions.set(regionPath, (region = { name: place.region, country: place.country, places: [] }));
      region.places.push(place);
    }
    const countries = new Map<string, { code: string; regions: DirectoryRegion[] }>();
    for (const [path, region] of regions) {
      region.places.sort((a, b) => collator.compare(a.name, b.name) || a.path.localeCompare(b.path));
      const countryPath = path.slice(0, path.indexOf('/'));
      let country = countries.get(countryPath);
      if (!country) countries.set(countryPath, (country = { code: region.country, regions: [] }));
      const entry: DirectoryRegion = { path, ...region };
      country.regions.push(entry);
      this.byPath.set(path, entry);
    }
    this.countries = [...countries].map(([path, c]) => {
      c.regions.sort((a, b) => Number(a.name === '') - Number(b.name === '') || collator.compare(a.name, b.name));
      const all = c.regions.flatMap((r) => r.places);
      const largest = all.filter((p) => p.population !== undefined).sort((a, b) => b.population! - a.population!).slice(0, 12);
      const country: DirectoryCountry = { path, code: c.code, regions: c.regions, placeCount: all.length, largest };
      this.byPath.set(path, country);
      return country;
    });
  }

  country(path: string): DirectoryCountry | undefined {
    const found = this.byPath.get(path);
    return found && 'regions' in found ? found : undefined;
  }

  region(path: string): DirectoryRegion | undefined {
    const found = this.byPath.get(path);
    return found && 'places' in found ? found : undefined;
  }
}

const directories = new WeakMap<readonly StoredPlace[], PlaceDirectory>();

/** The directory of a catalog's places, built on first use and kept as long as the catalog. */
export function directoryOf(places: readonly StoredPlace[]): PlaceDirectory {
  let directory = directories.get(places);
  if (!directory) directories.set(places, (directory = new PlaceDirectory(places)));
  return directory;
}
