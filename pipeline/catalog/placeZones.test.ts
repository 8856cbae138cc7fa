// Every catalog place's zone against the zone the API finds at its coordinates: one clock for `city=` and for its
// `lat`/`lon` (contract, "Time zones"). Where they differ, the exception is one of a rule's, each with its reason.
import { describe, expect, inject, it } from 'vitest';
import { zoneAtPoint } from '../zones/zoneAtPoint.js';
import { countryOfZone } from '../zones/zoneRules.js';
import { readCatalog } from './catalogFile.js';

/**
 * Places whose point lies in another country's zone away from a border: the boundary data gives them the zone of the
 * country that runs them (or the one their coordinates fall in), and the catalog keeps the zone of the country
 * GeoNames files them under (a place's country also picks its method). Each with its reason.
 */
const LISTED: Array<{ country: string; zone: string; atMost: number; reason: string }> = [
  { country: 'PS', zone: 'Asia/Jerusalem', atMost: 300, reason: 'Israeli-administered parts of the West Bank keep Israel’s clock' },
  { country: 'GE', zone: 'Europe/Moscow', atMost: 15, reason: 'Abkhazia and South Ossetia keep Moscow time' },
  { country: 'SY', zone: 'Asia/Jerusalem', atMost: 5, reason: 'the Golan Heights keep Israel’s clock' },
  { country: 'MA', zone: 'Africa/El_Aaiun', atMost: 10, reason: 'Western Sahara has a zone of its own in the tz database' },
  { country: 'VN', zone: 'Asia/Shanghai', atMost: 2, reason: 'the Paracel Islands are held by China' },
  { country: 'SS', zone: 'Africa/Khartoum', atMost: 2, reason: 'Kafia Kingi is held by Sudan' },
  { country: 'SJ', zone: 'Europe/Oslo', atMost: 2, reason: 'Jan Mayen keeps Norway’s clock; Arctic/Longyearbyen is Svalbard’s' },
  { country: 'VN', zone: 'Asia/Bangkok', atMost: 5, reason: 'the tz database keeps north Vietnam on Asia/Bangkok (same clock since 1975); GeoNames files some of it under Asia/Ho_Chi_Minh' },
  { country: 'IN', zone: 'Asia/Yangon', atMost: 1, reason: 'GeoNames puts Sarupathar (Assam) at coordinates in Myanmar' },
];

/** How far (km) a place may lie from a point of its own country's zone when its point falls across a border. */
const BORDER_KM = 5;

function ownZoneWithin(latitude: number, longitude: number, zone: string, km: number): boolean {
  for (let step = 0; step < 16; step++) {
    const angle = (step * Math.PI) / 8;
    for (const distance of [km / 4, km / 2, km]) {
      const lat = latitude + (distance / 111.2) * Math.cos(angle);
      const lon = longitude + (distance / (111.2 * Math.cos((latitude * Math.PI) / 180))) * Math.sin(angle);
      if (zoneAtPoint(lat, lon) === zone) return true;
    }
  }
  return false;
}

describe('catalog places and the zone at their coordinates', () => {
  it('agree for every place but those just across a border and those listed with their reason', { timeout: 180_000 }, () => {
    const catalog = readCatalog(inject('catalogDataDir'))!;
    const listedCounts = new Map<string, number>();
    let sameZone = 0;
    let acrossBorder = 0;
    const unexplained: string[] = [];
    for (const place of catalog.places) {
      const found = zoneAtPoint(place.latitude, place.longitude);
      if (found === place.timeZone) {
        sameZone++;
        continue;
      }
      const where = `${place.id} ${place.name} (${place.country}, ${place.latitude},${place.longitude}): catalog ${place.timeZone}, found ${found}`;
      // A zone of the place's own country at its point would have been taken by the catalog build.
      if (countryOfZone(found) === place.country) {
        unexplained.push(`${where}: a zone of its own country`);
        continue;
      }
      const listed = LISTED.find((entry) => entry.country === place.country && entry.zone === found);
      if (listed) listedCounts.set(listed.zone + place.country, (listedCounts.get(listed.zone + place.country) ?? 0) + 1);
      else if (ownZoneWithin(place.latitude, place.longitude, place.timeZone, BORDER_KM)) acrossBorder++;
      else unexplained.push(where);
    }
    expect(unexplained).toEqual([]);
    for (const entry of LISTED) {
      expect(listedCounts.get(entry.zone + entry.country) ?? 0, entry.reason).toBeLessThanOrEqual(entry.atMost);
    }
    expect(acrossBorder).toBeLessThan(100);
    expect(sameZone).toBeGreaterThan(catalog.places.length - 400);
  });

  it('give each country’s own zone, not the one merged with a neighbour’s since 1970', () => {
    const cases: Array<[number, number, string]> = [
      [0.3163, 32.5822, 'Africa/Kampala'],
      [-16.5, -68.15, 'America/La_Paz'],
      [59.9139, 10.7522, 'Europe/Oslo'],
      [-17.5516, -149.5585, 'Pacific/Tahiti'],
      [-2.5337, 140.718, 'Asia/Jayapura'],
      [-4.3217, 15.3125, 'Africa/Kinshasa'],
      [3.139, 101.6869, 'Asia/Kuala_Lumpur'],
      [53.3498, -6.2603, 'Europe/Dublin'],
      [-45.5752, -72.0662, 'America/Coyhaique'],
    ];
    expect(cases.map(([lat, lon]) => zoneAtPoint(lat, lon))).toEqual(cases.map(([, , zone]) => zone));
  });
});
