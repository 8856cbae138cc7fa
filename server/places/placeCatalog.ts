// The catalog of places as the server uses it: resolving `city`, searching for /cities, the nearest place to a
// point, and the Location objects of the responses. Its bulk is one set of typed arrays per process, shared by the
// serving threads (catalogTables.ts); each thread builds place objects and Location objects from it when a request
// needs them, and keeps a bounded number of them.
import { readCatalog, type CatalogFile, type StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { buildSharedCatalog, CatalogTables, type SharedCatalog } from './catalogTables.js';
import { foldName } from '../../pipeline/catalog/textFold.js';
import { placePageUrl } from '../links.js';
import { NearestPlace } from './nearestPlace.js';
import { PlaceSearch, type SearchFilter } from './placeSearch.js';
import { PlaceQuery, type FoundPlace, type SearchOrder } from './placeQuery.js';

const englishNames = new Intl.DisplayNames('en', { type: 'region' });
const turkishNames = new Intl.DisplayNames('tr', { type: 'region' });
/** Names people still use that the runtime's current English names do not give. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  turkey: 'TR',
  usa: 'US',
  'united states of america': 'US',
  uk: 'GB',
  'great britain': 'GB',
  russia: 'RU',
};

export interface PlaceCatalogOptions {
  /** Base of the site URLs of the Location objects (links.ts, placePageUrl). */
  publicBaseUrl: () => string;
}

/** Place objects and Location objects kept per thread; past this many each cache starts again. */
const KEPT_OBJECTS = 20_000;

export class PlaceCatalog {
  readonly builtAt: string;
  readonly tables: CatalogTables;
  private readonly search: PlaceSearch;
  private readonly query: PlaceQuery;
  private readonly nearestIndex: NearestPlace;
  private readonly countryByName = new Map<string, string>();
  private readonly regions = new Set<string>();
  /** Place objects by index, and the index of each place object handed out. */
  private readonly kept = new Map<number, StoredPlace>();
  private readonly indexOf = new WeakMap<StoredPlace, number>();
  private allPlaces: StoredPlace[] | undefined;
  private readonly locations = new Map<number, Record<string, unknown>>();
  private locationsBase = '';

