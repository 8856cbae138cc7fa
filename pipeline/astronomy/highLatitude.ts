// What a day's times become where the sun does not reach the method's angles (high latitudes) or does not
// rise or set at all (inside the polar circles), and which names are then listed in `estimated`.
//
// - Fajr/isha angle never reached: adhan's recommended night-portion rule (middle of the night up to 48°,
//   a seventh of the night above), or Diyanet's own rule for `diyanet` (the twilight lasts as long as it
//   does at latitude 45° on the same day and longitude).
// - No sunrise, sunset or asr: every event that does not exist that day is taken from reference latitudes (same
//   longitude and day) that follow the sun's declination, just inside the line where the night (or day) vanishes,
//   so that the estimates move as smoothly as the seasons (docs/calculation.md, "Polar days"). adhan's own
//   AqrabBalad stops at the latitude where the sun barely rises, where its asr falls after sunset; hence our own.
//   An event that does exist (dhuhr always does) keeps its true time.
import { HighLatitudeRule, PolarCircleResolution } from 'adhan';
import { addDays, type CalendarDate } from '../zones/calendarDate.js';
import { PRAYERS, type MethodDefinition, type Prayer, type RoundingMode } from './methods.js';
import { solarEvents, sunDateOf, twilightsReachedOn, type HighLatitudeRuleName, type SolarDayOptions, type SolarEvents } from './solarDay.js';
import { julianDay, sunPosition } from './sunPosition.js';

/** The sun's declination never exceeds 23.44°; one degree of margin covers refraction and interpolation. */
const MAX_DECLINATION = 24.5;
const LATITUDE_STEP = 0.5;
/** The sun's altitude at sunrise and sunset where a method gives none: refraction and the sun's semidiameter. */
const STANDARD_HORIZON = -0.8333;
const MINUTE_MS = 60_000;
const DIYANET_REFERENCE_LATITUDE = 45;

export interface ResolvedSolarDay {
  events: SolarEvents;
  /** Events that did not exist and were estimated: a bit per event (ESTIMATED_BIT); a number, not a Set, as this
   * is made for every place-day of a precompute. */
  estimated: number;
}

export interface ResolutionInput {
  latitude: number;
  longitude: number;
  date: CalendarDate;
  options: Omit<SolarDayOptions, 'highLatitudeRule' | 'polarResolution' | 'pureAngles'>;
  /** Replaces adhan's recommended rule (the adhan fixtures name theirs); not used by the API. */
  highLatitudeRule?: HighLatitudeRuleName;
}

/** Could the sun fail to reach `angle` degrees below the horizon on some night at this latitude? */
export function angleMayBeUnreached(latitude: number, angle: number): boolean {
  return Math.abs(latitude) + MAX_DECLINATION > 90 - angle;
}

export function recommendedRule(latitude: number): HighLatitudeRuleName {
  return Math.abs(latitude) > 48 ? HighLatitudeRule.SeventhOfTheNight : HighLatitudeRule.MiddleOfTheNight;
}

const finite = Number.isFinite;

export type SolarEventName = keyof SolarEvents;
const EVENT_NAMES: readonly SolarEventName[] = ['fajr', 'sunrise', 'dhuhr', 'asr', 'sunset', 'maghrib', 'isha'];

/** The bit of each event in `ResolvedSolarDay.estimated`. */
export const ESTIMATED_BIT: Readonly<Record<SolarEventName, number>> = { fajr: 1, sunrise: 2, dhuhr: 4, asr: 8, sunset: 16, maghrib: 32, isha: 64 };
const ALL_EVENT_BITS = 127;

/**
 * What resolving a place's days with one set of options needs, worked out once for a run of days rather than per
 * day: the options adhan is called with, which twilights may go unreached, the adjustments and gaps in ms.
 */
