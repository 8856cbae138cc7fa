// The catalog as a tree for browsing: countries, their regions, the places of each region, by the site path's
// segments (`turkey`, `turkey/istanbul`, `turkey/istanbul/kadikoy`). Built once per thread, on first use, from the
// shared catalog tables: a region holds its places' indices, and place objects are made only for the region a page
// shows (a thread that made an object for each of the 163,001 places would hold about 60 MB more).
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import type { PlaceCatalog } from './placeCatalog.js';

export class DirectoryRegion {
  constructor(
    private readonly catalog: PlaceCatalog,
    /** `turkey/istanbul` */
    readonly path: string,
    /** The region's name as the catalog has it (`İstanbul`); '' for the places whose region the sources do not
     * name (`norway/all`). */
    readonly name: string,
    readonly country: string,
    /** Its places' catalog indices, by name. */
    readonly indices: Int32Array,
  ) {}

  /** Its places, by name: objects made now (the catalog keeps a bounded number of them). */
  get places(): readonly StoredPlace[] {
    return Array.from(this.indices, (i) => this.catalog.place(i));
  }
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
const LARGEST_PER_COUNTRY = 12;

export class PlaceDirectory {
  readonly countries: readonly DirectoryCountry[];
  private readonly byPath = new Map<string, DirectoryCountry | DirectoryRegion>();

  constructor(catalog: PlaceCatalog) {
    const { tables } = catalog;
    // Names and paths are read once each, for the sort, and dropped: only the indices stay.
    const regions = new Map<string, { name: string; country: string; places: Array<{ i: number; name: string; path: string }> }>();
    for (let i = 0; i < tables.count; i++) {
      const path = tables.path(i);
      const regionPath = path.slice(0, path.lastIndexOf('/'));
      let region = regions.get(regionPath);
      if (!region) regions.set(regionPath, (region = { name: tables.regions[tables.region[i]], country: tables.countries[tables.country[i]], places: [] }));
      region.places.push({ i, name: tables.name(i), path });
    }
    const countries = new Map<string, { code: string; regions: DirectoryRegion[] }>();
    for (const [path, region] of regions) {
      region.places.sort((a, b) => collator.compare(a.name, b.name) || a.path.localeCompare(b.path));
      const countryPath = path.slice(0, path.indexOf('/'));
      let country = countries.get(countryPath);
      if (!country) countries.set(countryPath, (country = { code: region.country, regions: [] }));
      const entry = new DirectoryRegion(catalog, path, region.name, region.country, Int32Array.from(region.places, (p) => p.i));
      country.regions.push(entry);
      this.byPath.set(path, entry);
    }
    this.countries = [...countries].map(([path, c]) => {
      c.regions.sort((a, b) => Number(a.name === '') - Number(b.name === '') || collator.compare(a.name, b.name));
      const placeCount = c.regions.reduce((n, r) => n + r.indices.length, 0);
      const country: DirectoryCountry = { path, code: c.code, regions: c.regions, placeCount, largest: largestOf(catalog, c.regions.flatMap((r) => [...r.indices]), LARGEST_PER_COUNTRY) };
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
    return found instanceof DirectoryRegion ? found : undefined;
  }
}

/** The `count` most populous of the places at `indices` (those with a population), largest first. */
export function largestOf(catalog: PlaceCatalog, indices: Iterable<number>, count: number): StoredPlace[] {
  const population = catalog.tables.population;
  const known = [...indices].filter((i) => !Number.isNaN(population[i]));
  known.sort((a, b) => population[b] - population[a]);
  return known.slice(0, count).map((i) => catalog.place(i));
}

/** The most populous places of the whole catalog, largest first. */
export function largestPlaces(catalog: PlaceCatalog, count: number): StoredPlace[] {
  return largestOf(catalog, catalog.tables.population.keys(), count);
}

const directories = new WeakMap<PlaceCatalog, PlaceDirectory>();

/** The directory of a catalog's places, built on first use and kept as long as the catalog. */
export function directoryOf(catalog: PlaceCatalog): PlaceDirectory {
  let directory = directories.get(catalog);
  if (!directory) directories.set(catalog, (directory = new PlaceDirectory(catalog)));
  return directory;
}
