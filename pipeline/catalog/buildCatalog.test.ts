import { copyFileSync, cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { canonicalZoneName } from '../zones/localTime.js';
import { slugify } from './textFold.js';
import { buildCatalog, type CatalogBuild, type CatalogInputs } from './buildCatalog.js';
import { runCatalogBuild } from './catalogBuild.js';
import { catalogPath, readCatalog } from './catalogFile.js';
import {
  CatalogInputError,
  defaultSources,
  readAdmin1Names,
  readAdmin2Names,
  readDistrictCoordinates,
  readGeoNamesCities,
  readTurkishNeighbourhoods,
  readTurkishProvinces,
  type CatalogSources,
} from './sources.js';

let inputs: CatalogInputs;
let build: CatalogBuild;

beforeAll(() => {
  const s = defaultSources();
  inputs = {
    cities: readGeoNamesCities(s.cities500),
    admin1Names: readAdmin1Names(s.admin1),
    admin2Names: readAdmin2Names(s.admin2),
    provinces: readTurkishProvinces(s.turkishProvinces, s.turkishDistricts),
    neighbourhoods: readTurkishNeighbourhoods(s.turkishNeighbourhoods),
    districtCoordinates: readDistrictCoordinates(s.turkishDistrictCoordinates),
  };
  build = buildCatalog(inputs);
}, 60_000);

describe('the catalog', () => {
  it('gives the same ids and paths when rebuilt from the same inputs', () => {
    const again = buildCatalog(inputs);
    expect(again.places.map((p) => [p.id, p.path])).toEqual(build.places.map((p) => [p.id, p.path]));
    // …and the catalog the test run built in another process, at another time, agrees too.
    const stored = readCatalog(inject('catalogDataDir'))!;
    expect(stored.places.map((p) => [p.id, p.path])).toEqual(build.places.map((p) => [p.id, p.path]));
  });

  it('holds all 973 Turkish districts of the 81 provinces under their official names', () => {
    expect(inputs.provinces).toHaveLength(81);
    const districts = build.places.filter((p) => p.type === 'district');
    expect(districts).toHaveLength(973);
    for (const province of inputs.provinces) {
      for (const name of province.districts) {
        const place = districts.find((d) => d.region === province.name && d.name === name);
        expect(place, `${province.name}/${name}`).toBeDefined();
        expect(place!.path).toBe(`turkey/${slugify(province.name)}/${slugify(name)}`);
        expect(place!.country).toBe('TR');
        expect(place!.timeZone).toBe('Europe/Istanbul');
        expect(place!.latitude).toBeGreaterThan(35.5);
        expect(place!.latitude).toBeLessThan(42.5);
        expect(place!.longitude).toBeGreaterThan(25.5);
        expect(place!.longitude).toBeLessThan(45);
      }
    }
  });

  it('keeps every GeoNames place with 1,000 people or an administrative seat, and no other', () => {
    const kept = new Set(build.places.filter((p) => p.type === 'city').map((p) => Number(p.id.slice(1))));
    const absorbed = new Set(build.districts.flatMap((d) => d.absorbed));
    const wrong: string[] = [];
    for (const c of inputs.cities) {
      const wanted = c.population >= 1000 || /^PPL(A\d?|C|G)$/.test(c.featureCode);
      // A wanted place is in the catalog, or it became the Turkish district whose town it is.
      const present = kept.has(c.geonameId) || absorbed.has(c.geonameId);
      if (wanted !== present) wrong.push(`${c.geonameId} ${c.name}: wanted ${wanted}, present ${present}`);
      if (kept.has(c.geonameId) && absorbed.has(c.geonameId)) wrong.push(`${c.geonameId} ${c.name} is twice`);
    }
    expect(wrong).toEqual([]);
    expect(kept.size).toBeGreaterThan(150_000);
  });

  it('gives every place the Location fields, a unique id and a unique lowercase ASCII path', () => {
    const ids = new Set<string>();
    const paths = new Set<string>();
    const wrong: string[] = [];
    for (const p of build.places) {
      const problems = [
        !/^[a-z0-9-]+\/[a-z0-9-]+\/[a-z0-9-]+$/.test(p.path) && 'path',
        ids.has(p.id) && 'duplicate id',
        paths.has(p.path) && 'duplicate path',
        !p.name && 'name',
        !/^[A-Z]{2}$/.test(p.country) && 'country',
        !(Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180) && 'coordinates',
        !(p.population === undefined || p.population > 0) && 'population',
        p.names.length === 0 && 'names',
      ].filter(Boolean);
      if (problems.length) wrong.push(`${p.id} ${p.path}: ${problems.join(', ')}`);
      ids.add(p.id);
      paths.add(p.path);
    }
    expect(wrong).toEqual([]);
    expect(ids.size).toBe(build.places.length);
    // Zones are checked once per distinct zone: each must be one the runtime knows.
    for (const zone of new Set(build.places.map((p) => p.timeZone))) expect(canonicalZoneName(zone), zone).toBeDefined();
  });

  it('snaps Polatlı to its GeoNames seat and says which districts were not snapped', () => {
    const polatli = build.districts.find((d) => d.district === 'Polatlı')!;
    expect(polatli.geonameId).toBe(302525);
    expect(polatli.distanceKm).toBeLessThanOrEqual(20);
    const unsnapped = build.districts.filter((d) => d.geonameId === undefined);
    expect(unsnapped.map((d) => d.district)).toContain('Keçiören');
    expect(build.districts).toHaveLength(973);
  });
});

describe('a missing or malformed input', () => {
  function brokenSources(dir: string, breakIt: (s: CatalogSources) => void): CatalogSources {
    const original = defaultSources();
    const s: CatalogSources = {
      cities500: path.join(dir, 'cities500.txt'),
      admin1: path.join(dir, 'admin1.json'),
      admin2: path.join(dir, 'admin2.json'),
      turkishProvinces: path.join(dir, 'cityList.json'),
      turkishDistricts: path.join(dir, 'districtsByCityCode.json'),
      turkishNeighbourhoods: path.join(dir, 'neighbourhoods.json'),
      turkishDistrictCoordinates: path.join(dir, 'Turkey-TR'),
    };
    copyFileSync(original.cities500, s.cities500);
    copyFileSync(original.admin1, s.admin1);
    copyFileSync(original.admin2, s.admin2);
    copyFileSync(original.turkishNeighbourhoods, s.turkishNeighbourhoods);
    copyFileSync(original.turkishProvinces, s.turkishProvinces);
    copyFileSync(original.turkishDistricts, s.turkishDistricts);
    cpSync(original.turkishDistrictCoordinates, s.turkishDistrictCoordinates, { recursive: true });
    breakIt(s);
    return s;
  }

  const cases: Array<[string, (s: CatalogSources) => void, RegExp]> = [
    ['cities500 missing', (s) => (s.cities500 = '/nonexistent/cities500.txt'), /cannot read GeoNames cities500 at \/nonexistent/],
    ['a cities500 row cut short', (s) => writeFileSync(s.cities500, readFileSync(s.cities500, 'utf8').replace(/\t[^\t]*\n/, '\n')), /line 1: 18 columns/],
    ['a cities500 row with a bad latitude', (s) => writeFileSync(s.cities500, readFileSync(s.cities500, 'utf8').replace(/^([^\t]*\t[^\t]*\t[^\t]*\t[^\t]*\t)[^\t]*/, '$1north')), /coordinates "north/],
    ['admin1 not JSON', (s) => writeFileSync(s.admin1, '{"code": '), /admin1 at .* is not valid JSON/],
    ['admin2 not an array', (s) => writeFileSync(s.admin2, '{}'), /admin2 at .* is not an array/],
    ['neighbourhoods of a district not a list', (s) => writeFileSync(s.turkishNeighbourhoods, '{"34": {"Kadıköy": "Moda"}}'), /no list of names for 34\/Kadıköy/],
    ['a province without districts', (s) => writeFileSync(s.turkishDistricts, '{"01": ["Seyhan"]}'), /no list of names for province 02/],
    ['no district coordinates', (s) => (s.turkishDistrictCoordinates = '/nonexistent'), /Turkey folder not found/],
  ];

  it.each(cases)('%s: fails clearly and leaves the previous catalog in place', (_what, breakIt, message) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'catalog-keep-'));
    const previous = catalogPath(dataDir);
    cpSync(catalogPath(inject('catalogDataDir')), previous);
    const before = { bytes: readFileSync(previous), mtime: statSync(previous).mtimeMs };
    const sources = brokenSources(mkdtempSync(path.join(tmpdir(), 'catalog-src-')), breakIt);
    expect(() => runCatalogBuild(dataDir, sources)).toThrow(CatalogInputError);
    expect(() => runCatalogBuild(dataDir, sources)).toThrow(message);
    expect(statSync(previous).mtimeMs).toBe(before.mtime);
    expect(readFileSync(previous).equals(before.bytes)).toBe(true);
  });
});