export interface ResolutionRun {
  latitude: number;
  longitude: number;
  method: SolarDayOptions['method'];
  dayOptions: SolarDayOptions;
  pureOptions: SolarDayOptions;
  checkFajr: boolean;
  checkIsha: boolean;
  /** The method's fixed adjustment of each prayer (PRAYERS order), ms. */
  adjustmentMs: Float64Array;
  /** How far each prayer must come after the one before (PRAYERS order; 0 for fajr), ms: see `gap`. */
  gapMs: Float64Array;
}

export function resolutionRun(input: Omit<ResolutionInput, 'date'>): ResolutionRun {
  const { latitude, longitude, options } = input;
  const { method } = options;
  const rule = input.highLatitudeRule ?? recommendedRule(latitude);
  const optionsWith = (pureAngles: boolean): SolarDayOptions => ({
    method: options.method,
    madhab: options.madhab,
    ishaInterval: options.ishaInterval,
    highLatitudeRule: rule,
    polarResolution: PolarCircleResolution.Unresolved,
    pureAngles,
  });
  const dayOptions = optionsWith(false);
  return {
    latitude,
    longitude,
    method,
    dayOptions,
    pureOptions: optionsWith(true),
    checkFajr: angleMayBeUnreached(latitude, method.fajrAngle),
    checkIsha: options.ishaInterval === 0 && angleMayBeUnreached(latitude, method.ishaAngle ?? 0),
    ...methodSpacing(method),
  };
}

/** A method's adjustments and gaps as a run holds them, worked out once per method (a live request's run is short). */
const spacingOf = new WeakMap<MethodDefinition, Pick<ResolutionRun, 'adjustmentMs' | 'gapMs'>>();

function methodSpacing(method: MethodDefinition): Pick<ResolutionRun, 'adjustmentMs' | 'gapMs'> {
  let spacing = spacingOf.get(method);
  if (spacing === undefined) {
    spacing = {
      adjustmentMs: Float64Array.from(PRAYERS, (p) => (method.adjustments[p] ?? 0) * MINUTE_MS),
      gapMs: Float64Array.from(PRAYERS, (p, i) => (i === 0 ? 0 : gap(method.rounding, PRAYERS[i - 1], p))),
    };
    spacingOf.set(method, spacing);
  }
  return spacing;
}

export function resolveSolarDay(input: ResolutionInput): ResolvedSolarDay {
  return resolveDay(resolutionRun(input), input.date);
}

