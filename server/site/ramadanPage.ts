// A place's Ramadan timetable (imsakiye): `/tr/imsakiye/{path}` and `/en/ramadan/{path}`. The Ramadan the place's
// local today falls in, or else the next one, by the Umm al-Qura calendar (pipeline/astronomy/ramadan.ts); one row per
// day with the Hijri day, the date, imsak (suhoor ends) and maghrib (iftar) emphasised, and the other times. Every
// row is the API's /times answer for that date (ctx.data.answer: the same route and handler), so the page and the API
// never disagree. From the eve of the first fast to the last iftar the next suhoor or iftar is named (and counted
// down by ramadan.js); today's row is marked. `?method=` and `?madhab=` as on the place page (noindex variants).
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { ramadanOf } from '../../pipeline/astronomy/ramadan.js';
import { addDays, formatDate, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { isoInstant, localDate, localNoon, nextLocalMidnight } from '../../pipeline/zones/localTime.js';
import { ApiError } from '../errors.js';
import { LANGUAGE_HOME_PATH, placePagePath, RAMADAN_PAGE_PREFIX, ramadanPagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { directoryOf } from '../places/placeDirectory.js';
import { html, type Html } from '../web/html.js';
import { withCountrySlug } from './countryAliases.js';
import { page } from './layout.js';
import { choiceForm, placeCrumbs } from './placePage.js';
import { canonicalPlacePath } from './placePages.js';
import { placeLabel, placeWhere } from './placeNames.js';
import { chosenCalculation, TIME_NAMES, type DailyView, type TimeName } from './placeView.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { dayAndMonth, longDate, shortWeekday, WORDS } from './words.js';

const REDIRECT_VALID_MS = 3_600_000;
/** The two times the fast turns on: imsak begins it (suhoor ends), maghrib ends it (iftar). */
const FAST: Readonly<Partial<Record<TimeName, 'suhoor' | 'iftar'>>> = { imsak: 'suhoor', maghrib: 'iftar' };

interface RamadanDay {
  answer: DailyView;
  /** The place's local midnights that begin and end the date (UTC ms). */
  starts: number;
  ends: number;
}

/** The first instant of a local date and the first of the next (a DST change may move either from 00:00). */
function dayBounds(date: CalendarDate, zone: string): { starts: number; ends: number } {
  return { starts: nextLocalMidnight(localNoon(addDays(date, -1), zone), zone), ends: nextLocalMidnight(localNoon(date, zone), zone) };
}

/** "2027", or "2030–2031" for a Ramadan that begins in December. */
function gregorianYears(first: string, last: string): string {
  return first.slice(0, 4) === last.slice(0, 4) ? first.slice(0, 4) : `${first.slice(0, 4)}–${last.slice(0, 4)}`;
}

export function ramadanPage(request: SiteRequest, ctx: SiteContext, place: StoredPlace, language: SiteLanguage): SitePage {
  const w = WORDS[language];
  const { now, base, query } = request;
  const choice = chosenCalculation(query);
  const zone = place.timeZone;
  const today = localDate(now, zone);
  const span = ramadanOf(today);
  const days: RamadanDay[] = [];
  for (let i = 0; i < span.days; i++) {
    const date = addDays(span.first, i);
    const answer = ctx.data.answer('getPrayerTimes', { city: place.path, ...choice, date: formatDate(date) }, now) as unknown as DailyView;
    days.push({ answer, ...dayBounds(date, zone) });
  }
  const first = days[0].answer;
  const last = days[days.length - 1].answer;
  const todayText = formatDate(today);

  // Fajr gets a column of its own only where it is not imsak's instant (Diyanet's and the UAE's are one).
  const withFajr = days.some((d) => d.answer.times.fajr !== d.answer.times.imsak);
  const columns = TIME_NAMES.filter((name) => name !== 'fajr' || withFajr);

  // The next suhoor's end or iftar, from the eve of the first fast (its local midnight) to the last iftar.
  const eve = dayBounds(addDays(span.first, -1), zone).starts;
  const events = days
    .flatMap((d) => [
      { kind: 'suhoor' as const, iso: d.answer.iso.imsak, time: d.answer.times.imsak },
      { kind: 'iftar' as const, iso: d.answer.iso.maghrib, time: d.answer.times.maghrib },
    ])
    .sort((a, b) => Date.parse(a.iso) - Date.parse(b.iso));
  const next = now >= eve ? events.find((e) => Date.parse(e.iso) > now) : undefined;
  const firstEvent = events[0];
  const shownEvent = next ?? firstEvent;

  const path = ramadanPagePath(language, place.path);
  const alternates = { tr: ramadanPagePath('tr', place.path), en: ramadanPagePath('en', place.path) };
  const variantQuery = new URLSearchParams(choice).toString();
  const pageHref = variantQuery ? `${path}?${variantQuery}` : path;
  const placeHref = variantQuery ? `${placePagePath(language, place.path)}?${variantQuery}` : placePagePath(language, place.path);
  const other: SiteLanguage = language === 'tr' ? 'en' : 'tr';
  const title = w.ramadanTitle(placeLabel(place), gregorianYears(first.date, last.date), span.hijriYear);
  const spanText = w.ramadanSpan(span.hijriYear, longDate(first.date, language), longDate(last.date, language), span.days);
  const estimated = days.some((d) => d.answer.estimated.length > 0);

  const cell = (day: DailyView, name: TimeName): Html => {
    const fast = FAST[name];
    const mark = day.estimated.includes(name) && html`<sup class="estimated">*</sup>`;
    return html`<td${fast && html` class="fast"`}><time datetime="${day.iso[name]}"${fast && html` data-fast="${fast}"`}>${day.times[name]}</time>${mark}</td>`;
  };
  const rows = days.map(({ answer: day, starts, ends }) => {
    const isToday = day.date === todayText;
    return html`<tr data-starts="${isoInstant(starts)}" data-ends="${isoInstant(ends)}"${isToday && html` class="today" aria-current="date"`}><th scope="row">${day.hijri.day}</th><td><time datetime="${day.date}">${dayAndMonth(day.date, language)}</time> <span class="weekday">${shortWeekday(day.date, language)}</span></td>${columns.map((name) => cell(day, name))}</tr>`;
  });
  const heading = (name: TimeName): Html => {
    const fast = FAST[name];
    return fast
      ? html`<th scope="col" class="fast">${w.times[name]} <span class="col-note">${fast === 'suhoor' ? w.suhoorEnds : w.iftar}</span></th>`
      : html`<th scope="col">${w.times[name]}</th>`;
  };

  const main = html`<h1>${title}</h1>
<p class="lede">${placeWhere(place, language)}</p>
<p id="ramadan-next" class="next-prayer" data-from="${isoInstant(eve)}" data-label-suhoor="${w.nextSuhoor}" data-label-iftar="${w.nextIftar}"${!next && html` hidden`}><span class="next-label">${shownEvent.kind === 'suhoor' ? w.nextSuhoor : w.nextIftar}</span>: <time datetime="${shownEvent.iso}">${shownEvent.time}</time><span class="next-in" hidden>, ${w.nextPrayerIn} <span class="next-left" role="timer" aria-live="off"></span></span></p>
<p id="reload-prompt" class="reload-prompt" role="status" hidden>${w.outOfDate} <a href="${pageHref}">${w.reload}</a></p>
<section class="ramadan-section" aria-labelledby="ramadan-heading">
<h2 id="ramadan-heading">${spanText}</h2>
<p class="print-only">${placeLabel(place)}, ${placeWhere(place, language)} · ${w.method}: ${first.method.name} · ${w.madhab}: ${w.madhabs[first.madhab]} · ${base}${pageHref}</p>
<div class="table-wrap" role="region" aria-labelledby="ramadan-heading" tabindex="0">
<table class="ramadan" data-ends="${isoInstant(days[days.length - 1].ends)}">
<thead><tr><th scope="col"><span class="column-name">${w.ramadanDay}</span><span class="column-sign" aria-hidden="true">☾</span></th><th scope="col">${w.date}</th>${columns.map(heading)}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
${estimated && html`<p class="note">${w.estimatedDaysNote}</p>`}
<p class="note">${w.ramadanCalendarNote}</p>
</section>
<h2>${w.calculation}</h2>
<p>${w.method}: ${first.method.name} · ${w.madhab}: ${w.madhabs[first.madhab]} · ${w.timeZone}: ${first.timeZone} · ${w.coordinates}: ${place.latitude}, ${place.longitude}</p>
${choiceForm(language, path, place, choice, undefined)}
<p><a href="${placeHref}">${w.prayerTimesIn(placeLabel(place))}</a></p>
<p><a href="${alternates[other]}" hreflang="${other}" lang="${other}">${WORDS[other].ramadanTitle(placeLabel(place), gregorianYears(first.date, last.date), span.hijriYear)}</a></p>`;

  const todayEnds = nextLocalMidnight(now, zone);
  return {
    status: 200,
    body: page(base, {
      language,
      title: `${title} · ${placeWhere(place, language)}`,
      description: w.ramadanDescription(placeLabel(place), placeWhere(place, language), span.hijriYear, longDate(first.date, language), span.days, first.times.imsak, first.times.maghrib),
      canonicalPath: path,
      alternates,
      crumbs: [...placeCrumbs(language, place), { name: w.ramadanDay, path }],
      noindex: Object.keys(choice).length > 0,
      scripts: ['preferences.js', 'ramadan.js'],
      main,
    }),
    // Rendered again at the next suhoor or iftar (the one named changes) and at the place's midnight (today's row, and
    // after the last day the next Ramadan).
    validUntil: next ? Math.min(Date.parse(next.iso), todayEnds) : todayEnds,
  };
}

function redirect(location: string, now: number): SitePage {
  return { status: 301, body: '', location, validUntil: now + REDIRECT_VALID_MS };
}

/** The place a path under a Ramadan prefix names: found as it is, or the canonical path it should be sent to. */
function lookUp(catalog: PlaceCatalog, rest: string): { place: StoredPlace } | { moved: string } | undefined {
  const place = catalog.byPath(rest);
  if (place) return { place };
  // Another spelling (case, slashes, percent-encoding), the path before the slug rule changed, the country's name.
  const canonical = canonicalPlacePath(rest);
  const found = (canonical !== rest ? catalog.byPath(canonical) : undefined) ?? catalog.byFormerPath(canonical);
  if (found) return { moved: found.path };
  const renamed = withCountrySlug(directoryOf(catalog), canonical);
  return renamed && catalog.byPath(renamed) ? { moved: renamed } : undefined;
}

/** Everything under the Ramadan prefixes: a place's timetable, a 301 to its canonical path, else the 404. */
export function ramadanPages(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  for (const language of SITE_LANGUAGES) {
    const prefix = RAMADAN_PAGE_PREFIX[language];
    if (request.path === prefix || request.path === `${prefix}/`) return redirect(`${request.base}${LANGUAGE_HOME_PATH[language]}`, request.now);
    if (!request.path.startsWith(`${prefix}/`)) continue;
    const catalog = ctx.catalog;
    if (!catalog) throw new ApiError('service_unavailable', 'The place catalog has not been built yet; try again in a minute.');
    const found = lookUp(catalog, request.path.slice(prefix.length + 1));
    if (!found) return undefined;
    if ('place' in found) return ramadanPage(request, ctx, found.place, language);
    const search = new URLSearchParams([...request.query].filter(([name]) => name === 'method' || name === 'madhab')).toString();
    return redirect(`${request.base}${ramadanPagePath(language, found.moved)}${search && `?${search}`}`, request.now);
  }
  return undefined;
}
