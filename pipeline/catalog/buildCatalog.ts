// Assembles the catalog of places from the source readers: GeoNames cities with at least 1,000 people or an
// administrative seat, plus all Turkish districts under their official names, each with a stable id and a
// unique site path. Pure but for the zone at a point (geo-tz's boundary data, a pinned package): the same inputs give
// the same catalog.
import { foldName, slugify } from './textFold.js';
import { qualifiers } from './namesakes.js';
import { countrySlug, formerPaths, formerPlaceSlug, placeSlug, regionSlug, uniquePaths, type PathClaim } from './placePaths.js';
import { TurkishSpellings } from './turkishNames.js';
import { placeZoneAt } from '../zones/zoneAtPoint.js';
import { canonicalZoneName } from '../zones/zoneRules.js';
import type { DistrictCoordinates, GeoNamesCity, TurkishProvince } from './sources.js';

export { countrySlug } from './placePaths.js';

export type PlaceType = 'city' | 'district';

/**
 * A GeoNames place's zone: the zone at its point when that is one of its country's zones (GeoNames lags behind new
 * zones and laws: Aysén's America/Coyhaique, Mexico's border strip), else GeoNames' own, as the tz database spells it
 * now (`Asia/Calcutta` → `Asia/Kolkata`). The API's zone for the same coordinates is then the same.
 */
function placeZone(city: GeoNamesCity): string {
  const zone = canonicalZoneName(city.timeZone);
  if (!zone) throw new Error(`GeoNames place ${city.geonameId} (${city.name}) has the time zone ${city.timeZone}, which the tz database does not know`);
  return placeZoneAt(city.latitude, city.longitude, city.country, zone);
}

export interface CatalogPlace {
  id: string;
  /** Native spelling: GeoNames' name, or the official Turkish district name. */
  name: string;
  type: PlaceType;
  country: string;
  /** The province, state or other first-level region; '' where the sources name none (most of Vietnam and Norway). */
  region: string;
  /** Tells the place from a same-named one in its region (namesakes.ts): a district or coordinates; '' for most. */
  qualifier: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** Only when a source gives it. */
  population?: number;
  /** Orders matches of equal quality: the population, or an estimate for a district without one (never shown). */
  rankWeight: number;
  path: string;
  /** Folded names to match, deduplicated: the place's own names first… */
  names: string[];
  /** …of which this many are its own (name, ASCII name, official name); the rest are alternate names. */
  ownNameCount: number;
}

export interface DistrictSnap {
  province: string;
  district: string;
  /** The GeoNames place whose coordinates (and population, if same-named) the district took, if any. */
  geonameId?: number;
  /** Every GeoNames place merged into the district (its town under one or more entries). */
  absorbed: number[];
  distanceKm?: number;
  /** Where the coordinates came from. */
  located: 'geonames' | 'countrystatecity' | 'province seat';
}

export interface CatalogBuild {
  places: CatalogPlace[];
  /** The paths places had under the slug rule before (placePaths.ts) → the index of the place, now at another path. */
  formerPaths: Map<string, number>;
  districts: DistrictSnap[];
  /** The rank weight given to districts without a population: the median of those with one. */
  districtRankWeight: number;
}

export interface CatalogInputs {
  cities: GeoNamesCity[];
  admin1Names: ReadonlyMap<string, string>;
  admin2Names: ReadonlyMap<string, string>;
  provinces: TurkishProvince[];
  /** Plate code → the province's neighbourhood and village names (their Turkish spelling). */
  neighbourhoods: ReadonlyMap<string, readonly string[]>;
  districtCoordinates: ReadonlyMap<string, DistrictCoordinates[]>;
}

const SEAT_CODES = /^PPL(A\d?|C|G)$/;
const PROVINCE_SEAT_CODES = /^PPL(A|C|G)$/;
const MIN_POPULATION = 1000;
const SNAP_KM = 20;
const TURKEY = 'TR';
const TURKEY_ZONE = 'Europe/Istanbul';
const CENTRAL_DISTRICT = 'merkez';

/** GeoNames calls some Turkish provinces "X Province"; the official name is X. */
const regionName = (admin1Name: string | undefined): string => (admin1Name ?? '').replace(/ Province$/, '');

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