/** resolveSolarDay for one date of a run. */
export function resolveDay(run: ResolutionRun, date: CalendarDate): ResolvedSolarDay {
  const { latitude, longitude, method, dayOptions } = run;
  const events = solarEvents(latitude, longitude, date, dayOptions);
  let estimated = 0;
  /** Diyanet's day at 45°, where its rule estimated a twilight. */
  let diyanetReference: SolarEvents | undefined;

  if (run.checkFajr || run.checkIsha) {
    // Only whether the pure angles are reached: not a second day of events.
    const reached = twilightsReachedOn(latitude, longitude, date, run.pureOptions, run.checkFajr, run.checkIsha);
    const fajrUnreached = run.checkFajr && !(reached & 1);
    const ishaUnreached = run.checkIsha && !(reached & 2);
    if (fajrUnreached) estimated |= ESTIMATED_BIT.fajr;
    if (ishaUnreached) estimated |= ESTIMATED_BIT.isha;
    if (method.highLatitudeRule === 'diyanet' && (fajrUnreached || ishaUnreached)) {
      diyanetReference = solarEvents(Math.sign(latitude || 1) * DIYANET_REFERENCE_LATITUDE, longitude, date, run.pureOptions);
      diyanetTwilight(events, diyanetReference, fajrUnreached, ishaUnreached);
    }
  }

  // Asr is when a shadow has grown by its object's length; it exists only if the sun stands above the horizon at
  // noon. Where it does not (polar night, or at the polar circle, where only refraction lifts it into view) adhan's
  // formula still returns a time, which falls outside the afternoon (before dhuhr, even weeks away): that asr does
  // not exist, and is resolved like the other missing events.
  // (Compared after the method's adjustments: Moonsighting's dhuhr +5 must not pass an asr just after noon.)
  const adjustmentMs = run.adjustmentMs;
  const asr = events.asr + adjustmentMs[3];
  const dhuhr = events.dhuhr + adjustmentMs[2];
  const maghrib = events.maghrib + adjustmentMs[4];
  // (A day without maghrib, in the midnight sun, keeps its asr: the sun is high.)
  if (!(asr - dhuhr >= MINUTE_MS) || maghrib - asr < MINUTE_MS) events.asr = NaN;
  estimated |= keepTwilightApart(events, adjustmentMs, run.gapMs);
  // A day without an event, or whose prayers come too close (the sun rising at noon at the polar circle), is
  // resolved from the reference latitudes.
  if (!allFinite(events) || !inOrder(events, adjustmentMs, run.gapMs)) {
    const resolved = polarReferenceDay(run, date);
    const replaced = resolvePolarDay(events, resolved, adjustmentMs, run.gapMs, method.highLatitudeRule !== 'diyanet');
    estimated |= replaced;
    // Diyanet's rule measures its twilight from sunrise and sunset, resolved or not, as on the days around.
    if (diyanetReference !== undefined) {
      const fajr = (estimated & ESTIMATED_BIT.fajr) !== 0 && (replaced & ESTIMATED_BIT.sunrise) !== 0;
      const isha = (estimated & ESTIMATED_BIT.isha) !== 0 && (replaced & ESTIMATED_BIT.sunset) !== 0;
      diyanetTwilight(events, diyanetReference, fajr, isha);
      if (!inOrder(events, adjustmentMs, run.gapMs)) {
        Object.assign(events, resolved, { dhuhr: events.dhuhr });
        estimated |= ~ESTIMATED_BIT.dhuhr & ALL_EVENT_BITS;
      }
    }
  }
  return { events, estimated };
}

/** Diyanet's rule: the twilight lasts as long as at 45° on the same day and longitude (`reference`). */
function diyanetTwilight(events: SolarEvents, reference: SolarEvents, fajr: boolean, isha: boolean): void {
  if (fajr) events.fajr = events.sunrise - (reference.sunrise - reference.fajr);
  if (isha) events.isha = events.sunset + (reference.isha - reference.sunset);
}

/**
 * Whether resolveDay would keep a day's events as they are and estimate none, once its twilights are known to be
 * reached (or need no check): the events (FAJR … ISHA of adhanCore, from `at`) exist, asr falls in the afternoon,
 * fajr and isha keep their distance from sunrise and maghrib, and the prayers are in order; each test is
 * resolveDay's own expression. The precompute's day loop asks this first and calls resolveDay only when it is false.
 */
export function keptAsTheyAre(e: Float64Array, at: number, run: ResolutionRun): boolean {
  const adjustmentMs = run.adjustmentMs;
  const gapMs = run.gapMs;
  const fajr = e[at];
  const sunrise = e[at + 1];
  const dhuhr = e[at + 2];
  const asr = e[at + 3];
  const sunset = e[at + 4];
  const maghrib = e[at + 5];
  const isha = e[at + 6];
  const adjustedAsr = asr + adjustmentMs[3];
  const adjustedDhuhr = dhuhr + adjustmentMs[2];
  const adjustedMaghrib = maghrib + adjustmentMs[4];
  if (!(adjustedAsr - adjustedDhuhr >= MINUTE_MS && adjustedMaghrib - adjustedAsr >= MINUTE_MS)) return false;
  if (fajr > sunrise + (adjustmentMs[1] - adjustmentMs[0]) - gapMs[1]) return false;
  if (isha < maghrib + (adjustmentMs[4] - adjustmentMs[5]) + gapMs[5]) return false;
  if (!(finite(fajr) && finite(sunrise) && finite(dhuhr) && finite(asr) && finite(sunset) && finite(maghrib) && finite(isha))) return false;
  return prayersInOrder(fajr, sunrise, dhuhr, asr, maghrib, isha, adjustmentMs, gapMs);
}

