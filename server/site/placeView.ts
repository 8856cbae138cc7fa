// The API's answers as the place page reads them: the fields it shows, typed. The API's own schema (OpenAPI) is the
// authority; these are the parts a page needs, checked by the tests that compare a page with the API.

export type TimeName = 'imsak' | 'fajr' | 'sunrise' | 'dhuhr' | 'asr' | 'maghrib' | 'isha';
export type ExtraName = 'ishraq' | 'zawalStart' | 'isfirar' | 'midnight' | 'lastThirdStart';

export const TIME_NAMES: readonly TimeName[] = ['imsak', 'fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
/** The times `/next` counts (imsak is a precaution, not a prayer of its own). */
export const NEXT_PRAYERS: readonly TimeName[] = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
export const EXTRA_NAMES: readonly ExtraName[] = ['ishraq', 'zawalStart', 'isfirar', 'midnight', 'lastThirdStart'];
/** Times the next-prayer box names as events, not prayers ("Next: Sunrise"): sunrise ends fajr; no prayer is said at it. */
export const EVENT_NAMES: readonly TimeName[] = ['sunrise'];

/**
 * Where imsak and fajr are one instant on every day a page shows (the method's rule, read from the data), they are one
 * row and one column, named as the authority prints it: Diyanet's "İmsak"; elsewhere (UAE, Perlis) the prayer. That
 * row's name, or undefined where they differ.
 */
export function mergedImsak(days: ReadonlyArray<{ times: Record<TimeName, string> }>, methodId: string): TimeName | undefined {
  if (!days.every((day) => day.times.imsak === day.times.fajr)) return undefined;
  return methodId === 'diyanet' ? 'imsak' : 'fajr';
}

/** The times a page shows, in order: all seven, or six with imsak and fajr as the one row `merged`. */
export const shownTimeNames = (merged: TimeName | undefined): readonly TimeName[] =>
  merged ? TIME_NAMES.filter((name) => name === merged || (name !== 'imsak' && name !== 'fajr')) : TIME_NAMES;

export interface HijriView {
  day: number;
  month: number;
  year: number;
}

export interface DailyView {
  method: { id: string; name: string };
  madhab: 'shafi' | 'hanafi';
  timeZone: string;
  date: string;
  hijri: HijriView;
  times: Record<TimeName, string>;
  iso: Record<TimeName, string>;
  extras: Partial<Record<ExtraName, string>>;
  estimated: TimeName[];
}

export interface MonthView {
  year: number;
  month: number;
  days: Array<{ date: string; hijri: HijriView; times: Record<TimeName, string>; estimated: TimeName[] }>;
}

export interface NextView {
  next: { prayer: TimeName; time: string; iso: string; inSeconds: number };
}

export interface QiblaView {
  bearing: number;
  distanceKm: number;
}

/** The method and madhab a page's query chose (`?method=`, `?madhab=`), as the API takes them; empty values left out. */
export function chosenCalculation(query: ReadonlyMap<string, string>): Record<string, string> {
  const choice: Record<string, string> = {};
  for (const name of ['method', 'madhab'] as const) {
    const value = query.get(name);
    if (value !== undefined && value !== '') choice[name] = value;
  }
  return choice;
}
