// The widget for mosque and community sites: a place's day (today's times, the next prayer) as a compact page that any
// site may frame, `/embed/tr/{path}` and `/embed/en/{path}`. The times are the API's answers through the same
// operations as the place page (ctx.data.answer), honouring `?method=` and `?madhab=`. `?theme=light|dark` fixes the
// colours (embed.css); without it they follow the visitor's device. It sets no cookie, loads nothing from elsewhere,
// and works without JavaScript: kept and answered like a place page (until the next prayer or the place's midnight),
// and countdown.js, which keeps a place page left open true, does the same here from the same markup (the next time
// and its countdown, tomorrow in a <template>, a reload prompt past what the page holds). Its own 400 and 404 are
// framable too, so a host who mistyped the address sees why in the frame.
import { addDays, formatDate, parseDate, type CalendarDate } from '../../pipeline/zones/calendarDate.js';
import { isoInstant, nextLocalMidnight } from '../../pipeline/zones/localTime.js';
import { ApiError } from '../errors.js';
import { EMBED_PREFIX, embedPagePath, LANGUAGE_HOME_PATH, placePagePath, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { assetHref } from '../web/assets.js';
import { html, type Html } from '../web/html.js';
import { placeAtPath } from './placeAtPath.js';
import { hijriText } from './placePage.js';
import { chosenCalculation, EVENT_NAMES, mergedImsak, NEXT_PRAYERS, shownTimeNames, type DailyView, type NextView, type TimeName } from './placeView.js';
import { placeLabel, placeWhere } from './placeNames.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { longDate, WORDS } from './words.js';

export type WidgetTheme = 'light' | 'dark';
const THEMES: readonly string[] = ['light', 'dark'] satisfies readonly WidgetTheme[];
/** The query parameters the widget reads, and carries on a redirect and into its links. */
const CARRIED = ['method', 'madhab', 'theme'] as const;
const REDIRECT_VALID_MS = 3_600_000;
const NOT_FOUND_SECONDS = 60;

/** The page's document: no header, footer or navigation of the site; not for search engines. */
function widgetDocument(base: string, language: SiteLanguage, theme: WidgetTheme | undefined, title: string, canonicalPath: string, main: Html, script: boolean): Html {
  return html`<!doctype html>
<html lang="${language}"${theme && html` data-theme="${theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="robots" content="noindex, follow">
<link rel="canonical" href="${base}${canonicalPath}">
<link rel="stylesheet" href="${assetHref('site.css')}">
<link rel="stylesheet" href="${assetHref('embed.css')}">
${script && html`<script src="${assetHref('countdown.js')}" defer></script>\n`}</head>
<body>
<main id="main" class="widget">
${main}
</main>
</body>
</html>
`;
}

/** A link out of the frame: a new tab (a host's frame is no place to read a whole page), saying so to screen readers. */
const linkOut = (href: string, text: string, language: SiteLanguage): Html =>
  html`<a href="${href}" target="_blank" rel="noopener">${text}<span class="visually-hidden"> ${WORDS[language].opensInNewTab}</span></a>`;

/** A 400 or 404 in the frame, with a link to the site (where the host finds the place and its code). */
function widgetMessage(request: SiteRequest, language: SiteLanguage, theme: WidgetTheme | undefined, status: 400 | 404, message?: string): SitePage {
  const w = WORDS[language];
  const heading = status === 404 ? w.notFoundTitle : w.badRequestTitle;
  const main = html`<h1>${heading}</h1>
${message && html`<p>${message}</p>`}
<p class="widget-foot">${linkOut(`${request.base}${LANGUAGE_HOME_PATH[language]}`, w.siteName, language)}</p>`;
  return {
    status,
    body: widgetDocument(request.base, language, theme, `${heading} · ${w.siteName}`, request.path, main, false),
    maxAgeSeconds: status === 404 ? NOT_FOUND_SECONDS : 0,
    embeddable: true,
  };
}

/** The query a link of the widget carries: the choices it read (method, madhab, theme), in that order. */
function carried(query: ReadonlyMap<string, string>, names: readonly string[]): string {
  const kept = new URLSearchParams();
  for (const name of names) {
    const value = query.get(name);
    if (value !== undefined && value !== '') kept.set(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : '';
}

export function embedPages(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  for (const language of SITE_LANGUAGES) {
    const prefix = EMBED_PREFIX[language];
    if (request.path !== prefix && !request.path.startsWith(`${prefix}/`)) continue;
    const asked = request.query.get('theme');
    if (asked !== undefined && asked !== '' && !THEMES.includes(asked)) return widgetMessage(request, language, undefined, 400, WORDS[language].themeInvalid);
    const theme = asked ? (asked as WidgetTheme) : undefined;
    const catalog = ctx.catalog;
    if (!catalog) throw new ApiError('service_unavailable', 'The place catalog has not been built yet; try again in a minute.');
    const found = placeAtPath(catalog, request.path.slice(prefix.length + 1));
    if (!found) return widgetMessage(request, language, theme, 404);
    if (found.movedTo !== undefined) {
      const location = `${request.base}${embedPagePath(language, found.movedTo)}${carried(request.query, CARRIED)}`;
      return { status: 301, body: '', location, validUntil: request.now + REDIRECT_VALID_MS, embeddable: true };
    }
    try {
      return widget(request, ctx, found.place.path, language, theme);
    } catch (error) {
      // A bad ?method= or ?madhab=: the API's own message, in the frame.
      if (error instanceof ApiError && error.status === 400) return widgetMessage(request, language, theme, 400, error.message);
      throw error;
    }
  }
  return undefined;
}

function widget(request: SiteRequest, ctx: SiteContext, placePath: string, language: SiteLanguage, theme: WidgetTheme | undefined): SitePage {
  const w = WORDS[language];
  const { now, base, query } = request;
  const place = ctx.catalog!.byPath(placePath)!;
  const at: Record<string, string> = { city: place.path, ...chosenCalculation(query) };
  const today = ctx.data.answer('getPrayerTimes', at, now) as unknown as DailyView;
  const tomorrow = ctx.data.answer('getPrayerTimes', { ...at, date: formatDate(addDays(parseDate(today.date) as CalendarDate, 1)) }, now) as unknown as DailyView;
  const next = (ctx.data.answer('getNextPrayer', at, now) as unknown as NextView).next;
  const todayEnds = nextLocalMidnight(now, today.timeZone);
  const merged = mergedImsak([today, tomorrow], today.method.id);
  const shown = shownTimeNames(merged);
  const timeName = (name: TimeName): string => w.times[merged && (name === 'imsak' || name === 'fajr') ? merged : name];
  const selfPath = `${embedPagePath(language, place.path)}${carried(query, CARRIED)}`;

  // The same parts (data-day-part) and rows (data-at, data-name) as the place page's, so countdown.js reads them alike.
  const dayDate = (day: DailyView): Html =>
    html`<p class="lede" data-day-part="date">${longDate(day.date, language)} · <span lang="${language}">${hijriText(day.hijri, language)}</span></p>`;
  const dayTimes = (day: DailyView, ends: number, nextIso: string | undefined): Html => {
    const rows = shown.map((name) => {
      const counted: TimeName | undefined = name === merged ? 'fajr' : NEXT_PRAYERS.includes(name) ? name : undefined;
      const iso = day.iso[counted ?? name];
      const isNext = counted !== undefined && iso === nextIso;
      return html`<tr${counted && html` data-at="${iso}" data-name="${w.times[name]}"${EVENT_NAMES.includes(name) && html` data-event`}`}${isNext && html` class="next" aria-current="time"`}><th scope="row">${w.times[name]}</th><td><time datetime="${iso}">${day.times[name]}</time></td></tr>`;
    });
    return html`<div class="day" data-day-part="times" data-date="${day.date}" data-ends="${isoInstant(ends)}">
<table class="today-times">
<caption class="visually-hidden">${w.today}: ${longDate(day.date, language)}</caption>
<tbody>
${rows}
</tbody>
</table>
${day.estimated.length > 0 && html`<p class="note">${w.estimatedNote} ${[...new Set(day.estimated.map(timeName))].join(', ')}</p>`}
</div>`;
  };

  const main = html`<h1>${w.prayerTimesIn(placeLabel(place))}</h1>
${dayDate(today)}
<p id="next-prayer" class="next-prayer" data-label-prayer="${w.nextPrayer}" data-label-event="${w.nextEvent}"><span class="next-label">${EVENT_NAMES.includes(next.prayer) ? w.nextEvent : w.nextPrayer}</span>: <strong class="next-name">${timeName(next.prayer)}</strong> <time datetime="${next.iso}">${next.time}</time><span class="next-in" hidden>, ${w.nextPrayerIn} <span class="next-left" role="timer" aria-live="off"></span></span></p>
<p id="reload-prompt" class="reload-prompt" role="status" hidden>${w.outOfDate} <a href="${selfPath}">${w.reload}</a></p>
${dayTimes(today, todayEnds, next.iso)}
<template id="next-day">${dayDate(tomorrow)}${dayTimes(tomorrow, nextLocalMidnight(todayEnds, today.timeZone), undefined)}</template>
<p class="widget-foot">${linkOut(`${base}${placePagePath(language, place.path)}${carried(query, ['method', 'madhab'])}`, w.fullTimetable, language)}<br><span class="note">${placeWhere(place, language)} · ${today.method.name}</span></p>`;

  return {
    status: 200,
    body: widgetDocument(base, language, theme, `${w.prayerTimesIn(placeLabel(place))} · ${w.siteName}`, embedPagePath(language, place.path), main, true),
    // As the place page: rendered again after the next prayer (the marked one changes) and at the place's midnight.
    validUntil: Math.min(Date.parse(next.iso), todayEnds),
    embeddable: true,
  };
}