/**
 * Fajr at least a minute before sunrise and isha at least a minute after maghrib. The night-portion rule bounds
 * fajr and isha by a fraction of the night, and where the night is only minutes long (or, for tehran and jafari,
 * maghrib waits for the sun to sink 4°) that bound can reach sunrise or maghrib: the time moves by the needed
 * seconds and is listed as estimated.
 */
function keepTwilightApart(events: SolarEvents, adjustmentMs: Float64Array, gapMs: Float64Array): number {
  let estimated = 0;
  const latestFajr = events.sunrise + (adjustmentMs[1] - adjustmentMs[0]) - gapMs[1];
  if (events.fajr > latestFajr) {
    events.fajr = latestFajr;
    estimated |= ESTIMATED_BIT.fajr;
  }
  const earliestIsha = events.maghrib + (adjustmentMs[4] - adjustmentMs[5]) + gapMs[5];
  if (events.isha < earliestIsha) {
    events.isha = earliestIsha;
    estimated |= ESTIMATED_BIT.isha;
  }
  return estimated;
}

/**
 * The prayers in order once the method's fixed adjustments are applied (Diyanet's sunrise −7 included), each at
 * least a minute after the one before: rounded to the minute, no two prayers then share one (an asr at dhuhr's
 * minute is no asr).
 */
function inOrder(e: SolarEvents, adjustmentMs: Float64Array, gapMs: Float64Array): boolean {
  return prayersInOrder(e.fajr, e.sunrise, e.dhuhr, e.asr, e.maghrib, e.isha, adjustmentMs, gapMs);
}

/** inOrder of the six prayers' events as numbers (the precompute's day loop keeps them in an array). */
function prayersInOrder(fajrEvent: number, sunriseEvent: number, dhuhrEvent: number, asrEvent: number, maghribEvent: number, ishaEvent: number, adjustmentMs: Float64Array, gapMs: Float64Array): boolean {
  // Written out: this runs for every day computed.
  const fajr = fajrEvent + adjustmentMs[0];
  const sunrise = sunriseEvent + adjustmentMs[1];
  const dhuhr = dhuhrEvent + adjustmentMs[2];
  const asr = asrEvent + adjustmentMs[3];
  const maghrib = maghribEvent + adjustmentMs[4];
  const isha = ishaEvent + adjustmentMs[5];
  return (
    fajr - -Infinity >= 0 &&
    sunrise - fajr >= gapMs[1] &&
    dhuhr - sunrise >= gapMs[2] &&
    asr - dhuhr >= gapMs[3] &&
    maghrib - asr >= gapMs[4] &&
    isha - maghrib >= gapMs[5]
  );
}

type Rounding = Partial<Record<Prayer, RoundingMode>>;

/**
 * How far apart two prayers must be to land on different minutes: one minute when both are rounded alike, two
 * when not (a time rounded up and the next rounded down can meet from up to two minutes apart).
 */
function gap(rounding: Rounding | undefined, earlier: Prayer, later: Prayer): number {
  return (rounding?.[earlier] ?? 'nearest') === (rounding?.[later] ?? 'nearest') ? MINUTE_MS : 2 * MINUTE_MS;
}

const isComplete = (e: SolarEvents, adjustmentMs: Float64Array, gapMs: Float64Array): boolean => allFinite(e) && inOrder(e, adjustmentMs, gapMs);

const allFinite = (e: SolarEvents): boolean =>
  finite(e.fajr) && finite(e.sunrise) && finite(e.dhuhr) && finite(e.asr) && finite(e.sunset) && finite(e.maghrib) && finite(e.isha);

