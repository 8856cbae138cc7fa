// The one table of API routes. Each declares its parameters and their bounds once; validation (params.ts), the
// OpenAPI description (openapi.ts) and the MCP tool schemas are derived from it.
import { daysInMonth, formatDate, MAX_DATE, MIN_DATE, parseDate, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { defaultMadhab, defaultMethodId } from '../../pipeline/astronomy/countryDefaults.js';
import { hijriDateDetail } from '../../pipeline/astronomy/hijri.js';
import { localDate, localDateExists, nextLocalMidnight } from '../../pipeline/zones/localTime.js';
import { MADHABS, METHOD_IDS, methodById, type Madhab, type MethodDefinition } from '../../pipeline/astronomy/methods.js';
import { distanceToKaabaKm, qiblaBearing } from '../../pipeline/astronomy/qibla.js';
import { ApiError } from '../errors.js';
import type { Place } from '../places/location.js';
import { cityParam, latParam, LOCATION_RULES, lonParam, resolvePlace, tzParam } from './location.js';
import { DATE_RANGE_TEXT, type NumberParam, type ParameterRule, type ParamSpecs, type ParamValues, type StringParam } from './params.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { prayersAround } from '../timetables/nextPrayer.js';
import { askedBefore } from '../timetables/askedBefore.js';
import { dayBytes } from '../timetables/dayBody.js';
import { monthBytes } from '../timetables/monthBody.js';
import { ALWAYS, cachedLiveBody, keepLiveBody, keepRendered, RenderedBody, type Validity } from '../timetables/renderedResponses.js';
import { countAnswer } from '../timetables/answerCounts.js';
import { daySeries, storedAnswer, type TimetableSource } from '../timetables/timetables.js';

export interface RequestContext extends TimetableSource {
  /** The server's clock, UTC milliseconds. */
  now: number;
  /** The place catalog, once built. */
  catalog: PlaceCatalog | undefined;
}

export interface Route<P extends ParamSpecs = ParamSpecs> {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  params: P;
  /** How the parameters go together (checked by the handler); those naming a parameter the route lacks do not apply. */
  rules?: readonly ParameterRule[];
  /** Name of the response schema in the OpenAPI components. */
  response: string;
  /** The response body: an object to serialize, or one rendered already (renderedResponses.ts). */
  handle(params: ParamValues<P>, ctx: RequestContext): object;
}

const methodParam: StringParam = {
  type: 'string',
  maxLength: 32,
  enum: METHOD_IDS,
  description: 'Calculation method. Default: by the country of the place (diyanet in Turkey).',
};
const madhabParam: StringParam = {
  type: 'string',
  maxLength: 16,
  enum: MADHABS,
  description: 'Asr convention. Default: hanafi in South and Central Asia, shafi elsewhere.',
};
const dateParam = (day: string, fallback: string): StringParam => ({
  type: 'string',
  maxLength: 10,
  format: 'date',
  description: `${day}, YYYY-MM-DD: a real date ${DATE_RANGE_TEXT}. Default: ${fallback}.`,
});

const locationParams = { city: cityParam, lat: latParam, lon: lonParam, tz: tzParam } as const;
const calculationParams = { ...locationParams, method: methodParam, madhab: madhabParam } as const;

interface Calculation {
  method: MethodDefinition;
  madhab: Madhab;
}

function calculationFor(p: { method?: string; madhab?: string }, place: Place): Calculation {
  return {
    method: methodById(p.method ?? defaultMethodId(place.country)),
    madhab: (p.madhab as Madhab | undefined) ?? defaultMadhab(place.country),
  };
}

const methodObject = (m: MethodDefinition) => ({ id: m.id, name: m.name });

/**
 * The key of an answer the store may give, for the cache of rendered answers: the build, the place and what was
 * asked. Undefined when the answer cannot come from the store (a point, not a catalog place; no store).
 */
function storedAnswerKey(ctx: RequestContext, place: Place, what: string, calc: Calculation, when: string): string | undefined {
  if (!ctx.store || !place.placeId || !ctx.catalog) return undefined;
  return `${ctx.store.name}|${ctx.catalog.publicBaseUrlInUse()}|${what}|${place.placeId}|${calc.method.id}|${calc.madhab}|${when}`;
}

/** The base of the site URLs in Location objects, part of every kept answer's key. */
const baseOf = (ctx: RequestContext): string => ctx.catalog?.publicBaseUrlInUse() ?? '';

/**
 * When the answer for a day (or month) holds: always when the request named it, else from now until the place's next
 * local midnight, when "today" becomes another day (the site's place pages end there too: one rule, localTime.ts).
 */
const validity = (named: boolean, ctx: RequestContext, place: Place): Validity =>
  named ? ALWAYS : { from: ctx.now, until: nextLocalMidnight(ctx.now, place.timeZone) };

/**
 * The key of a live answer that may be kept: for a point, the point, its zone (given or found), the calculation and
 * the day are all it depends on (the nearest place and the defaults follow from the point); for a catalog place, the
 * place instead of the point. Catalog places are left to the store and its rules while there is one, or one that
 * cannot be read (it must answer 503, not a kept answer); a server without any computes them live, and keeps them.
 */
function liveAnswerKey(ctx: RequestContext, place: Place, what: string, calc: Calculation, when: string): string | undefined {
  if (place.placeId && (ctx.store || ctx.storeProblem !== undefined)) return undefined;
  return `${what}|${baseOf(ctx)}|${place.placeId ?? ''}@${place.latitude},${place.longitude}|${place.timeZone}|${calc.method.id}|${calc.madhab}|${when}`;
}

function route<P extends ParamSpecs>(r: Route<P>): Route<P> {
  return r;
}

export const ROUTES = [
  route({
    path: '/api/v1/times',
    operationId: 'getPrayerTimes',
    summary: 'Prayer times for one day',
    description:
      'The seven times (imsak to isha) of one local day at a city or a point, with their UTC instants, the extras, the Hijri date and which times were estimated at high latitude.',
    params: { ...calculationParams, date: dateParam('The day', "today in the place's time zone") },
    rules: LOCATION_RULES,
    response: 'DailyResponse',
    handle(p, ctx) {
      const place = resolvePlace(p, ctx.catalog);
      const calc = calculationFor(p, place);
      const date = p.date !== undefined ? (parseDate(p.date) as CalendarDate) : localDate(ctx.now, place.timeZone);
      if (!localDateExists(date, place.timeZone)) {
        throw new ApiError('invalid_parameter', `date ${formatDate(date)} does not exist in ${place.timeZone}: its clocks skipped that day (they crossed the date line). Ask for the day before or after.`);
      }
      const holds = validity(p.date !== undefined, ctx, place);
      const key = storedAnswerKey(ctx, place, 'times', calc, formatDate(date));
      const cached = storedAnswer(key, ctx.now);
      if (cached) return cached.heldFor(holds);
      const liveKey = liveAnswerKey(ctx, place, 'times', calc, formatDate(date));
      const kept = liveKey === undefined ? undefined : cachedLiveBody(liveKey);
      if (kept) {
        countAnswer(false);
        return kept.heldFor(holds);
      }
      // Stored or live, the day comes as a series, written out as JSON bytes by one function (dayBody.ts).
      const { series, imsakIsFajr, fromStore } = daySeries(ctx, place, calc.method, calc.madhab, date, 1, true);
      const head = { location: place.location, method: methodObject(calc.method), madhab: calc.madhab, timeZone: place.timeZone };
      const bytes = dayBytes(head, series, imsakIsFajr);
      if (key && fromStore) return keepRendered(key, new RenderedBody(bytes, ALWAYS)).heldFor(holds);
      // A catalog place's answer is kept at once; a point's the second time it is asked (askedBefore.ts).
      if (liveKey && (place.placeId || askedBefore(liveKey))) return keepLiveBody(liveKey, new RenderedBody(bytes, ALWAYS, 'live')).heldFor(holds);
      // Otherwise held for this request alone (a catalog place computed live beside a store that lacks it, a point
      // asked for the first time).
      return new RenderedBody(bytes, { from: ctx.now, until: ctx.now }, 'live');
    },
  }),
  route({
    path: '/api/v1/month',
    operationId: 'getMonthlyTimetable',
    summary: 'Timetable for one month',
    description: "Every day of a month at a city or a point. year and month default to the current ones in the place's time zone.",
    params: {
      ...calculationParams,
      year: {
        type: 'integer',
        minimum: MIN_DATE.year,
        maximum: MAX_DATE.year,
        description: `Year, ${MIN_DATE.year} to ${MAX_DATE.year}. Default: the current year in the place's time zone.`,
      },
      month: { type: 'integer', minimum: 1, maximum: 12, description: "Month, 1 to 12. Default: the current month in the place's time zone." },
    } satisfies ParamSpecs & Record<'year' | 'month', NumberParam>,
    rules: LOCATION_RULES,
    response: 'MonthResponse',
    handle(p, ctx) {
      const place = resolvePlace(p, ctx.catalog);
      const calc = calculationFor(p, place);
      const today = localDate(ctx.now, place.timeZone);
      const year = p.year ?? today.year;
      const month = p.month ?? today.month;
      const holds = validity(p.year !== undefined && p.month !== undefined, ctx, place);
      const key = storedAnswerKey(ctx, place, 'month', calc, `${year}-${month}`);
      const cached = storedAnswer(key, ctx.now);
      if (cached) return cached.heldFor(holds);
      // Stored or live, the month's days come as series, written out as JSON bytes by one function (monthBody.ts).
      const { series, imsakIsFajr, fromStore } = daySeries(ctx, place, calc.method, calc.madhab, { year, month, day: 1 }, daysInMonth(year, month), false);
      const head = { location: place.location, method: methodObject(calc.method), madhab: calc.madhab, timeZone: place.timeZone, year, month };
      const bytes = monthBytes(head, series, imsakIsFajr);
      if (key && fromStore) return keepRendered(key, new RenderedBody(bytes, ALWAYS)).heldFor(holds);
      // A month computed live holds for this request alone, and is not kept: a point's month (10 KB) is seldom asked
      // again, and would crowd out the kept answers.
      return new RenderedBody(bytes, { from: ctx.now, until: ctx.now }, 'live');
    },
  }),
  route({
    path: '/api/v1/next',
    operationId: 'getNextPrayer',
    summary: 'The next prayer from now',
    description:
      'The next of fajr, sunrise, dhuhr, asr, maghrib and isha after the current instant, with the seconds left, and the previous one.',
    params: calculationParams,
    rules: LOCATION_RULES,
    response: 'NextPrayerResponse',
    handle(p, ctx) {
      const place = resolvePlace(p, ctx.catalog);
      const calc = calculationFor(p, place);
      const now = Math.floor(ctx.now / 1000) * 1000;
      const today = localDate(now, place.timeZone);
      const { prayers, fromStore } = prayersAround(ctx, place, calc.method, calc.madhab, today, storedAnswerKey(ctx, place, 'next', calc, formatDate(today)));
      const next = prayers.find((x) => x.at > now);
      const previous = prayers.findLast((x) => x.at <= now);
      if (!next) throw new Error('no prayer within the next day');
      const body = {
        location: place.location,
        now: new Date(now).toISOString().replace('.000Z', 'Z'),
        next: { prayer: next.prayer, time: next.time, iso: next.iso, inSeconds: (next.at - now) / 1000 },
        previous: previous
          ? { prayer: previous.prayer, time: previous.time, iso: previous.iso, secondsAgo: (now - previous.at) / 1000 }
          : null,
      };
      // It counts whole seconds, so it holds until the next one (a prayer, a whole minute, begins only on a second):
      // a catalog place's is kept that long, for the requests of this second. A point's is not: a point is seldom
      // asked twice within a second, and its answers would crowd out the kept ones.
      return place.placeId ? new RenderedBody(JSON.stringify(body), { from: now, until: now + 1000 }, fromStore ? 'store' : 'live') : body;
    },
  }),
  route({
    path: '/api/v1/qibla',
    operationId: 'getQibla',
    summary: 'Qibla bearing and distance to the Kaaba',
    description: 'Great-circle initial bearing from true north to the Kaaba, and the WGS-84 distance in kilometres.',
    params: { city: cityParam, lat: latParam, lon: lonParam },
    rules: LOCATION_RULES,
    response: 'QiblaResponse',
    handle(p, ctx) {
      const place = resolvePlace(p, ctx.catalog);
      // Kept: the answer depends on the place alone (a catalog place, or a point with what follows from it).
      const key = `qibla|${baseOf(ctx)}|${place.placeId ?? `${place.latitude},${place.longitude}`}`;
      const kept = cachedLiveBody(key);
      if (kept) return kept;
      const body = { location: place.location, bearing: qiblaBearing(place.latitude, place.longitude), distanceKm: distanceToKaabaKm(place.latitude, place.longitude) };
      // A catalog place's answer is kept at once; a point's the second time it is asked (askedBefore.ts).
      return place.placeId || askedBefore(key) ? keepLiveBody(key, body, 'none') : body;
    },
  }),
  route({
    path: '/api/v1/cities',
    operationId: 'searchCities',
    summary: 'Search cities and Turkish districts',
    description:
      'Places whose name or alternate name matches q, best first: exact before prefix, then by population; a place and its ' +
      'region or country may be written in either order without a comma. Then, to fill the list, names one or two edits ' +
      'away (a typo), by closeness and population.',
    params: {
      q: { type: 'string', required: true, minLength: 2, maxLength: 100, description: 'What to search for, at least 2 characters.' },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'How many places at most, 1 to 50.' },
    },
    response: 'CitySearchResponse',
    handle(p, ctx) {
      if (!ctx.catalog) throw new ApiError('service_unavailable', 'City search is not available: the place catalog has not been built.');
      const query = p.q!;
      // Kept: the catalog does not change while the server runs, so the query and the limit say it all.
      const key = `cities|${baseOf(ctx)}|${p.limit}|${query}`;
      return cachedLiveBody(key) ?? keepLiveBody(key, { query, cities: ctx.catalog.searchPlaces(query, p.limit!, 'contract').map((found) => ctx.catalog!.location(found.place)) }, 'none');
    },
  }),
  route({
    path: '/api/v1/hijri',
    operationId: 'getHijriDate',
    summary: 'Hijri (Umm al-Qura) date of a Gregorian date',
    description: 'The Umm al-Qura date of a Gregorian day, from the ICU calendar islamic-umalqura.',
    params: { date: dateParam('The Gregorian day', 'today in UTC') },
    response: 'HijriResponse',
    handle(p, ctx) {
      const date = p.date !== undefined ? (parseDate(p.date) as CalendarDate) : localDate(ctx.now, 'UTC');
      const hijri = hijriDateDetail(date);
      return { date: formatDate(date), hijri, calendar: 'umm-al-qura' };
    },
  }),
] as const;

export const ROUTES_BY_PATH: ReadonlyMap<string, Route> = new Map(ROUTES.map((r) => [r.path, r as unknown as Route]));
