// The calendar section of a place page: the place's feed (calendarFeed.ts) to subscribe to (`webcal:`) or download
// (`.ics`), with a reminder chosen in a GET form that works without JavaScript (its two buttons send the same query
// to the two addresses), and the plain addresses to copy. The page's method and madhab go with the feed.
import { CALENDAR_SUFFIX, calendarSubscriptionUrl, placeCalendarUrl, placePagePath, type SiteLanguage } from '../links.js';
import { html, type Html } from '../web/html.js';
import { WORDS } from './words.js';

/** The reminders the form offers, in minutes before each event (the feed takes any whole minute from 0 to 120). */
export const REMINDER_CHOICES: readonly number[] = [0, 5, 10, 15, 20, 30, 45, 60];
/** Selected at first: a reminder is what the form is for, and ten minutes is time to get ready. */
export const DEFAULT_REMINDER = 10;

export function calendarSection(base: string, language: SiteLanguage, placePath: string, choice: Readonly<Record<string, string>>): Html {
  const w = WORDS[language];
  const feedPath = `${placePagePath(language, placePath)}${CALENDAR_SUFFIX}`;
  const feedUrl = placeCalendarUrl(base, language, placePath);
  const search = new URLSearchParams(choice).toString();
  const withChoice = (url: string): string => (search ? `${url}?${search}` : url);
  const option = (value: string, label: string): Html =>
    html`<option value="${value}"${value === String(DEFAULT_REMINDER) && html` selected`}>${label}</option>`;
  return html`<section class="calendar-section" aria-labelledby="calendar-heading">
<h2 id="calendar-heading">${w.calendar}</h2>
<p>${w.calendarNote}</p>
<form class="choose calendar-choice" action="${feedPath}" method="get">
<div><label for="alarm">${w.calendarReminder}</label>
<select id="alarm" name="alarm">${option('', w.calendarNoReminder)}${REMINDER_CHOICES.map((m) => option(String(m), m === 0 ? w.calendarAtTheTime : w.calendarMinutesBefore(m)))}</select></div>
${Object.entries(choice).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit" formaction="${calendarSubscriptionUrl(feedUrl)}">${w.calendarSubscribe}</button>
<button type="submit">${w.calendarDownload}</button>
</form>
<p>${w.calendarLinks}</p>
<ul class="calendar-links">
<li><a href="${withChoice(calendarSubscriptionUrl(feedUrl))}">${withChoice(calendarSubscriptionUrl(feedUrl))}</a></li>
<li><a href="${withChoice(feedPath)}">${withChoice(feedUrl)}</a></li>
</ul>
<p class="note">${w.calendarClientsNote}</p>
</section>`;
}