/**
 * How far (degrees of latitude) inside the line where the night (in polar night, the day) vanishes the night's
 * reference latitude lies: as far inside as the place lies beyond that line, between these two bounds. Just past the
 * line the resolved night is as short as the true nights before it, so the estimates join the true times; deep in
 * the polar day it is about an hour at the polar circles.
 */
export const POLAR_MARGIN_DEGREES = { least: 0.02, most: 0.25 } as const;
/** The sun's altitude at noon (degrees) where asr is taken from in polar night: its shadow then grows within minutes. */
export const ASR_NOON_ALTITUDE_DEGREES = 0.5;

/** The sun's declination at noon UT of the date, degrees: it changes by at most 0.4° a day. */
function declinationOn(date: CalendarDate): number {
  return sunPosition(julianDay(Date.UTC(date.year, date.month - 1, date.day, 12))).declination;
}

/**
 * The latitudes (absolute, in the place's hemisphere) that resolve a day without an event, for the sun's
 * `declination` that day and the next. `boundary`: where the sun stops sinking below the method's horizon (and maghrib's angle) at
 * midnight, or stops rising above it at noon. `night`, for the night's events (sunrise, sunset, maghrib, and fajr
 * and isha where they follow the night): the boundary less the margin. `asr`: where the sun stands
 * ASR_NOON_ALTITUDE_DEGREES high at noon. All follow the declination from day to day, so the estimates move as
 * smoothly as the seasons (a fixed half-degree grid made them jump every few days); none lies poleward of the place.
 */
export function referenceLatitudes(latitude: number, method: MethodDefinition, declination: number, nextDeclination: number): { boundary: number; night: number; asr: number } {
  const hemisphere = latitude < 0 ? -1 : 1;
  const toward = hemisphere * declination;
  // adhan's night (its twilight bounds) runs between sunrises and sunsets at the standard horizon, whatever the
  // method's own: both must exist.
  const horizon = method.horizon ?? STANDARD_HORIZON;
  const nightDepth = Math.min(horizon, STANDARD_HORIZON, -(method.maghribAngle ?? 0));
  const dayHeight = Math.max(horizon, STANDARD_HORIZON);
  const boundaryFor = (toward: number) => Math.min(90 - toward + nightDepth, 90 + toward - dayHeight);
  // The night after the day (the twilight rules measure it to tomorrow's sunrise) must exist at the latitude too.
  const boundary = Math.min(boundaryFor(toward), boundaryFor(hemisphere * nextDeclination));
  const place = Math.abs(latitude);
  const margin = POLAR_MARGIN_DEGREES.most;
  const night = Math.min(boundary - margin, place);
  const asr = Math.min(90 + toward - ASR_NOON_ALTITUDE_DEGREES, night);
  return { boundary, night, asr };
}

function polarReferenceDay(run: ResolutionRun, date: CalendarDate): SolarEvents {
  const { latitude } = run;
  // The sun the method computes the date with (another day's, or another year's, for some).
  const sunDate = sunDateOf(run.method, date);
  const reference = referenceLatitudes(latitude, run.method, declinationOn(sunDate), declinationOn(addDays(sunDate, 1)));
  const day = referenceDay(run, date, reference.night, reference.asr);
  if (day !== undefined) return day;
  // With the margin at its widest, then (not expected for any method; kept so that a day is always resolved) in
  // half-degree steps towards the equator.
  const widest = Math.min(reference.boundary - POLAR_MARGIN_DEGREES.most, Math.abs(latitude));
  const wide = referenceDay(run, date, widest, Math.min(reference.asr, widest));
  if (wide !== undefined) return wide;
  for (let lat = Math.min(widest, reference.asr) - LATITUDE_STEP; lat >= 0; lat -= LATITUDE_STEP) {
    const candidate = referenceDay(run, date, lat, lat);
    if (candidate !== undefined) return candidate;
  }
  throw new Error(`no latitude below ${latitude} has a complete day`);
}

