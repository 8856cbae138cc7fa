// One day's astronomical prayer events at a point, from adhan, unrounded and without the method's fixed
// adjustments. Invalid events (the sun never reaches the altitude) are NaN here; highLatitude.ts decides
// what replaces them.
import {
  CalculationParameters,
  Coordinates,
  HighLatitudeRule,
  PolarCircleResolution,
  PrayerTimes,
  Rounding,
} from 'adhan';
import type { CalendarDate } from './calendarDate.js';
import type { Madhab, MethodDefinition } from './methods.js';

export interface SolarEvents {
  fajr: number;
  sunrise: number;
  /** Solar transit: dhuhr before adjustments. */
  dhuhr: number;
  asr: number;
  sunset: number;
  /** Maghrib by the method's angle or interval, before adjustments. */
  maghrib: number;
  isha: number;
}

export type HighLatitudeRuleName = (typeof HighLatitudeRule)[keyof Omit<typeof HighLatitudeRule, 'recommended'>];
export type PolarResolution = (typeof PolarCircleResolution)[keyof typeof PolarCircleResolution];

export interface SolarDayOptions {
  method: MethodDefinition;
  madhab: Madhab;
  /** Isha minutes after maghrib for this day (Umm al-Qura changes it in Ramadan). */
  ishaInterval: number;
  highLatitudeRule: HighLatitudeRuleName;
  polarResolution: PolarResolution;
  /** Angles only: no night-portion bound and no Moonsighting seasons, so an unreached angle shows as NaN. */
  pureAngles?: boolean;
}

const MINUTE_MS = 60_000;

/** adhan reads the date from local calendar fields; noon keeps them right whatever the process's zone. */
export function adhanDate(date: CalendarDate): Date {
  return new Date(date.year, date.month - 1, date.day, 12);
}

function parameters(o: SolarDayOptions): CalculationParameters {
  const m = o.method;
  const adhanMethod = m.moonsighting && !o.pureAngles ? 'MoonsightingCommittee' : 'Other';
  // adhan counts isha minutes from sunset; ours count from maghrib.
  const ishaAfterSunset = o.ishaInterval > 0 ? o.ishaInterval + (m.maghribInterval ?? 0) : 0;
  const p = new CalculationParameters(adhanMethod, m.fajrAngle, m.ishaAngle ?? 0, ishaAfterSunset, m.maghribAngle ?? 0);
  p.madhab = o.madhab;
  p.rounding = Rounding.None;
  p.highLatitudeRule = o.highLatitudeRule;
  p.polarCircleResolution = o.polarResolution;
  // adhan keeps fajr no earlier than sunrise − portion × night; an infinite portion makes that bound an
  // invalid date, which never replaces a real angle time and leaves an unreached one invalid.
  if (o.pureAngles) p.nightPortions = () => ({ fajr: Infinity, isha: Infinity });
  return p;
}

const ms = (d: Date): number => d.getTime(); // NaN for an invalid Date

export function solarEvents(latitude: number, longitude: number, date: CalendarDate, o: SolarDayOptions): SolarEvents {
  const t = new PrayerTimes(new Coordinates(latitude, longitude), adhanDate(date), parameters(o));
  const maghribInterval = o.method.maghribInterval ?? 0;
  return {
    fajr: ms(t.fajr),
    sunrise: ms(t.sunrise),
    dhuhr: ms(t.dhuhr),
    asr: ms(t.asr),
    sunset: ms(t.sunset),
    maghrib: ms(t.maghrib) + maghribInterval * MINUTE_MS,
    isha: ms(t.isha),
  };
}
