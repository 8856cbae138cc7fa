// `catalog build`: read the sources, assemble, write; and say what was read, written and snapped.
import { buildCatalog, type CatalogBuild } from './buildCatalog.js';
import { CATALOG_FORMAT, formerPathsOf, writeCatalog } from './catalogFile.js';
import { buildSearchIndex } from './searchIndex.js';
import { buildSpatialOrder } from './spatialIndex.js';
import { buildZoneIndex, type ZoneIndexBuild } from '../zones/zoneIndexBuild.js';
import { writeZoneIndex } from '../zones/zoneIndexFile.js';
import {
  defaultSources,
  readAdmin1Names,
  readAdmin2Names,
  readDistrictCoordinates,
  readGeoNamesCities,
  readTurkishNeighbourhoods,
  readTurkishProvinces,
  sourceVersions,
  type CatalogSources,
} from './sources.js';

export interface CatalogBuildResult {
  build: CatalogBuild;
  file: string;
  bytes: number;
  read: Record<string, number>;
  seconds: number;
  zones: ZoneIndexBuilt;
}

export interface ZoneIndexBuilt {
  stats: ZoneIndexBuild['stats'];
  file: string;
  bytes: number;
  seconds: number;
}

/** `catalog zones`, and part of `catalog build`: the zone index (pipeline/zones/zoneIndex.ts) beside the catalog. */
export function runZoneIndexBuild(dataDir: string): ZoneIndexBuilt {
  const started = performance.now();
  const { index, stats } = buildZoneIndex();
  return { stats, ...writeZoneIndex(dataDir, index), seconds: (performance.now() - started) / 1000 };
}

export function formatZoneIndexReport({ file, bytes, seconds, stats }: ZoneIndexBuilt): string {
  return (
    `Wrote ${file} (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s: geo-tz's ${stats.quads} border quads as ` +
    `${stats.nodes} nodes, ${stats.zoneLeaves} cells inside one zone and ${stats.cells} with edges (${stats.points} polygon points)`
  );
}

export function runCatalogBuild(dataDir: string, sources: CatalogSources = defaultSources(), now = new Date()): CatalogBuildResult {
  const started = performance.now();
  const cities = readGeoNamesCities(sources.cities500);
  const admin1Names = readAdmin1Names(sources.admin1);
  const admin2Names = readAdmin2Names(sources.admin2);
  const provinces = readTurkishProvinces(sources.turkishProvinces, sources.turkishDistricts);
  const neighbourhoods = readTurkishNeighbourhoods(sources.turkishNeighbourhoods);
  const districtCoordinates = readDistrictCoordinates(sources.turkishDistrictCoordinates);
  const build = buildCatalog({ cities, admin1Names, admin2Names, provinces, neighbourhoods, districtCoordinates });
  const { file, bytes } = writeCatalog(dataDir, {
    format: CATALOG_FORMAT,
    builtAt: now.toISOString(),
    sources: sourceVersions(),
    places: build.places.map(({ names: _names, ...stored }) => stored),
    search: buildSearchIndex(build.places),
    spatialOrder: buildSpatialOrder(build.places),
    formerPaths: formerPathsOf(build.formerPaths),
  });
  const seconds = (performance.now() - started) / 1000;
  const zones = runZoneIndexBuild(dataDir);
  return {
    build,
    file,
    bytes,
    read: {
      'GeoNames cities500 rows': cities.length,
      'admin1 regions': admin1Names.size,
      'admin2 districts': admin2Names.size,
      'Turkish provinces': provinces.length,
      'Turkish districts': provinces.reduce((n, p) => n + p.districts.length, 0),
      'Turkish neighbourhood and village names': [...neighbourhoods.values()].reduce((n, list) => n + list.length, 0),
      'provinces with district coordinates': districtCoordinates.size,
    },
    seconds,
    zones,
  };
}

/** The human report: counts, then per province which districts snapped to a GeoNames seat and which did not. */
export function formatCatalogReport(result: CatalogBuildResult): string {
  const { build } = result;
  const lines: string[] = ['Read:'];
  for (const [what, n] of Object.entries(result.read)) lines.push(`  ${what}: ${n}`);
  const districts = build.places.filter((p) => p.type === 'district').length;
  lines.push(
    `Wrote ${result.file} (${(result.bytes / 1e6).toFixed(1)} MB) in ${result.seconds.toFixed(1)} s:`,
    `  ${build.places.length} places: ${build.places.length - districts} cities, ${districts} Turkish districts`,
    `  districts without a population rank as ${build.districtRankWeight} people (the median of those with one)`,
    `  ${build.places.filter((p) => p.qualifier).length} places told from a namesake in their region by a qualifier; ` +
      `${build.places.filter((p) => !p.region).length} without a region; ${build.formerPaths.size} former paths kept as aliases`,
    formatZoneIndexReport(result.zones),
  );
  const snapped = build.districts.filter((d) => d.geonameId !== undefined);
  lines.push(`Districts snapped to a GeoNames seat within 20 km: ${snapped.length}; not snapped: ${build.districts.length - snapped.length}`);
  const byProvince = new Map<string, typeof build.districts>();
  for (const d of build.districts) byProvince.set(d.province, [...(byProvince.get(d.province) ?? []), d]);
  for (const [province, list] of byProvince) {
    const yes = list.filter((d) => d.geonameId !== undefined).map((d) => `${d.district} (${d.distanceKm} km)`);
    const no = list.filter((d) => d.geonameId === undefined).map((d) => `${d.district} [${d.located}]`);
    lines.push(`  ${province}: snapped ${yes.join(', ') || '-'}; not snapped ${no.join(', ') || '-'}`);
  }
  return lines.join('\n');
}