/**
 * The day with the night's events of latitude `night` and the asr of latitude `asr` (absolute), as resolveDay would
 * keep it (asr within the afternoon, fajr and isha apart from sunrise and maghrib), or undefined if not complete.
 */
function referenceDay(run: ResolutionRun, date: CalendarDate, night: number, asr: number): SolarEvents | undefined {
  const sign = run.latitude < 0 ? -1 : 1;
  const day = solarEvents(sign * night, run.longitude, date, run.dayOptions);
  // (At these latitudes asr follows the sun's own declination: solarDay.ts, lowSunAsr.)
  if (asr !== night) day.asr = solarEvents(sign * asr, run.longitude, date, run.dayOptions).asr;
  if (run.method.highLatitudeRule === 'diyanet' && !(finite(day.fajr) && finite(day.isha))) {
    // Diyanet's model has no night-portion bound: its rule gives the twilight that is not reached.
    const at45 = solarEvents(sign * DIYANET_REFERENCE_LATITUDE, run.longitude, date, run.pureOptions);
    diyanetTwilight(day, at45, !finite(day.fajr), !finite(day.isha));
  }
  const a = run.adjustmentMs;
  const g = run.gapMs;
  asrWithinAfternoon(day, a, g);
  keepTwilightApart(day, a, g);
  return isComplete(day, a, g) ? day : undefined;
}

/** Where the day is short (the sun barely up, or just past the line), a resolved asr keeps within its afternoon. */
function asrWithinAfternoon(day: SolarEvents, adjustmentMs: Float64Array, gapMs: Float64Array): void {
  const earliest = day.dhuhr + adjustmentMs[2] - adjustmentMs[3] + gapMs[3];
  const latest = day.maghrib + adjustmentMs[4] - adjustmentMs[3] - gapMs[4];
  day.asr = Math.max(earliest, Math.min(day.asr, latest));
}

/**
 * Fills the events that do not exist from the resolved day; if the mix is out of order, takes that day whole (but its
 * dhuhr, the same transit). With `twilightFollowsNight` (the night-portion and seasonal rules, which measure fajr and
 * isha from the night), on a day without its whole night fajr and isha are the resolved day's twilights, measured
 * from the day's sunrise and maghrib: the day's own, bounded by a night that is not there (or its fajr by angle in
 * polar night), would jump by hours against the days around. Returns the bits of the events replaced.
 */
function resolvePolarDay(events: SolarEvents, resolved: SolarEvents, adjustmentMs: Float64Array, gapMs: Float64Array, twilightFollowsNight: boolean): number {
  const mixed = { ...events };
  for (const n of EVENT_NAMES) if (!finite(mixed[n])) mixed[n] = resolved[n];
  if (twilightFollowsNight && !(finite(events.sunrise) && finite(events.sunset) && finite(events.maghrib))) {
    // The night the twilight rules measure is not there: fajr and isha keep the resolved day's distance from the
    // day's sunrise and maghrib (true or resolved).
    mixed.fajr = mixed.sunrise - (resolved.sunrise - resolved.fajr);
    mixed.isha = mixed.maghrib + (resolved.isha - resolved.maghrib);
  }
  // A true short day keeps its sunrise and sunset; a resolved asr and twilights fit in it.
  if (!finite(events.asr)) asrWithinAfternoon(mixed, adjustmentMs, gapMs);
  keepTwilightApart(mixed, adjustmentMs, gapMs);
  const replaceAll = !inOrder(mixed, adjustmentMs, gapMs);
  let estimated = 0;
  for (const n of EVENT_NAMES) {
    // Dhuhr, the transit, always exists, and the resolved day (same longitude) has the same.
    if (n === 'dhuhr') continue;
    const value = replaceAll ? resolved[n] : mixed[n];
    if (value !== events[n]) {
      events[n] = value;
      estimated |= ESTIMATED_BIT[n];
    }
  }
  return estimated;
}
