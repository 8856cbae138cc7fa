// What a precompute needs of its places, as columns: a run of every catalog place keeps a few MB of them in the main
// thread instead of the catalog (about 115 MB of heap while decoded, and the file's 47 MB, which msgpackr holds).
/** What a place's jobs need: the key, the point, the local calendar, the country's defaults and the method's zone. */
export interface JobPlace {
  id: string;
  country: string;
  region: string;
  latitude: number;
  longitude: number;
  timeZone: string;
}

/** Places as columns; countries, regions and time zones as indexes into `names`, each name once. */
export interface PlaceColumns {
  ids: string[];
  latitudes: Float64Array;
  longitudes: Float64Array;
  countries: Uint32Array;
  regions: Uint32Array;
  timeZones: Uint32Array;
  names: string[];
}

export function placeColumns(places: readonly JobPlace[]): PlaceColumns {
  const names: string[] = [];
  const indexes = new Map<string, number>();
  const nameIndex = (name: string): number => {
    let index = indexes.get(name);
    if (index === undefined) indexes.set(name, (index = names.push(name) - 1));
    return index;
  };
  const n = places.length;
  const columns: PlaceColumns = {
    ids: new Array<string>(n),
    latitudes: new Float64Array(n),
    longitudes: new Float64Array(n),
    countries: new Uint32Array(n),
    regions: new Uint32Array(n),
    timeZones: new Uint32Array(n),
    names,
  };
  places.forEach((p, i) => {
    columns.ids[i] = p.id;
    columns.latitudes[i] = p.latitude;
    columns.longitudes[i] = p.longitude;
    columns.countries[i] = nameIndex(p.country);
    columns.regions[i] = nameIndex(p.region);
    columns.timeZones[i] = nameIndex(p.timeZone);
  });
  return columns;
}

export function placeAt(columns: PlaceColumns, i: number): JobPlace {
  const { names } = columns;
  return {
    id: columns.ids[i],
    country: names[columns.countries[i]],
    region: names[columns.regions[i]],
    latitude: columns.latitudes[i],
    longitude: columns.longitudes[i],
    timeZone: names[columns.timeZones[i]],
  };
}

/** The typed arrays, to move them to another thread rather than copy them. */
export const columnBuffers = (c: PlaceColumns): ArrayBuffer[] =>
  [c.latitudes, c.longitudes, c.countries, c.regions, c.timeZones].map((a) => a.buffer as ArrayBuffer);