function namesOf(own: ReadonlyArray<string>, alternates: ReadonlyArray<string>): Pick<CatalogPlace, 'names' | 'ownNameCount'> {
  const names = new Set<string>();
  for (const name of own) if (foldName(name)) names.add(foldName(name));
  const ownNameCount = names.size;
  for (const name of alternates) if (foldName(name)) names.add(foldName(name));
  return { names: [...names], ownNameCount };
}

const median = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

export function buildCatalog(inputs: CatalogInputs): CatalogBuild {
  const selected = inputs.cities.filter((c) => c.population >= MIN_POPULATION || SEAT_CODES.test(c.featureCode));
  const absorbed = new Set<number>(); // GeoNames ids that became a district
  const districtPlaces: CatalogPlace[] = [];
  const snaps: DistrictSnap[] = [];

  // GeoNames' admin1 code of each Turkish province, by name.
  const admin1OfProvince = new Map<string, string>();
  for (const [code, name] of inputs.admin1Names) {
    if (code.startsWith(`${TURKEY}.`)) admin1OfProvince.set(foldName(regionName(name)), code.slice(3));
  }
  const turkishCities = selected.filter((c) => c.country === TURKEY);

  for (const province of inputs.provinces) {
    const admin1 = admin1OfProvince.get(foldName(province.name));
    const inProvince = admin1 === undefined ? [] : turkishCities.filter((c) => c.admin1 === admin1);
    const seat = inProvince.filter((c) => c.featureCode === 'PPLA').sort((a, b) => b.population - a.population)[0];
    const coordinates = inputs.districtCoordinates.get(province.code) ?? [];
    for (const district of province.districts) {
      const folded = foldName(district);
      const central = folded === CENTRAL_DISTRICT;
      const ownName = (c: GeoNamesCity) => foldName(c.name) === folded || foldName(c.asciiName) === folded;
      // The district's town: same name, or (renamed towns, like Üzümlü's Cimin) the name among its alternates.
      const sameName = central ? [] : inProvince.filter(ownName);
      const alsoNamed = central ? [] : inProvince.filter((c) => !ownName(c) && c.alternateNames.some((a) => foldName(a) === folded));
      const listed = coordinates.find((c) => foldName(c.name) === folded);
      const snap: DistrictSnap = { province: province.name, district, located: 'province seat', absorbed: [] };
      let lat = seat?.latitude ?? NaN;
      let lon = seat?.longitude ?? NaN;
      if (listed) {
        [lat, lon, snap.located] = [listed.latitude, listed.longitude, 'countrystatecity'];
      } else if (sameName.length > 0) {
        [lat, lon, snap.located] = [sameName[0].latitude, sameName[0].longitude, 'geonames'];
      }
      // Snap to the town within ~20 km (the central district to the province seat): same name first, then seats,
      // then the larger population.
      const nearby = (central ? (seat ? [seat] : []) : [...sameName, ...alsoNamed])
        .map((c) => ({ c, km: distanceKm(lat, lon, c.latitude, c.longitude) }))
        .filter((x) => Number.isNaN(lat) || x.km <= SNAP_KM)
        .sort(
          (a, b) =>
            Number(ownName(b.c)) - Number(ownName(a.c)) ||
            Number(SEAT_CODES.test(b.c.featureCode)) - Number(SEAT_CODES.test(a.c.featureCode)) ||
            b.c.population - a.c.population,
        );
      const target = nearby[0]?.c;
      let population: number | undefined;
      const alternates: string[] = [];
      if (target) {
        snap.geonameId = target.geonameId;
        snap.distanceKm = Math.round(nearby[0].km * 10) / 10;
        snap.located = 'geonames';
        [lat, lon] = [target.latitude, target.longitude];
        // The district's town is one place, not two (Antakya the district is Antakya the city); but a province
        // seat that only lists the district's name stays a place of its own (Muğla, around which lies Menteşe).
        for (const { c } of nearby) {
          if (central || (PROVINCE_SEAT_CODES.test(c.featureCode) && !ownName(c))) continue;
          absorbed.add(c.geonameId);
          snap.absorbed.push(c.geonameId);
          alternates.push(c.name, c.asciiName, ...c.alternateNames);
          population = Math.max(population ?? 0, c.population) || undefined;
        }
      }
      if (Number.isNaN(lat)) continue; // a province without a seat in GeoNames: nothing to place it at
      snaps.push(snap);
      districtPlaces.push({
        id: `tr-${province.code}-${slugify(district)}`,
        name: district,
        type: 'district',
        country: TURKEY,
        region: province.name,
        qualifier: '',
        latitude: lat,
        longitude: lon,
        timeZone: TURKEY_ZONE,
        population,
        rankWeight: population ?? 0,
        path: `${countrySlug(TURKEY)}/${slugify(province.name)}/${slugify(district)}`,
        ...namesOf(central ? [district, `${province.name} ${district}`] : [district], alternates),
      });
    }
  }

  const districtRankWeight = median(districtPlaces.flatMap((d) => (d.population ? [d.population] : [])));
  for (const d of districtPlaces) if (!d.population) d.rankWeight = districtRankWeight;

  // Turkish provinces keep their official names as regions.
  const provinceByAdmin1 = new Map<string, string>();
  for (const p of inputs.provinces) {
    const admin1 = admin1OfProvince.get(foldName(p.name));
    if (admin1) provinceByAdmin1.set(admin1, p.name);
  }
  const spellings = new TurkishSpellings(inputs.provinces, inputs.neighbourhoods);

  // What each place is besides its catalog fields: the path it had under the former slug rule, its district.
  const extra = new Map<CatalogPlace, { formerPath: string; area: string; geonameId: number }>();
  for (const d of districtPlaces) extra.set(d, { formerPath: d.path, area: '', geonameId: 0 });
  const cityPlaces: CatalogPlace[] = selected
    .filter((c) => !absorbed.has(c.geonameId))
    .map((c) => {
      const turkish = c.country === TURKEY;
      const region = turkish ? provinceByAdmin1.get(c.admin1) ?? '' : regionName(inputs.admin1Names.get(`${c.country}.${c.admin1}`));
      const name = turkish ? spellings.spell(region, c.name) : c.name;
      const area = c.admin2 ? inputs.admin2Names.get(`${c.country}.${c.admin1}.${c.admin2}`) ?? '' : '';
      const fallback = `place-${c.geonameId}`;
      const regionPath = `${countrySlug(c.country)}/${regionSlug(region)}`;
      const place: CatalogPlace = {
        id: `g${c.geonameId}`,
        name,
        type: 'city' as const,
        country: c.country,
        region,
        qualifier: '',
        latitude: c.latitude,
        longitude: c.longitude,
        timeZone: placeZone(c),
        population: c.population > 0 ? c.population : undefined,
        rankWeight: c.population,
        path: `${regionPath}/${placeSlug(name, c.asciiName, fallback)}`,
        ...namesOf([name, c.name, c.asciiName], c.alternateNames),
      };
      extra.set(place, {
        formerPath: `${regionPath}/${formerPlaceSlug(c.name, c.asciiName, fallback)}`,
        area: turkish && area ? spellings.spell(region, area) : area,
        geonameId: c.geonameId,
      });
      return place;
    });

  const places = [...districtPlaces, ...cityPlaces].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const claims = places.map((p) => ({ district: p.type === 'district', rankWeight: p.rankWeight, geonameId: extra.get(p)!.geonameId }));
  const former = uniquePaths(places.map((p, i): PathClaim => ({ ...claims[i], wanted: extra.get(p)!.formerPath })));
  const paths = uniquePaths(places.map((p, i): PathClaim => ({ ...claims[i], wanted: p.path, held: former[i] === p.path })));
  // Of namesakes, the one that kept its bare path keeps its bare name.
  const qualified = qualifiers(places.map((p, i) => ({ ...p, ...claims[i], held: paths[i] === p.path, area: extra.get(p)!.area })));
  places.forEach((p, i) => (p.path = paths[i]));
  places.forEach((p, i) => (p.qualifier = qualified[i]));
  return { places, formerPaths: formerPaths(paths, former), districts: snaps, districtRankWeight };
}
