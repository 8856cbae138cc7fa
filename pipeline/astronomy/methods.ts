// The calculation methods of the contract (shared/spec/contract.md, "Calculation"), one row each.
// Angles are degrees below the horizon. Intervals are minutes: maghrib after sunset, isha after maghrib.
// `adjustments` are the method's fixed offsets in minutes, applied to the astronomical times before rounding.
import { createHash } from 'node:crypto';
import { CALCULATION_RULES_VERSION } from './rulesVersion.js';

export const PRAYERS = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;
export type Prayer = (typeof PRAYERS)[number];

/** The seven names of a `times` object, in the order the contract lists them (also the order of `estimated`). */
export const TIME_NAMES = ['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const;
export type TimeName = (typeof TIME_NAMES)[number];

export const MADHABS = ['shafi', 'hanafi'] as const;
export type Madhab = (typeof MADHABS)[number];

export type Adjustments = Partial<Record<Prayer, number>>;

/** How a time becomes a whole minute of the local clock: the nearest minute, the next one, or the one before. */
export type RoundingMode = 'nearest' | 'up' | 'down';

export interface MethodDefinition {
  id: string;
  name: string;
  fajrAngle: number;
  /** Isha by angle… */
  ishaAngle?: number;
  /** …or by minutes after maghrib. */
  ishaInterval?: number;
  /** Isha interval in Ramadan (Umm al-Qura: 120 instead of 90). */
  ishaIntervalInRamadan?: number;
  /** Maghrib by angle (Tehran, Jafari)… */
  maghribAngle?: number;
  /** …or by minutes after sunset (Jordan, Portugal). */
  maghribInterval?: number;
  adjustments: Adjustments;
  /** Diyanet's İmsak is its fajr; everywhere else imsak is fajr − 10 min. */
  imsakIsFajr?: boolean;
  /** Tehran and Jafari count the night from sunset, not from maghrib. */
  nightFromSunset?: boolean;
  /** Moonsighting Committee's seasonal twilight, as adhan implements it. */
  moonsighting?: boolean;
  /** Which rule estimates fajr and isha where the sun never reaches the angle. */
  highLatitudeRule: 'adhanRecommended' | 'diyanet';
  /**
   * Where the sun is: `adhan` (interpolated for each event), `dailyAt0hUT` (declination and equation of time taken
   * once, at 0h UT of the date, as in an almanac: Diyanet's published minutes follow it; see docs/diyanet.md) or
   * `fixedHours` (the Astronomical Almanac's low-precision sun read once for each event at a fixed hour of local mean
   * time, fajr 5 h, sunrise 6 h, dhuhr 12 h, asr 13 h, sunset and isha 18 h, not iterated: PrayTimes.org's first pass,
   * which Moonsighting.com's timetable service prints; see docs/authorities.md).
   */
  solarModel: 'adhan' | 'dailyAt0hUT' | 'fixedHours';
  /**
   * Asr's shadow length from the sun's declination at the asr instant (adhan takes the declination at 0h UT of the
   * date, up to half a minute off around the equinoxes). KACST's, the Algerian Ministry's and MUIS's tables follow the
   * instant (docs/authorities.md). Only with `solarModel: 'adhan'`.
   */
  asrShadowAtAsr?: boolean;
  /**
   * Every event computed with the sun of this many days later and moved back onto the date (MUIS's 2026 tables are
   * the next day's sun: docs/authorities.md); 0 where not given.
   */
  sunDayOffset?: number;
  /**
   * A perpetual table (one table for every year: Qatar Calendar House's): each date computed with the sun of the same
   * month and day in this year, and moved back onto the date (29 February, where the year has none, with 1 March's
   * sun). The table's times then repeat every year, as the printed table does; undefined where not given.
   */
  sunYear?: number;
  /**
   * Per prayer, how the time (after `adjustments`) is rounded to the minute; `nearest` where not given. National
   * authorities that add precautionary minutes (ihtiyat) round the prayer's start up and sunrise down, so a printed
   * time never falls before the true one (see docs/authorities.md).
   */
  rounding?: Partial<Record<Prayer, RoundingMode>>;
  /**
   * The sun's altitude at sunrise and sunset, degrees (negative: below the horizon); −0.8333 (refraction and the
   * sun's semidiameter) where not given. Maghrib by sunset follows it.
   */
  horizon?: number;
  /**
   * An authority that publishes one table per zone (JAKIM): the zones we can place a catalog place in, each with the
   * reference point its table is computed for and the zone's own exceptions. A place in a zone is computed at the
   * zone's point (pipeline/astronomy/methodZones.ts); every other place at its own coordinates.
   */
  zones?: readonly MethodZone[];
}

/** One zone of a zone-based authority (see `MethodDefinition.zones`). */
export interface MethodZone {
  /** The authority's zone code (JAKIM: `PLS01`). */
  code: string;
  /**
   * The catalog places in the zone: ISO country and the catalog's region (first-level division) names; without
   * `regions`, every place of the country (a national table: Kosovo's, Bosnia and Herzegovina's), a point too when its
   * nearest catalog place is in the country.
   */
  country: string;
  regions?: readonly string[];
  /** Catalog place ids in those regions that are not in the zone (a source's misattributed region). */
  excludedPlaces?: readonly string[];
  /** The zone's reference point, decimal degrees. */
  latitude: number;
  longitude: number;
  /** The zone prints its imsak at its fajr. */
  imsakIsFajr?: boolean;
  /**
   * A perpetual takvim (Bosnia and Herzegovina's): a place prints the reference point's times plus whole minutes fixed
   * for each month, the place's difference from the point on the month's 15th (pipeline/astronomy/perpetualTable.ts):
   * fajr and sunrise move by the difference in sunrise, dhuhr by the difference in transit, asr, maghrib and isha by
   * the difference in sunset. Without it, every place of the zone prints the point's own times.
   */
  monthlyDifferences?: boolean;
}

const method = (m: Omit<MethodDefinition, 'adjustments' | 'highLatitudeRule' | 'solarModel'> & Partial<MethodDefinition>): MethodDefinition => ({
  adjustments: {},
  highLatitudeRule: 'adhanRecommended',
  solarModel: 'adhan',
  ...m,
});

/** The methods as written (the fingerprint below is of these). */
const DEFINED: readonly MethodDefinition[] = [
  method({
    id: 'diyanet',
    name: 'Diyanet İşleri Başkanlığı, Türkiye',
    fajrAngle: 18,
    ishaAngle: 17,
    adjustments: { sunrise: -7, dhuhr: 5, asr: 4, maghrib: 7 },
    imsakIsFajr: true,
    highLatitudeRule: 'diyanet',
    solarModel: 'dailyAt0hUT',
  }),
  method({ id: 'muslimWorldLeague', name: 'Muslim World League', fajrAngle: 18, ishaAngle: 17 }),
  method({ id: 'isna', name: 'Islamic Society of North America', fajrAngle: 15, ishaAngle: 15 }),
  method({ id: 'egyptian', name: 'Egyptian General Authority of Survey', fajrAngle: 19.5, ishaAngle: 17.5 }),
  method({
    id: 'ummAlQura',
    name: 'Umm al-Qura University, Makkah',
    fajrAngle: 18.5,
    ishaInterval: 90,
    ishaIntervalInRamadan: 120,
    // KACST's published times (docs/authorities.md): every time rounded up but sunrise, rounded down; asr's shadow
    // from the sun at the asr instant.
    rounding: { fajr: 'up', sunrise: 'down', dhuhr: 'up', asr: 'up', maghrib: 'up', isha: 'up' },
    asrShadowAtAsr: true,
  }),
  method({ id: 'karachi', name: 'University of Islamic Sciences, Karachi', fajrAngle: 18, ishaAngle: 18 }),
  method({
    id: 'tehran',
    name: 'Institute of Geophysics, University of Tehran',
    fajrAngle: 17.7,
    ishaAngle: 14,
    maghribAngle: 4.5,
    nightFromSunset: true,
  }),
  method({
    id: 'jafari',
    name: 'Shia Ithna Ashari, Leva Institute, Qum',
    fajrAngle: 16,
    ishaAngle: 14,
    maghribAngle: 4,
    nightFromSunset: true,
  }),
  method({ id: 'gulf', name: 'Gulf Region', fajrAngle: 19.5, ishaInterval: 90 }),
  method({ id: 'kuwait', name: 'Kuwait', fajrAngle: 18, ishaAngle: 17.5 }),
  method({
    id: 'qatar',
    name: 'Qatar',
    // Qatar Calendar House's perpetual table (docs/authorities.md): fajr at 18° a minute earlier, maghrib 2 minutes
    // after sunset, isha 90 after maghrib, nearest minute; every date with the sun of the same date in 2027 (the
    // table's sun is that of a year three after a leap year), asr's shadow from the sun at the asr instant.
    fajrAngle: 18,
    ishaInterval: 90,
    maghribInterval: 2,
    adjustments: { fajr: -1 },
    sunYear: 2027,
    asrShadowAtAsr: true,
  }),
  method({
    id: 'oman',
    name: 'Ministry of Endowments and Religious Affairs, Oman',
    // The Ministry's calendar (docs/authorities.md): fajr and isha at 18°, the sun taken once a day at 0h UT (as in
    // an almanac), dhuhr, asr and maghrib 5 minutes after the astronomical instant, every time rounded up.
    fajrAngle: 18,
    ishaAngle: 18,
    solarModel: 'dailyAt0hUT',
    adjustments: { dhuhr: 5, asr: 5, maghrib: 5 },
    rounding: { fajr: 'up', sunrise: 'up', dhuhr: 'up', asr: 'up', maghrib: 'up', isha: 'up' },
  }),
  method({
    id: 'dubai',
    name: 'Dubai',
    // The UAE AWQAF's published tables (docs/authorities.md): fajr 18.2°, isha 18°, sunrise −3, dhuhr +2,
    // maghrib +3 minutes, asr unadjusted, nearest minute; its emsak is its fajr.
    fajrAngle: 18.2,
    ishaAngle: 18,
    adjustments: { sunrise: -3, dhuhr: 2, maghrib: 3 },
    imsakIsFajr: true,
  }),
  method({
    id: 'singapore',
    name: 'Majlis Ugama Islam Singapura',
    // MUIS's published tables (docs/authorities.md): every time rounded up, zohor a minute after transit, each day
    // computed with the next day's sun (2020 and 2026 tables alike), asr's shadow from the sun at the asr instant.
    fajrAngle: 20,
    ishaAngle: 18,
    adjustments: { dhuhr: 1 },
    rounding: { fajr: 'up', sunrise: 'up', dhuhr: 'up', asr: 'up', maghrib: 'up', isha: 'up' },
    sunDayOffset: 1,
    asrShadowAtAsr: true,
  }),
  method({
    id: 'jakim',
    name: 'Jabatan Kemajuan Islam Malaysia',
    // JAKIM's e-solat tables (docs/authorities.md): subuh at 18°, zohor a minute after transit, every time rounded
    // up but syuruk, rounded down.
    fajrAngle: 18,
    ishaAngle: 18,
    adjustments: { dhuhr: 1 },
    rounding: { fajr: 'up', sunrise: 'down', dhuhr: 'up', asr: 'up', maghrib: 'up', isha: 'up' },
    // The zones that are a whole state, with the reference points of ../shared/reference/official/README.md (JAKIM's
    // titik rujukan); Perlis prints imsak = subuh. Other zones need district boundaries we do not have.
    zones: [
      // GeoNames puts Pantai Cenang (g11002069), on Langkawi (Kedah, KDH06), in Perlis.
      { code: 'PLS01', country: 'MY', regions: ['Perlis'], excludedPlaces: ['g11002069'], latitude: 6.4219, longitude: 100.1217, imsakIsFajr: true },
      { code: 'MLK01', country: 'MY', regions: ['Melaka'], latitude: 2.3833, longitude: 101.9833 },
    ],
  }),
  method({
    id: 'kemenag',
    name: 'Kementerian Agama Republik Indonesia',
    fajrAngle: 20,
    ishaAngle: 18,
    // Kemenag's published tables (docs/authorities.md): ihtiyat of 2 minutes (3 at dhuhr), every time rounded up
    // but sunrise (terbit), which is 2 minutes earlier and rounded down; sunrise and sunset with the sun at −1°.
    adjustments: { fajr: 2, sunrise: -2, dhuhr: 3, asr: 2, maghrib: 2, isha: 2 },
    rounding: { fajr: 'up', sunrise: 'down', dhuhr: 'up', asr: 'up', maghrib: 'up', isha: 'up' },
    horizon: -1,
  }),
  method({ id: 'uoif', name: 'Union des Organisations Islamiques de France', fajrAngle: 12, ishaAngle: 12 }),
  method({ id: 'russia', name: 'Spiritual Administration of Muslims of Russia', fajrAngle: 16, ishaAngle: 15 }),
  method({
    id: 'moonsighting',
    name: 'Moonsighting Committee Worldwide',
    // Moonsighting.com's timetable service (docs/authorities.md): Khalid Shaukat's seasonal fajr and isha (general
    // shafaq) as adhan computes them, to the second; dhuhr 5 and maghrib 3 minutes after noon and sunset; the sun of
    // PrayTimes.org's first pass (`fixedHours`: the Almanac's sun at a fixed hour per event, asr's shadow from 13 h),
    // the sun at −0.833° at sunrise and sunset; nearest minute.
    fajrAngle: 18,
    ishaAngle: 18,
    adjustments: { dhuhr: 5, maghrib: 3 },
    moonsighting: true,
    solarModel: 'fixedHours',
    horizon: -0.833,
  }),
  method({
    id: 'morocco',
    name: 'Morocco',
    // The Ministry of Habous's tables (docs/authorities.md): sunrise −4, dhuhr +5, asr +1, maghrib +5 minutes; fajr
    // rounded down, the rest to the nearest minute. Sunrise and maghrib also depend on the town's elevation, which we
    // do not model.
    fajrAngle: 19,
    ishaAngle: 17,
    adjustments: { sunrise: -4, dhuhr: 5, asr: 1, maghrib: 5 },
    rounding: { fajr: 'down' },
  }),
  method({
    id: 'algeria',
    name: 'Algeria',
    fajrAngle: 18,
    ishaAngle: 17,
    // The Ministry's tables (docs/authorities.md): maghrib 3 minutes after sunset, every time rounded up, asr's
    // shadow from the sun at the asr instant.
    adjustments: { maghrib: 3 },
    rounding: { fajr: 'up', sunrise: 'up', dhuhr: 'up', asr: 'up', maghrib: 'up', isha: 'up' },
    asrShadowAtAsr: true,
  }),
  method({ id: 'tunisia', name: 'Tunisia', fajrAngle: 18, ishaAngle: 18 }),
  method({ id: 'jordan', name: 'Ministry of Awqaf, Jordan', fajrAngle: 18, ishaAngle: 18, maghribInterval: 5 }),
  method({
    id: 'portugal',
    name: 'Comunidade Islâmica de Lisboa',
    fajrAngle: 18,
    ishaInterval: 77,
    maghribInterval: 3,
    adjustments: { dhuhr: 5 },
  }),
  method({
    id: 'kosovo',
    name: 'Islamic Community of Kosovo',
    // BIK's Takvimi (docs/authorities.md): one table for the whole country, computed for about 42.5° N, 21.0° E (the
    // published analyses' point; it fits the 2026 table better than Prishtina's own). The best rule windows of that
    // table: Imsaku (imsak = fajr) at 19.5° + 4 minutes, sunrise −9, dhuhr +2, asr +3, maghrib +7, isha at 16.75° + 11
    // minutes, nearest minute. The table has day-to-day steps no astronomical rule follows: about half exact.
    fajrAngle: 19.5,
    ishaAngle: 16.75,
    adjustments: { fajr: 4, sunrise: -9, dhuhr: 2, asr: 3, maghrib: 7, isha: 11 },
    imsakIsFajr: true,
    zones: [{ code: 'XK', country: 'XK', latitude: 42.5, longitude: 21.0 }],
  }),
  method({
    id: 'bosnia',
    name: 'Islamic Community in Bosnia and Herzegovina',
    // The Rijaset's perpetual takvim (docs/authorities.md): Sarajevo's base table at fajr 18°, isha 16° with the sun
    // read once a day at 0h UT, sunrise −6, dhuhr +1, maghrib +6 minutes (temkin), nearest minute; every other town of
    // the country prints Sarajevo's times plus its differences for the month (fajr and sunrise by the sunrise's, dhuhr
    // by the transit's, asr to isha by the sunset's, on the 15th, rounded).
    fajrAngle: 18,
    ishaAngle: 16,
    adjustments: { sunrise: -6, dhuhr: 1, maghrib: 6 },
    solarModel: 'dailyAt0hUT',
    zones: [{ code: 'BA', country: 'BA', latitude: 43.8563, longitude: 18.4131, monthlyDifferences: true }],
  }),
  method({
    id: 'brunei',
    name: 'Ministry of Religious Affairs, Brunei Darussalam',
    // KHEU's timetable (docs/authorities.md): subuh at 20°, isyak at 18°, the sun taken once a day at 0h UT (as in an
    // almanac), zohor 64 seconds after the transit (the time the sun's semidiameter, 16′, takes to clear the
    // meridian), nearest minute; imsak = subuh − 10.
    fajrAngle: 20,
    ishaAngle: 18,
    adjustments: { dhuhr: 16 / 15 },
    solarModel: 'dailyAt0hUT',
  }),
];

/**
 * A method with every field, in one order (an absent one undefined). The day loop reads a method's fields for every
 * place and day, whatever its method: objects of one shape keep those reads at one place in memory, where methods of
 * a dozen shapes made each read a lookup (a kemenag year took twice a Muslim World League year).
 */
function oneShape(m: MethodDefinition): MethodDefinition {
  // Every field named (the type makes a field added to MethodDefinition and forgotten here an error).
  const all: { [K in keyof Required<MethodDefinition>]: MethodDefinition[K] } = {
    id: m.id,
    name: m.name,
    fajrAngle: m.fajrAngle,
    ishaAngle: m.ishaAngle,
    ishaInterval: m.ishaInterval,
    ishaIntervalInRamadan: m.ishaIntervalInRamadan,
    maghribAngle: m.maghribAngle,
    maghribInterval: m.maghribInterval,
    adjustments: m.adjustments,
    imsakIsFajr: m.imsakIsFajr,
    nightFromSunset: m.nightFromSunset,
    moonsighting: m.moonsighting,
    highLatitudeRule: m.highLatitudeRule,
    solarModel: m.solarModel,
    asrShadowAtAsr: m.asrShadowAtAsr,
    sunDayOffset: m.sunDayOffset,
    sunYear: m.sunYear,
    rounding: m.rounding,
    horizon: m.horizon,
    zones: m.zones,
  };
  return all;
}

export const METHODS: readonly MethodDefinition[] = DEFINED.map(oneShape);

export const METHOD_IDS: readonly string[] = METHODS.map((m) => m.id);

const methodsById = new Map(METHODS.map((m) => [m.id, m]));

export function methodById(id: string): MethodDefinition {
  const found = methodsById.get(id);
  if (!found) throw new Error(`unknown method ${id}`);
  return found;
}

/**
 * A fingerprint of the methods' rules (angles, adjustments, rounding, horizons…) and of the calculation's own rules
 * (rulesVersion.ts): a store records the one it was computed with, and a server whose rules differ computes live
 * instead of serving another rule's minutes.
 */
export const METHODS_FINGERPRINT: string = methodsFingerprint(DEFINED, CALCULATION_RULES_VERSION);

/** The fingerprint of methods as written and of the rules outside them (rulesVersion.ts). */
export function methodsFingerprint(methods: readonly MethodDefinition[], rulesVersion: number): string {
  return createHash('sha256').update(JSON.stringify({ methods, rulesVersion })).digest('hex').slice(0, 16);
}
