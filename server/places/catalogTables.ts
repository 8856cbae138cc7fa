// The catalog's bulk in typed arrays over one SharedArrayBuffer: built once per process (the primary thread has it
// built, server/process/catalogLoader.ts) and attached by every serving thread without copying. Numbers are arrays
// by place; the strings of a place (id, name, path) are UTF-8 in one buffer with offsets, decoded when a request
// needs them; the few distinct types, countries, regions and zones are small tables, indexed by place. The search
// keys are stored as UTF-16 code units, so that comparing them orders exactly as JavaScript orders strings.
import type { CatalogFile, StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import type { FlatLists } from '../../pipeline/catalog/searchIndex.js';
import type { TypoIndex } from '../../pipeline/catalog/typoIndex.js';
import { unitVectors } from '../../pipeline/catalog/spatialIndex.js';

type ArrayKind = 'f64' | 'i32' | 'u16' | 'u8';
const CONSTRUCTORS = { f64: Float64Array, i32: Int32Array, u16: Uint16Array, u8: Uint8Array } as const;

/** Where each array lies in the shared buffer: [kind, byte offset, length in elements]. */
type Layout = Record<string, [ArrayKind, number, number]>;

/** What a thread needs to attach the catalog: one shared buffer and a small plain description (cloned per thread). */
export interface SharedCatalog {
  builtAt: string;
  count: number;
  buffer: SharedArrayBuffer;
  layout: Layout;
  /** The distinct values of the fields stored as indexes. */
  types: string[];
  countries: string[];
  regions: string[];
  qualifiers: string[];
  zones: string[];
  /** Former paths (catalogFile.ts, FormerPaths), sorted, and the place now at each: small, cloned per thread. */
  formerPaths: string[];
  formerPathPlaces: Int32Array;
}

/** Open addressing over paths: slots of place indexes (-1 empty), a power of two at least twice the places. */
function pathSlots(count: number): number {
  let size = 1024;
  while (size < count * 2) size *= 2;
  return size;
}

/** FNV-1a over UTF-16 code units. */
export function pathHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function codeUnits(strings: readonly string[]): { chars: Uint16Array; offsets: Int32Array } {
  let total = 0;
  for (const s of strings) total += s.length;
  const chars = new Uint16Array(total);
  const offsets = new Int32Array(strings.length + 1);
  let at = 0;
  strings.forEach((s, k) => {
    offsets[k] = at;
    for (let i = 0; i < s.length; i++) chars[at++] = s.charCodeAt(i);
  });
  offsets[strings.length] = at;
  return { chars, offsets };
}

/** Builds the shared form of a catalog as read from its file. */
export function buildSharedCatalog(
  catalog: Pick<CatalogFile, 'builtAt' | 'places' | 'search' | 'spatialOrder'> & Partial<Pick<CatalogFile, 'formerPaths'>>,
): SharedCatalog {
  const places = catalog.places;
  const n = places.length;
  const dictionary = () => {
    const values: string[] = [];
    const index = new Map<string, number>();
    return {
      values,
      of(value: string): number {
        let i = index.get(value);
        if (i === undefined) {
          index.set(value, (i = values.length));
          values.push(value);
          if (i > 0xffff) throw new Error('too many distinct values for the catalog tables');
        }
        return i;
      },
    };
  };
  const types = dictionary();
  const countries = dictionary();
  const regions = dictionary();
  const qualifiers = dictionary();
  const zones = dictionary();

  const arrays: Record<string, Float64Array | Int32Array | Uint16Array | Uint8Array> = {};
  const latitude = (arrays.latitude = new Float64Array(n));
  const longitude = (arrays.longitude = new Float64Array(n));
  const population = (arrays.population = new Float64Array(n));
  const rankWeight = (arrays.rankWeight = new Float64Array(n));
  const ownNameCount = (arrays.ownNameCount = new Int32Array(n));
  const type = (arrays.type = new Uint16Array(n));
  const country = (arrays.country = new Uint16Array(n));
  const region = (arrays.region = new Uint16Array(n));
  const qualifier = (arrays.qualifier = new Uint16Array(n));
  const zone = (arrays.zone = new Uint16Array(n));
  // id, name and path of place i: text[textOffsets[3i + k] .. textOffsets[3i + k + 1]).
  const encoded = places.map((p) => [Buffer.from(p.id), Buffer.from(p.name), Buffer.from(p.path)]);
  const textOffsets = (arrays.textOffsets = new Int32Array(3 * n + 1));
  let textBytes = 0;
  encoded.forEach((parts, i) => parts.forEach((b, k) => ((textOffsets[3 * i + k] = textBytes), (textBytes += b.length))));
  textOffsets[3 * n] = textBytes;
  const text = (arrays.text = new Uint8Array(textBytes));
  encoded.forEach((parts, i) => parts.forEach((b, k) => text.set(b, textOffsets[3 * i + k])));
  places.forEach((p, i) => {
    latitude[i] = p.latitude;
    longitude[i] = p.longitude;
    population[i] = p.population ?? NaN;
    rankWeight[i] = p.rankWeight;
    ownNameCount[i] = p.ownNameCount;
    type[i] = types.of(p.type);
    country[i] = countries.of(p.country);
    region[i] = regions.of(p.region);
    qualifier[i] = qualifiers.of(p.qualifier ?? '');
    zone[i] = zones.of(p.timeZone);
  });
  arrays.unit = unitVectors(places);
  arrays.spatialOrder = catalog.spatialOrder;
  const slots = (arrays.pathSlots = new Int32Array(pathSlots(n)).fill(-1));
  const mask = slots.length - 1;
  places.forEach((p, i) => {
    let s = pathHash(p.path) & mask;
    while (slots[s] !== -1) s = (s + 1) & mask;
    slots[s] = i;
  });
  const keys = codeUnits(catalog.search.keys);
  arrays.keyChars = keys.chars;
  arrays.keyOffsets = keys.offsets;
  arrays.postingOffsets = catalog.search.postings.offsets;
  arrays.postingValues = catalog.search.postings.values;
  const prefixes = codeUnits(catalog.search.prefixes);
  arrays.prefixChars = prefixes.chars;
  arrays.prefixOffsets = prefixes.offsets;
  arrays.prefixBestOffsets = catalog.search.prefixBest.offsets;
  arrays.prefixBestValues = catalog.search.prefixBest.values;
  arrays.typoBuckets = catalog.search.typo.buckets;
  arrays.typoEntries = catalog.search.typo.entries;
  arrays.typoPresent = catalog.search.typo.present;

  const layout: Layout = {};
  let bytes = 0;
  for (const [name, array] of Object.entries(arrays)) {
    const kind = (array instanceof Float64Array ? 'f64' : array instanceof Int32Array ? 'i32' : array instanceof Uint16Array ? 'u16' : 'u8') as ArrayKind;
    layout[name] = [kind, bytes, array.length];
    bytes += Math.ceil(array.byteLength / 8) * 8;
  }
  const buffer = new SharedArrayBuffer(bytes);
  for (const [name, array] of Object.entries(arrays)) {
    const [kind, offset, length] = layout[name];
    new CONSTRUCTORS[kind](buffer as unknown as ArrayBuffer, offset, length).set(array as never);
  }
  return {
    builtAt: catalog.builtAt,
    count: n,
    buffer,
    layout,
    types: types.values,
    countries: countries.values,
    regions: regions.values,
    qualifiers: qualifiers.values,
    zones: zones.values,
    formerPaths: catalog.formerPaths?.paths ?? [],
    formerPathPlaces: catalog.formerPaths?.places ?? new Int32Array(0),
  };
}

/** Sorted strings stored as UTF-16 code units, compared as JavaScript compares strings. */
export class SortedStrings {
  constructor(
    /** String k is chars[offsets[k] .. offsets[k + 1]). */
    readonly chars: Uint16Array,
    readonly offsets: Int32Array,
  ) {}

  get length(): number {
    return this.offsets.length - 1;
  }

  /** Negative, zero or positive as string k sorts before, equal to or after `text`. */
  compare(k: number, text: string): number {
    const start = this.offsets[k];
    const length = this.offsets[k + 1] - start;
    const common = Math.min(length, text.length);
    for (let i = 0; i < common; i++) {
      const d = this.chars[start + i] - text.charCodeAt(i);
      if (d !== 0) return d;
    }
    return length - text.length;
  }

  startsWith(k: number, text: string): boolean {
    const start = this.offsets[k];
    if (this.offsets[k + 1] - start < text.length) return false;
    for (let i = 0; i < text.length; i++) if (this.chars[start + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /** The first k whose string is not below `text`. */
  lowerBound(text: string): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid, text) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  at(k: number): string {
    return String.fromCharCode(...this.chars.subarray(this.offsets[k], this.offsets[k + 1]));
  }
}

/** A thread's view of a SharedCatalog: typed arrays over the shared buffer, nothing copied. */
export class CatalogTables {
  readonly count: number;
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  /** NaN where a place has no population. */
  readonly population: Float64Array;
  readonly rankWeight: Float64Array;
  readonly ownNameCount: Int32Array;
  readonly type: Uint16Array;
  readonly country: Uint16Array;
  readonly region: Uint16Array;
  readonly qualifier: Uint16Array;
  readonly zone: Uint16Array;
  /** Unit vectors on the sphere, three per place (spatialIndex.ts). */
  readonly unit: Float64Array;
  readonly spatialOrder: Int32Array;
  readonly keys: SortedStrings;
  readonly postings: FlatLists;
  readonly prefixes: SortedStrings;
  readonly prefixBest: FlatLists;
  readonly typo: TypoIndex;
  readonly types: readonly string[];
  readonly countries: readonly string[];
  readonly regions: readonly string[];
  readonly qualifiers: readonly string[];
  readonly zones: readonly string[];
  private readonly formerPaths: ReadonlyMap<string, number>;
  private readonly text: Buffer;
  private readonly textOffsets: Int32Array;
  private readonly pathSlots: Int32Array;

  constructor(readonly shared: SharedCatalog) {
    const view = <T>(name: string): T => {
      const [kind, offset, length] = shared.layout[name];
      return new CONSTRUCTORS[kind](shared.buffer as unknown as ArrayBuffer, offset, length) as T;
    };
    this.count = shared.count;
    this.latitude = view('latitude');
    this.longitude = view('longitude');
    this.population = view('population');
    this.rankWeight = view('rankWeight');
    this.ownNameCount = view('ownNameCount');
    this.type = view('type');
    this.country = view('country');
    this.region = view('region');
    this.qualifier = view('qualifier');
    this.zone = view('zone');
    this.unit = view('unit');
    this.spatialOrder = view('spatialOrder');
    this.keys = new SortedStrings(view('keyChars'), view('keyOffsets'));
    this.postings = { offsets: view('postingOffsets'), values: view('postingValues') };
    this.prefixes = new SortedStrings(view('prefixChars'), view('prefixOffsets'));
    this.prefixBest = { offsets: view('prefixBestOffsets'), values: view('prefixBestValues') };
    this.typo = { buckets: view('typoBuckets'), entries: view('typoEntries'), present: view('typoPresent') };
    const [, textOffset, textLength] = shared.layout.text;
    this.text = Buffer.from(shared.buffer as unknown as ArrayBuffer, textOffset, textLength);
    this.textOffsets = view('textOffsets');
    this.pathSlots = view('pathSlots');
    this.types = shared.types;
    this.countries = shared.countries;
    this.regions = shared.regions;
    this.qualifiers = shared.qualifiers;
    this.zones = shared.zones;
    this.formerPaths = new Map(shared.formerPaths.map((p, k) => [p, shared.formerPathPlaces[k]]));
  }

  private string(i: number, k: number): string {
    return this.text.toString('utf8', this.textOffsets[3 * i + k], this.textOffsets[3 * i + k + 1]);
  }

  id(i: number): string {
    return this.string(i, 0);
  }

  name(i: number): string {
    return this.string(i, 1);
  }

  path(i: number): string {
    return this.string(i, 2);
  }

  /** The place at exactly this path, or -1. */
  indexOfPath(path: string): number {
    const mask = this.pathSlots.length - 1;
    for (let s = pathHash(path) & mask; ; s = (s + 1) & mask) {
      const i = this.pathSlots[s];
      if (i === -1) return -1;
      if (this.path(i) === path) return i;
    }
  }

  /** The place whose former path this is (catalogFile.ts, FormerPaths), or -1. */
  indexOfFormerPath(path: string): number {
    return this.formerPaths.get(path) ?? -1;
  }

  /** Place i as the catalog file gives it (the same fields in the same order). */
  place(i: number): StoredPlace {
    const population = this.population[i];
    return {
      id: this.id(i),
      name: this.name(i),
      type: this.types[this.type[i]] as StoredPlace['type'],
      country: this.countries[this.country[i]],
      region: this.regions[this.region[i]],
      qualifier: this.qualifiers[this.qualifier[i]],
      latitude: this.latitude[i],
      longitude: this.longitude[i],
      timeZone: this.zones[this.zone[i]],
      population: Number.isNaN(population) ? undefined : population,
      rankWeight: this.rankWeight[i],
      path: this.path(i),
      ownNameCount: this.ownNameCount[i],
    };
  }
}
