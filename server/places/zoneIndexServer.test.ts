// The zone of a point over real HTTP: a server with the zone index beside its catalog answers `lat`/`lon` with the
// zone geo-tz gives there (canonical name; at sea the nearest place's zone), on borders and coasts too; a server whose
// index is missing or was built from another geo-tz says so and answers the same from geo-tz itself.
import { find } from 'geo-tz/all';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { catalogPath } from '../../pipeline/catalog/catalogFile.js';
import { readZoneIndex, writeZoneIndex } from '../../pipeline/zones/zoneIndexFile.js';
import { canonicalZoneName } from '../../pipeline/zones/zoneRules.js';
import { geoTzPolygonPoints } from '../../testing/geoTzPoints.js';
import { startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';

/** A data directory with the test run's catalog and, as asked, no zone index or one built from "another" geo-tz. */
function dataDir(zoneIndex: 'none' | 'stale'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'prayer-times-zones-'));
  mkdirSync(path.join(dir, 'catalog'));
  symlinkSync(catalogPath(inject('catalogDataDir')), catalogPath(dir));
  if (zoneIndex === 'stale') {
    const read = readZoneIndex(inject('catalogDataDir'));
    if (!read.index) throw new Error(read.detail);
    writeZoneIndex(dir, { ...read.index, source: 'geo-tz 0.0.0 0000000000000000' });
  }
  return dir;
}

const servers: Record<'index' | 'none' | 'stale', { server: RunningServer; key: string }> = {} as never;
beforeAll(async () => {
  [servers.index, servers.none, servers.stale] = await Promise.all([
    // Two serving threads: they share the index, and the edge bytes either of them reads first.
    startServerWithKey({ DATA_DIR: inject('catalogDataDir'), WORKERS: '2' }),
    startServerWithKey({ DATA_DIR: dataDir('none') }),
    startServerWithKey({ DATA_DIR: dataDir('stale') }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(servers).map(({ server }) => server?.stop()));
});

/** Points on and next to geo-tz's polygon points the world over, at sea, and at the poles and the date line. */
function points(): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [x, y] of geoTzPolygonPoints(40_000)) out.push([y, x], [y + 1e-6, x - 1e-6], [y - 0.01, x + 0.01]);
  for (let lon = -180; lon <= 180; lon += 15) out.push([-60, lon], [0, Math.min(180, lon + 0.5)]);
  out.push([90, 0], [-90, 0], [0, 180], [0, -180], [89.99999, 179.99999], [-89.99999, -179.99999]);
  return out;
}

async function locationAt(server: { server: RunningServer; key: string }, lat: number, lon: number): Promise<any> {
  const res = await fetch(`${server.server.baseUrl}/api/v1/times?lat=${lat}&lon=${lon}&date=2026-03-21`, { headers: { 'X-API-Key': server.key } });
  const body = (await res.json()) as { location: any };
  expect(res.status, `${lat},${lon}: ${JSON.stringify(body)}`).toBe(200);
  return body.location;
}

describe('the zone of a point, over HTTP', () => {
  it('is geo-tz’s zone there, from the index, and at sea the nearest place’s', { timeout: 120_000 }, async () => {
    expect(servers.index.server.output.some((line) => line.includes('"event":"catalog_loaded"') && line.includes('"zoneIndexMb"'))).toBe(true);
    const all = points();
    expect(all.length).toBeGreaterThan(500);
    let atSea = 0;
    for (const [lat, lon] of all) {
      const location = await locationAt(servers.index, lat, lon);
      let expected = canonicalZoneName(find(lat, lon)[0]) || 'Etc/UTC';
      if (expected.startsWith('Etc/')) {
        atSea++;
        expected = location.nearestCity.timeZone;
      }
      expect(location.timeZone, `${lat},${lon}`).toBe(expected);
    }
    expect(atSea).toBeGreaterThan(20);
  });

  it('comes from geo-tz where the index is missing or stale, with a warning, and is the same', { timeout: 120_000 }, async () => {
    expect(servers.none.server.output.some((line) => line.includes('"event":"zone_index_missing"'))).toBe(true);
    expect(servers.stale.server.output.some((line) => line.includes('"event":"zone_index_stale"'))).toBe(true);
    for (const [lat, lon] of points().filter((_, k) => k % 3 === 0)) {
      // The zone, and the nearest place (whose URLs name each server's own address).
      const zoneAndPlace = ({ timeZone, nearestCity }: any) => [timeZone, nearestCity?.id];
      const fromIndex = zoneAndPlace(await locationAt(servers.index, lat, lon));
      expect(zoneAndPlace(await locationAt(servers.none, lat, lon))).toEqual(fromIndex);
      expect(zoneAndPlace(await locationAt(servers.stale, lat, lon))).toEqual(fromIndex);
    }
  });
});
