// A place's calendar subscription: its page's URL with `.ics` (`/en/prayer-times/turkey/istanbul/kadikoy.ics`), the
// six prayers of the next 12 months from the place's local today as events at their UTC instants, named in the
// page's language. `?method=` and `?madhab=` as on the page (the API validates them); `?alarm=N` adds a reminder N
// minutes before every event. The times are the API's: 13 month answers (wallClock.ts turns their `HH:mm` into
// instants), not 366 day answers.
import { addDays, fromEpochDay, toEpochDay, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { localDate, localNoon, nextLocalMidnight } from '../../pipeline/zones/localTime.js';
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { ApiError } from '../errors.js';
import { CALENDAR_SUFFIX, PLACE_PAGE_PREFIX, placeCalendarUrl, placePageUrl, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { writeCalendar, type CalendarEvent } from './icalendar.js';
import type { SiteContext } from './siteContext.js';
import { decodeLeniently, type SitePage, type SiteRequest } from './sitePage.js';
import { DAY_PRAYERS, prayerInstants, type DayPrayer } from './wallClock.js';
import { placeLabel, placeWhere } from './placeNames.js';
import { WORDS } from './words.js';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
/** The parameters of the page the feed passes on to the API. */
const FEED_PARAMETERS = ['method', 'madhab'] as const;
/**
 * How long an event lasts: about the time a prayer takes, so a calendar draws a block one can see and tap (an
 * instant is a hairline in most week views), never running into the next event where two come sooner.
 */
const EVENT_MS = 15 * 60_000;
/** `?alarm=`: whole minutes before the event, as a calendar's own reminder choices go (two hours at most). */
export const MAX_ALARM_MINUTES = 120;
const ALARM = /^\d{1,3}$/;

/** `method` and `madhab` as the page reads them: an empty value (the form's default choice) is the default. */
function feedParameters(query: ReadonlyMap<string, string>): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const name of FEED_PARAMETERS) {
    const value = query.get(name);
    if (value !== undefined && value !== '') parameters[name] = value;
  }
  return parameters;
}

/**
 * `?alarm=`: whole minutes from 0 to 120, or undefined when absent or empty (the form's "no reminder"); anything
 * else is the contract's 400.
 */
export function alarmMinutes(query: ReadonlyMap<string, string>): number | undefined {
  const text = query.get('alarm')?.trim();
  if (text === undefined || text === '') return undefined;
  const minutes = ALARM.test(text) ? Number(text) : NaN;
  if (!(minutes <= MAX_ALARM_MINUTES)) {
    throw new ApiError('invalid_parameter', `alarm must be a whole number of minutes from 0 to ${MAX_ALARM_MINUTES}.`);
  }
  return minutes;
}

/** The feed's own query: the page's choice and the reminder, as asked (and as the 301 to the canonical path keeps it). */
function feedSearch(parameters: Record<string, string>, alarm: number | undefined): string {
  return new URLSearchParams(alarm === undefined ? parameters : { ...parameters, alarm: String(alarm) }).toString();
}

/** An ISO 8601 duration of whole minutes (seconds dropped): `PT15M`, `PT0S`. */
const minutesDuration = (ms: number): string => (ms < 60_000 ? 'PT0S' : `PT${Math.floor(ms / 60_000)}M`);

interface MonthAnswer {
  method: { id: string };
  madhab: string;
  days: Array<{ date: string; times: Record<DayPrayer, string> }>;
}

/** The same date `months` later (the 29th of February a year on is the 1st of March). */
function monthsLater(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + date.month - 1 + months;
  const first = { year: Math.floor(index / 12), month: (index % 12) + 1, day: 1 };
  return addDays(first, date.day - 1);
}

/** The days from `today` to the same date 12 months later (excluded), as the API's month answers give them. */
export function feedDays(ctx: SiteContext, place: StoredPlace, parameters: Record<string, string>, now: number) {
  const today = localDate(now, place.timeZone);
  const first = toEpochDay(today);
  const end = toEpochDay(monthsLater(today, 12));
  const days: Array<{ epochDay: number; times: Record<DayPrayer, string> }> = [];
  let method = '';
  let madhab = '';
  for (let m = 0; m <= 12; m++) {
    const { year, month } = monthsLater({ ...today, day: 1 }, m);
    const answer = ctx.data.answer('getMonthlyTimetable', { ...parameters, city: place.path, year: String(year), month: String(month) }, now) as unknown as MonthAnswer;
    method = answer.method.id;
    madhab = answer.madhab;
    for (const day of answer.days) {
      const epochDay = toEpochDay({ year: Number(day.date.slice(0, 4)), month: Number(day.date.slice(5, 7)), day: Number(day.date.slice(8, 10)) });
      if (epochDay >= first && epochDay < end) days.push({ epochDay, times: day.times });
    }
  }
  return { days, method, madhab };
}