  /** Attaches a shared catalog (built by buildSharedCatalog, in this thread or another). */
  constructor(
    shared: SharedCatalog,
    private readonly options: PlaceCatalogOptions,
  ) {
    this.tables = new CatalogTables(shared);
    this.builtAt = shared.builtAt;
    this.search = new PlaceSearch(this.tables);
    this.nearestIndex = new NearestPlace(this.tables.unit, this.tables.spatialOrder);
    for (const region of this.tables.regions) this.regions.add(foldName(region));
    for (const country of this.tables.countries) {
      for (const name of [country, englishNames.of(country), turkishNames.of(country)]) {
        if (name) this.countryByName.set(foldName(name), country);
      }
    }
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) this.countryByName.set(alias, code);
    this.query = new PlaceQuery(this.search, this.countryByName, this.regions);
  }

  /** A catalog of this thread alone, from the catalog file's contents. */
  static of(catalog: Pick<CatalogFile, 'builtAt' | 'places' | 'search' | 'spatialOrder'>, options: PlaceCatalogOptions): PlaceCatalog {
    return new PlaceCatalog(buildSharedCatalog(catalog), options);
  }

  /** The shared form of the catalog under a data directory (undefined: there is none), to attach in each thread. */
  static share(dataDir: string): SharedCatalog | undefined {
    const catalog = readCatalog(dataDir);
    return catalog && buildSharedCatalog(catalog);
  }

  static load(dataDir: string, options: PlaceCatalogOptions): PlaceCatalog | undefined {
    const shared = PlaceCatalog.share(dataDir);
    return shared && new PlaceCatalog(shared, options);
  }

  get size(): number {
    return this.tables.count;
  }

  /**
   * Every place, in catalog order. Built in full on first use and kept by this thread (the site's index pages and
   * sitemaps walk them all); the API's paths never ask for it.
   */
  get places(): readonly StoredPlace[] {
    if (!this.allPlaces) {
      const all = new Array<StoredPlace>(this.tables.count);
      for (let i = 0; i < all.length; i++) all[i] = this.place(i);
      this.allPlaces = all;
      this.kept.clear();
    }
    return this.allPlaces;
  }

  /** Place i (the same object each time while it is kept). */
  place(i: number): StoredPlace {
    if (this.allPlaces) return this.allPlaces[i];
    let place = this.kept.get(i);
    if (!place) {
      place = this.tables.place(i);
      if (this.kept.size >= KEPT_OBJECTS) this.kept.clear();
      this.kept.set(i, place);
      this.indexOf.set(place, i);
    }
    return place;
  }

  private indexOfPlace(place: StoredPlace): number {
    return this.indexOf.get(place) ?? this.tables.indexOfPath(place.path);
  }

  /**
   * `name`, `name, country`, `name, region` or `name, region, country`: the qualifiers after the first comma
   * narrow the search; one that is neither a country nor a region matches nothing.
   */
  private parse(text: string): { folded: string; filter?: SearchFilter } | undefined {
    const [name, ...qualifiers] = text.split(',');
    const filter: SearchFilter = {};
    for (const q of qualifiers) {
      const folded = foldName(q);
      if (folded === '') continue;
      const country = this.countryByName.get(folded);
      if (country && !filter.country) filter.country = country;
      else if (this.regions.has(folded) && !filter.region) filter.region = folded;
      else return undefined;
    }
    return { folded: foldName(name), filter: filter.country || filter.region ? filter : undefined };
  }

  find(text: string, limit: number): StoredPlace[] {
    const parsed = this.parse(text);
    if (!parsed) return [];
    return this.search.search(parsed.folded, limit, parsed.filter).map((i) => this.place(i));
  }

  /**
   * What a person typed (/cities, the site's search): find's matches, then a place with its region or country written
   * without a comma, and names an edit or two away, in the order asked for (placeQuery.ts).
   */
  searchPlaces(text: string, limit: number, order: SearchOrder): Array<FoundPlace & { place: StoredPlace }> {
    const parsed = this.parse(text);
    if (!parsed) return [];
    return this.query.find(parsed.folded, parsed.filter, limit, order).map((found) => ({ ...found, place: this.place(found.index) }));
  }

  /**
   * The `city` parameter: a site path (with `/`), matched exactly (or a path the place had before, so that clients
   * keep working: catalogFile.ts, FormerPaths), else the best match by name; none: undefined.
   */
  resolve(text: string): StoredPlace | undefined {
    if (text.includes('/')) {
      const path = text.toLowerCase().replace(/^\/+|\/+$/g, '');
      return this.byPath(path) ?? this.byFormerPath(path);
    }
    return this.find(text, 1)[0];
  }

  /** The place at a site path (`turkey/istanbul/kadikoy`), exactly as written; none: undefined. */
  byPath(placePath: string): StoredPlace | undefined {
    const i = this.tables.indexOfPath(placePath);
    return i === -1 ? undefined : this.place(i);
  }

  /** The place that was at a site path before the slug rule changed (the site answers it with a 301); none: undefined. */
  byFormerPath(placePath: string): StoredPlace | undefined {
    const i = this.tables.indexOfFormerPath(placePath);
    return i === -1 ? undefined : this.place(i);
  }

  /** The `count` places nearest to a place, nearest first, the place itself left out. */
  nearby(place: StoredPlace, count: number): StoredPlace[] {
    const self = this.indexOfPlace(place);
    return this.nearestIndex.nearestK(place.latitude, place.longitude, count, self).map((i) => this.place(i));
  }

  /** Index of the place nearest to a point (-1 in an empty catalog). */
  nearestIndexOf(latitude: number, longitude: number): number {
    return this.nearestIndex.nearest(latitude, longitude);
  }

  nearest(latitude: number, longitude: number): StoredPlace {
    return this.place(this.nearestIndex.nearest(latitude, longitude));
  }

  /** The base of the site URLs in the Location objects now. */
  publicBaseUrlInUse(): string {
    return this.options.publicBaseUrl();
  }

  /** The response's Location object; built once per place while kept (and again if the public base URL changes). */
  location(place: StoredPlace): Record<string, unknown> {
    const base = this.options.publicBaseUrl();
    if (base !== this.locationsBase) {
      this.locations.clear();
      this.locationsBase = base;
    }
    const i = this.indexOfPlace(place);
    let location = this.locations.get(i);
    if (!location) {
      location = {
        id: place.id,
        name: place.name,
        type: place.type,
        country: place.country,
        countryName: englishNames.of(place.country) ?? place.country,
        region: place.region,
        latitude: place.latitude,
        longitude: place.longitude,
        timeZone: place.timeZone,
        ...(place.population !== undefined ? { population: place.population } : {}),
        path: place.path,
        urls: { tr: placePageUrl(base, 'tr', place.path), en: placePageUrl(base, 'en', place.path) },
      };
      if (this.locations.size >= KEPT_OBJECTS) this.locations.clear();
      this.locations.set(i, location);
    }
    return location;
  }
}
