// Zone-based authorities: a catalog place inside a zone is computed at the zone's reference point, with the zone's
// exceptions; a point, or a place outside every zone, at its own coordinates (docs/authorities.md, "Zones").
import { describe, expect, it } from 'vitest';
import { methodById } from './methods.js';
import { zonedQuery, zoneFor } from './methodZones.js';
import { computeDay } from './prayerTimes.js';
import { dayRecord } from './dayRecord.js';

const jakim = methodById('jakim');
const timeZone = 'Asia/Kuala_Lumpur';
const date = { year: 2026, month: 9, day: 15 };
const times = (q: Parameters<typeof computeDay>[0]) => dayRecord(computeDay(q, date, false), timeZone).times;

describe('JAKIM zones', () => {
  it('places a catalog place by its country and region, and not a point or a misattributed place', () => {
    expect(zoneFor(jakim, { id: 'g1736278', country: 'MY', region: 'Perlis' })?.code).toBe('PLS01');
    expect(zoneFor(jakim, { country: 'MY', region: 'Melaka' })?.code).toBe('MLK01');
    expect(zoneFor(jakim, { country: 'MY', region: 'Selangor' })).toBeUndefined();
    expect(zoneFor(jakim, { country: 'MY' })).toBeUndefined();
    expect(zoneFor(jakim, { id: 'g11002069', country: 'MY', region: 'Perlis' })).toBeUndefined();
    expect(zoneFor(methodById('muslimWorldLeague'), { country: 'MY', region: 'Perlis' })).toBeUndefined();
  });

  it('computes a zone’s places at the zone’s point, with its exceptions (Perlis: imsak = subuh)', () => {
    const kangar = { latitude: 6.4414, longitude: 100.19862, timeZone, method: jakim, madhab: 'shafi' as const };
    const zoned = times({ ...kangar, zone: 'PLS01' });
    expect(zoned).toEqual(times({ ...kangar, latitude: 6.4219, longitude: 100.1217, method: { ...jakim, imsakIsFajr: true } }));
    expect(zoned.imsak).toBe(zoned.fajr);
    const own = times(kangar);
    expect(own.imsak).not.toBe(own.fajr);
    expect(zonedQuery({ ...kangar, zone: 'SGR01' })).toEqual({ ...kangar, zone: 'SGR01' });
  });
});