/** The feed of one place in one language. */
export function calendarOf(request: SiteRequest, ctx: SiteContext, place: StoredPlace, language: SiteLanguage): SitePage {
  const parameters = feedParameters(request.query);
  const alarm = alarmMinutes(request.query);
  const { days, method, madhab } = feedDays(ctx, place, parameters, request.now);
  const host = new URL(request.base).host;
  const w = WORDS[language];
  // Each language's feed, and each reminder, is a calendar of its own: its events must not share a UID with another's
  // (clients that see one UID in two subscriptions keep one event, or refuse the second calendar).
  const uidTail = `${method}-${madhab}-${language}${alarm === undefined ? '' : `-a${alarm}`}@${host}`;
  const starts: Array<{ compact: string; prayer: DayPrayer; start: number }> = [];
  for (const day of days) {
    const instants = prayerInstants(day.epochDay, day.times, place.timeZone);
    const date = fromEpochDay(day.epochDay);
    const compact = `${date.year}${String(date.month).padStart(2, '0')}${String(date.day).padStart(2, '0')}`;
    DAY_PRAYERS.forEach((prayer, i) => starts.push({ compact, prayer, start: instants[i] }));
  }
  const events: CalendarEvent[] = starts.map(({ compact, prayer, start }, i) => {
    const summary = w.times[prayer];
    const untilNext = i + 1 < starts.length ? starts[i + 1].start - start : EVENT_MS;
    return {
      uid: `${place.id}-${compact}-${prayer}-${uidTail}`,
      start,
      duration: minutesDuration(Math.min(EVENT_MS, untilNext)),
      summary,
      alarm: alarm === undefined ? undefined : { minutesBefore: alarm, description: w.calendarAlarm(summary, alarm) },
    };
  });
  const where = `${placeLabel(place)}, ${placeWhere(place, language)}`;
  const pageSearch = new URLSearchParams(parameters).toString();
  const search = feedSearch(parameters, alarm);
  const today = localDate(request.now, place.timeZone);
  const body = writeCalendar({
    prodId: `-//${host}//${WORDS[language].siteName}//${language.toUpperCase()}`,
    name: WORDS[language].prayerTimesIn(place.name),
    description: `${WORDS[language].prayerTimesIn(where)} (${method}, ${madhab})`,
    timeZone: place.timeZone,
    url: placePageUrl(request.base, language, place.path) + (pageSearch && `?${pageSearch}`),
    source: placeCalendarUrl(request.base, language, place.path) + (search && `?${search}`),
    refresh: 'P1D',
    // The start of the local day the feed was made for: every thread renders the same bytes that day (one ETag).
    stamp: nextLocalMidnight(localNoon(addDays(today, -1), place.timeZone), place.timeZone),
    events,
  });
  return { status: 200, body, contentType: CALENDAR_TYPE, validUntil: nextLocalMidnight(request.now, place.timeZone) };
}

/** `{place page}.ics` in either language; an unknown place passes (the place pages answer 404). */
export function calendarFeeds(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (!request.path.endsWith(CALENDAR_SUFFIX)) return undefined;
  for (const language of SITE_LANGUAGES) {
    const prefix = `${PLACE_PAGE_PREFIX[language]}/`;
    if (!request.path.startsWith(prefix)) continue;
    const catalog = ctx.catalog;
    if (!catalog) throw new ApiError('service_unavailable', 'The place catalog has not been built yet; try again in a minute.');
    const placePath = request.path.slice(prefix.length, -CALENDAR_SUFFIX.length);
    const place = catalog.byPath(placePath);
    if (place) return calendarOf(request, ctx, place, language);
    // Another spelling of a known place's path (case, slashes, percent-encoding): its canonical feed.
    const canonical = decodeLeniently(placePath).toLowerCase().split('/').filter((s) => s !== '').join('/');
    // …or the path it had before the slug rule changed (placePaths.ts): subscriptions made then keep working.
    const known = (canonical !== placePath ? catalog.byPath(canonical) : undefined) ?? catalog.byFormerPath(canonical);
    if (!known) return undefined;
    const search = feedSearch(feedParameters(request.query), alarmMinutes(request.query));
    return { status: 301, body: '', location: placeCalendarUrl(request.base, language, known.path) + (search && `?${search}`), validUntil: request.now + 3_600_000 };
  }
  return undefined;
}
