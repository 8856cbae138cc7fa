// The catalog of places as the server uses it: resolving `city`, searching for /cities, the nearest place to a
// point, and the Location objects of the responses. Loaded once at start-up.
import { readCatalog, type CatalogFile, type StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { foldName } from '../../pipeline/textFold.js';
import { placePageUrl } from '../links.js';
import { NearestPlace } from './nearestPlace.js';
import { PlaceSearch, type SearchFilter } from './placeSearch.js';

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

export class PlaceCatalog {
  readonly builtAt: string;
  readonly places: readonly StoredPlace[];
  private readonly search: PlaceSearch;
  private readonly nearestIndex: NearestPlace;
  private readonly indexByPath = new Map<string, number>();
  private readonly countryByName = new Map<string, string>();
  private readonly regions = new Set<string>();
  private readonly locations: Array<Record<string, unknown> | undefined>;
  private locationsBase = '';

  constructor(
    catalog: Pick<CatalogFile, 'builtAt' | 'places' | 'search' | 'spatialOrder'>,
    private readonly options: PlaceCatalogOptions,
  ) {
    this.builtAt = catalog.builtAt;
    this.places = catalog.places;
    this.search = new PlaceSearch(this.places, catalog.search);
    this.nearestIndex = new NearestPlace(this.places, catalog.spatialOrder);
    this.locations = new Array(this.places.length);
    const countries = new Set<string>();
    const regions = new Set<string>();
    this.places.forEach((p, i) => {
      this.indexByPath.set(p.path, i);
      countries.add(p.country);
      regions.add(p.region);
    });
    for (const region of regions) this.regions.add(foldName(region));
    for (const country of countries) {
      for (const name of [country, englishNames.of(country), turkishNames.of(country)]) {
        if (name) this.countryByName.set(foldName(name), country);
      }
    }
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) this.countryByName.set(alias, code);
  }

  static load(dataDir: string, options: PlaceCatalogOptions): PlaceCatalog | undefined {
    const catalog = readCatalog(dataDir);
    return catalog && new PlaceCatalog(catalog, options);
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
    return this.search.search(parsed.folded, limit, parsed.filter).map((i) => this.places[i]);
  }

  /** The `city` parameter: a site path (with `/`), matched exactly, else the best match by name; none: undefined. */
  resolve(text: string): StoredPlace | undefined {
    if (text.includes('/')) {
      const i = this.indexByPath.get(text.toLowerCase().replace(/^\/+|\/+$/g, ''));
      return i === undefined ? undefined : this.places[i];
    }
    return this.find(text, 1)[0];
  }

  /** The place at a site path (`turkey/istanbul/kadikoy`), exactly as written; none: undefined. */
  byPath(placePath: string): StoredPlace | undefined {
    const i = this.indexByPath.get(placePath);
    return i === undefined ? undefined : this.places[i];
  }

  /** The `count` places nearest to a place, nearest first, the place itself left out. */
  nearby(place: StoredPlace, count: number): StoredPlace[] {
    const self = this.indexByPath.get(place.path) ?? -1;
    return this.nearestIndex.nearestK(place.latitude, place.longitude, count, self).map((i) => this.places[i]);
  }

  nearest(latitude: number, longitude: number): StoredPlace {
    return this.places[this.nearestIndex.nearest(latitude, longitude)];
  }

  /** The base of the site URLs in the Location objects now. */
  publicBaseUrlInUse(): string {
    return this.options.publicBaseUrl();
  }

  /** The response's Location object; built once per place (and again only if the public base URL changes). */
  location(place: StoredPlace): Record<string, unknown> {
    const base = this.options.publicBaseUrl();
    if (base !== this.locationsBase) {
      this.locations.fill(undefined);
      this.locationsBase = base;
    }
    const i = this.indexByPath.get(place.path)!;
    let location = this.locations[i];
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
      this.locations[i] = location;
    }
    return location;
  }
}
