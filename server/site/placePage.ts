// A place's page: today's times with the next prayer marked and counted down, the month's timetable, the qibla, the
// method and madhab with a form to change them, nearby places, the other language, the calendar feed and the API
// call that gives the same data. Every time on it is the API's answer for the same place, day, method and madhab
// (ctx.data.answer: the same route and handler), so a page and the API never disagree.
import type { StoredPlace } from '../../pipeline/catalog/catalogFile.js';
import { addDays, formatDate, parseDate, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { isoInstant, localNoon, nextLocalMidnight } from '../../pipeline/zones/localTime.js';
import { METHODS } from '../../pipeline/astronomy/methods.js';
import { defaultMadhab, defaultMethodId } from '../../pipeline/astronomy/countryDefaults.js';
import { ApiError } from '../errors.js';
import { LANGUAGE_HOME_PATH, PLACE_PAGE_PREFIX, placePagePath, RAMADAN_PAGE_PREFIX, ramadanPagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { html, type Html } from '../web/html.js';
import { page, type Crumb } from './layout.js';
import { chosenCalculation, EVENT_NAMES as EVENTS, EXTRA_NAMES, mergedImsak, NEXT_PRAYERS, shownTimeNames, type DailyView, type MonthView, type NextView, type QiblaView, type TimeName } from './placeView.js';
import { nearMe } from './nearPage.js';
import { embedOffer, embedSnippet } from './embedSnippet.js';
import { qiblaCompass } from './qiblaCompass.js';
import { calendarSection } from './calendarChoice.js';
import { placeLabel, placeWhere } from './placeNames.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { countryName, longDate, monthTitle, shortDay, WORDS } from './words.js';

const NEARBY_COUNT = 10;
const MONTH_PARAMETER = /^(\d{4})-(\d{2})$/;

/** The breadcrumb of a site path: home, country, region, place (as far as the path goes). */
export function crumbsOf(language: SiteLanguage, segments: readonly { path: string; name: string }[]): Crumb[] {
  return [{ name: WORDS[language].home, path: LANGUAGE_HOME_PATH[language] }, ...segments.map((s) => ({ name: s.name, path: placePagePath(language, s.path) }))];
}

/** Home, country, region (left out where the sources name none: Tromsø is in Norway), place. */
export function placeCrumbs(language: SiteLanguage, place: StoredPlace): Crumb[] {
  const [country, region] = place.path.split('/');
  return crumbsOf(language, [
    { path: country, name: countryName(place.country, language) },
    ...(place.region ? [{ path: `${country}/${region}`, name: place.region }] : []),
    { path: place.path, name: placeLabel(place) },
  ]);
}

/** `?month=YYYY-MM`, checked; undefined when not asked. */
function monthAsked(text: string | undefined): { year: number; month: number } | undefined {
  if (text === undefined) return undefined;
  const m = MONTH_PARAMETER.exec(text.trim());
  const year = m ? Number(m[1]) : NaN;
  const month = m ? Number(m[2]) : NaN;
  if (!m || month < 1 || month > 12 || year < 1900 || year > 2100) {
    throw new ApiError('invalid_parameter', 'month must be a month YYYY-MM from 1900-01 to 2100-12.');
  }
  return { year, month };
}

export const hijriText = (h: { day: number; month: number; year: number }, language: SiteLanguage): string =>
  `${h.day} ${WORDS[language].hijriMonths[h.month - 1]} ${h.year}`;

function shiftMonth(year: number, month: number, by: number): string {
  const index = year * 12 + (month - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function placePage(request: SiteRequest, ctx: SiteContext, catalog: PlaceCatalog, place: StoredPlace, language: SiteLanguage): SitePage {
  const w = WORDS[language];
  const { now, base, query } = request;
  const choice = chosenCalculation(query);
  const asked = monthAsked(query.get('month') || undefined);
  const at = { city: place.path, ...choice };
  const today = ctx.data.answer('getPrayerTimes', at, now) as unknown as DailyView;
  const todayDate = parseDate(today.date) as CalendarDate;
  const tomorrow = ctx.data.answer('getPrayerTimes', { ...at, date: formatDate(addDays(todayDate, 1)) }, now) as unknown as DailyView;
  const shown = asked ?? { year: todayDate.year, month: todayDate.month };
  const month = ctx.data.answer('getMonthlyTimetable', { ...at, year: String(shown.year), month: String(shown.month) }, now) as unknown as MonthView;
  const next = (ctx.data.answer('getNextPrayer', at, now) as unknown as NextView).next;
  const qibla = ctx.data.answer('getQibla', { city: place.path }, now) as unknown as QiblaView;

  const country = countryName(place.country, language);
  const path = placePagePath(language, place.path);
  const alternates = { tr: placePagePath('tr', place.path), en: placePagePath('en', place.path) };
  const variant = Object.keys(choice).length > 0 || asked !== undefined;
  const withQuery = (extra: Record<string, string>): string => {
    const q = new URLSearchParams({ ...choice, ...extra }).toString();
    return q ? `${path}?${q}` : path;
  };
  const nextAt = Date.parse(next.iso);
  const todayEnds = nextLocalMidnight(now, today.timeZone);
  const pageHref = withQuery(asked ? { month: shiftMonth(asked.year, asked.month, 0) } : {});
  // Imsak and fajr as one row where they are one instant on every day the page shows (placeView.ts).
  const merged = mergedImsak([today, tomorrow, ...month.days], today.method.id);
  const shownTimes = shownTimeNames(merged);
  const timeName = (name: TimeName): string => w.times[merged && (name === 'imsak' || name === 'fajr') ? merged : name];
  // Slashes of the site path stay readable in the curl (they need no escaping in a query).
  const apiQuery = new URLSearchParams({ city: place.path, ...choice }).toString().replace(/%2F/g, '/');

  // A day's date (in the lede) and its times, extras and notes: today's on the page, tomorrow's in a <template> that
  // countdown.js puts in place at the place's midnight (data-ends), so a page left open never shows yesterday as today.
  const dayDate = (day: DailyView): Html =>
    html`<span data-day-part="date"> · ${longDate(day.date, language)} · <span lang="${language}">${hijriText(day.hijri, language)}</span></span>`;
  const dayTimes = (day: DailyView, ends: number, nextIso: string | undefined): Html => {
    const rows = shownTimes.map((name) => {
      // The times the countdown counts carry their instant; one "İmsak" row counts as fajr (the same instant).
      const counted: TimeName | undefined = name === merged ? 'fajr' : NEXT_PRAYERS.includes(name) ? name : undefined;
      const iso = day.iso[counted ?? name];
      const isNext = counted !== undefined && iso === nextIso;
      return html`<tr${counted && html` data-at="${iso}" data-name="${w.times[name]}"${EVENTS.includes(name) && html` data-event`}`}${isNext && html` class="next" aria-current="time"`}>
<th scope="row">${w.times[name]}</th><td><time datetime="${iso}">${day.times[name]}</time></td></tr>`;
    });
    const extras = EXTRA_NAMES.filter((name) => day.extras[name] !== undefined);
    return html`<div class="day" data-day-part="times" data-date="${day.date}" data-ends="${isoInstant(ends)}">
<table class="today-times">
<caption>${w.today}: ${longDate(day.date, language)}</caption>
<thead><tr><th scope="col">${w.prayer}</th><th scope="col">${w.time}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${day.estimated.length > 0 && html`<p class="note">${w.estimatedNote} ${[...new Set(day.estimated.map(timeName))].join(', ')}</p>`}
${extras.length > 0 && html`<h2>${w.extrasHeading}</h2>
<dl class="facts">${extras.map((name) => html`<dt>${w.extras[name]}</dt><dd>${day.extras[name]}</dd>`)}</dl>`}
</div>`;
  };

  // Each day of the month with the instant it ends (the zone's next local midnight) and the body with the instant the
  // first begins: a copy kept for use offline marks today's row past the two days it holds (countdown.js).
  const dayEnds = (date: string): number => nextLocalMidnight(localNoon(parseDate(date) as CalendarDate, today.timeZone), today.timeZone);
  const monthStarts = month.days.length > 0 ? nextLocalMidnight(localNoon(addDays(parseDate(month.days[0].date) as CalendarDate, -1), today.timeZone), today.timeZone) : undefined;
  const monthRows = month.days.map((day) => {
    const isToday = day.date === today.date;
    return html`<tr data-ends="${isoInstant(dayEnds(day.date))}"${isToday && html` class="today" aria-current="date"`}><th scope="row"><time datetime="${day.date}">${shortDay(day.date, language)}</time></th><td>${hijriText(day.hijri, language)}</td>${shownTimes.map((name) => html`<td>${day.times[name]}${day.estimated.includes(name) && html`<sup class="estimated">*</sup>`}</td>`)}</tr>`;
  });
  const monthEstimated = month.days.some((day) => shownTimes.some((name) => day.estimated.includes(name)));

  const nearby = catalog.nearby(place, NEARBY_COUNT);

  const main = html`<h1>${w.prayerTimesIn(placeLabel(place))}</h1>
<p class="lede">${placeWhere(place, language)}${dayDate(today)}</p>
<p id="next-prayer" class="next-prayer" data-label-prayer="${w.nextPrayer}" data-label-event="${w.nextEvent}"><span class="next-label">${EVENTS.includes(next.prayer) ? w.nextEvent : w.nextPrayer}</span>: <strong class="next-name">${timeName(next.prayer)}</strong> <time datetime="${next.iso}">${next.time}</time><span class="next-in" hidden>, ${w.nextPrayerIn} <span class="next-left" role="timer" aria-live="off"></span></span></p>
<p id="reload-prompt" class="reload-prompt" role="status" hidden>${w.outOfDate} <a href="${pageHref}">${w.reload}</a></p>
<p id="offline-today" class="reload-prompt" role="status" hidden>${w.offlineTodayInMonth}</p>
${dayTimes(today, todayEnds, next.iso)}
<template id="next-day">${dayDate(tomorrow)}${dayTimes(tomorrow, nextLocalMidnight(todayEnds, today.timeZone), undefined)}</template>
<section class="month-section" aria-labelledby="month-heading">
<h2 id="month-heading">${w.monthlyTimetable(monthTitle(month.year, month.month, language))} · ${place.name}</h2>
<p class="print-only">${placeLabel(place)}, ${placeWhere(place, language)} · ${w.method}: ${today.method.name} · ${w.madhab}: ${w.madhabs[today.madhab]} · ${base}${pageHref}</p>
<nav class="month-nav" aria-label="${w.monthlyTimetable(monthTitle(month.year, month.month, language))}">
<a href="${withQuery({ month: shiftMonth(month.year, month.month, -1) })}" rel="nofollow">← ${w.previousMonth}</a>
<a href="${withQuery({ month: shiftMonth(month.year, month.month, 1) })}" rel="nofollow">${w.nextMonth} →</a>
</nav>
<div class="table-wrap" role="region" aria-labelledby="month-heading" tabindex="0">
<table class="month">
<thead><tr><th scope="col">${w.date}</th><th scope="col">${w.hijriDate}</th>${shownTimes.map((name) => html`<th scope="col">${w.times[name]}</th>`)}</tr></thead>
<tbody${monthStarts !== undefined && html` data-starts="${isoInstant(monthStarts)}"`}>
${monthRows}
</tbody>
</table>
</div>
${monthEstimated && html`<p class="note">${w.estimatedDaysNote}</p>`}
</section>
<p><a href="${ramadanPagePath(language, place.path)}${Object.keys(choice).length > 0 ? `?${new URLSearchParams(choice)}` : ''}">${w.ramadanLink}</a></p>
${qiblaCompass(language, qibla)}
<h2>${w.calculation}</h2>
<p>${w.method}: ${today.method.name} · ${w.madhab}: ${w.madhabs[today.madhab]} · ${w.timeZone}: ${today.timeZone} · ${w.coordinates}: ${place.latitude}, ${place.longitude}</p>
${choiceForm(language, path, place, choice, asked && `${asked.year}-${String(asked.month).padStart(2, '0')}`)}
<h2>${w.nearby}</h2>
${nearMe(language, place)}
<ul class="list">${nearby.map((p) => html`<li><a href="${placePagePath(language, p.path)}">${placeLabel(p)}</a> <span class="note">${p.region || countryName(p.country, language)}</span></li>`)}</ul>
${calendarSection(base, language, place.path, choice)}
${embedOffer(language, embedSnippet(base, language, place.path, w.prayerTimesIn(placeLabel(place)), choice))}
<h2>${w.sameInApi}</h2>
<p>${w.apiNote}</p>
<pre><code>curl -H "Authorization: Bearer $KEY" '${base}/api/v1/times?${apiQuery}'</code></pre>
<p><a href="${alternates[language === 'tr' ? 'en' : 'tr']}" hreflang="${language === 'tr' ? 'en' : 'tr'}" lang="${language === 'tr' ? 'en' : 'tr'}">${WORDS[language === 'tr' ? 'en' : 'tr'].prayerTimesIn(place.name)}</a></p>`;

  return {
    status: 200,
    body: page(base, {
      language,
      title: `${w.prayerTimesIn(placeLabel(place))} · ${placeWhere(place, language)}`,
      // Today's times in the description: what a search result and a share preview (og:description) show.
      description: w.placeDescription(placeLabel(place), placeWhere(place, language), longDate(today.date, language), shownTimes.map((name) => `${w.times[name]} ${today.times[name]}`).join(', ')),
      canonicalPath: path,
      alternates,
      crumbs: placeCrumbs(language, place),
      noindex: variant,
      scripts: ['preferences.js', 'countdown.js', 'nearMe.js', 'compass.js', 'copySnippet.js'],
      main,
    }),
    // Rendered again after the next prayer (the marked one changes) and at the place's midnight (a new day).
    validUntil: Math.min(nextAt, todayEnds),
  };
}

/**
 * The GET form that changes the method and madhab (and keeps the month asked for). The default option (an empty
 * value) names what is in effect without a choice, "Diyanet İşleri Başkanlığı, Türkiye (default for Türkiye)", so the
 * select always shows what the page uses. preferences.js remembers the choice on the device (`data-remember` lists the
 * place page and Ramadan timetable prefixes whose links it makes carry the choice). The Ramadan timetable has it too.
 */
export function choiceForm(language: SiteLanguage, action: string, place: StoredPlace, choice: Record<string, string>, month: string | undefined): Html {
  const w = WORDS[language];
  const inEffect = w.defaultFor(countryName(place.country, language));
  // A label that ends in parentheses already ("Standard (Shafi, Maliki, Hanbali)") gets the note after a dash.
  const withDefault = (label: string): string => (label.endsWith(')') ? `${label} — ${inEffect}` : `${label} (${inEffect})`);
  const defaultMethod = METHODS.find((m) => m.id === defaultMethodId(place.country));
  const option = (value: string, label: string, selected: boolean): Html => html`<option value="${value}"${selected && html` selected`}>${label}</option>`;
  return html`<form class="choose" action="${action}" method="get" data-remember="${SITE_LANGUAGES.flatMap((l) => [PLACE_PAGE_PREFIX[l], RAMADAN_PAGE_PREFIX[l]]).join(' ')}">
<div><label for="method">${w.method}</label>
<select id="method" name="method">${option('', withDefault(defaultMethod?.name ?? w.defaultChoice), !choice.method)}${METHODS.map((m) => option(m.id, m.name, choice.method === m.id))}</select></div>
<div><label for="madhab">${w.madhab}</label>
<select id="madhab" name="madhab">${option('', withDefault(w.madhabs[defaultMadhab(place.country)]), !choice.madhab)}${(['shafi', 'hanafi'] as const).map((m) => option(m, w.madhabs[m], choice.madhab === m))}</select></div>
${month && html`<input type="hidden" name="month" value="${month}">`}
<button type="submit">${w.apply}</button>
</form>`;
}
