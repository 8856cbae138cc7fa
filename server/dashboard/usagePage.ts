// The usage page of the dashboard (contract, "Developer dashboard", Usage), pure: this minute's and this month's
// counts against the plan's limits, and the last 30 UTC days as a chart (usageChart.ts) with the same numbers in a
// real table below it, in Turkish or English.
import type { CurrentUsage } from '../access/quota.js';
import type { PlanName } from '../accounts/plans.js';
import { addDays, type DailyCount } from '../accounts/usageHistory.js';
import type { SiteLanguage } from '../links.js';
import { html, type Html } from '../web/html.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';
import { DASHBOARD_WORDS } from './dashboardWords.js';
import type { PageContent } from './keysPage.js';
import { usageChart } from './usageChart.js';

export const USAGE_PATH = DASHBOARD_PATHS.usage;
/** Days on the page, today included. */
export const USAGE_DAYS = 30;
const TABLE_ID = 'daily-usage';

/** The first and last day of the page's range, for `dailyUsage`. */
export const usageRange = (today: string): { fromDay: string; toDay: string } => ({ fromDay: addDays(today, -(USAGE_DAYS - 1)), toDay: today });

interface UsageWords {
  title: string;
  lede: string;
  now: string;
  plan: string;
  thisMinute: string;
  thisMonth: (month: string) => string;
  of: (count: string, limit: string) => string;
  minuteResets: (seconds: number) => string;
  minuteIdle: string;
  monthResets: (instant: string) => string;
  daily: string;
  chartTitle: (total: string) => string;
  caption: string;
  day: string;
  requests: string;
  total: string;
  delay: string;
}

export const USAGE_WORDS: Readonly<Record<SiteLanguage, UsageWords>> = {
  en: {
    title: 'Usage',
    lede: 'Every request with one of your keys counts once, whatever its status, except those refused with 429.',
    now: 'Now',
    plan: 'Plan',
    thisMinute: 'This minute',
    thisMonth: (month) => `This month (${month}, UTC)`,
    of: (count, limit) => `${count} of ${limit}`,
    minuteResets: (seconds) => `the window resets in ${seconds} s`,
    minuteIdle: 'no window open',
    monthResets: (instant) => `resets at ${instant}`,
    daily: 'The last 30 days',
    chartTitle: (total) => `Requests per UTC day over the last 30 days, ${total} in all`,
    caption: 'Requests per UTC day, the last 30 days',
    day: 'Day (UTC)',
    requests: 'Requests',
    total: 'Total',
    delay: 'Daily counts are written every second; today’s grows as you make requests.',
  },
  tr: {
    title: 'Kullanım',
    lede: 'Anahtarlarınızdan biriyle yapılan her istek, durumu ne olursa olsun bir kez sayılır; 429 ile reddedilenler sayılmaz.',
    now: 'Şu an',
    plan: 'Plan',
    thisMinute: 'Bu dakika',
    thisMonth: (month) => `Bu ay (${month}, UTC)`,
    of: (count, limit) => `${count} / ${limit}`,
    minuteResets: (seconds) => `pencere ${seconds} sn sonra sıfırlanır`,
    minuteIdle: 'açık pencere yok',
    monthResets: (instant) => `${instant} anında sıfırlanır`,
    daily: 'Son 30 gün',
    chartTitle: (total) => `Son 30 günde UTC gününe göre istekler, toplam ${total}`,
    caption: 'UTC gününe göre istekler, son 30 gün',
    day: 'Gün (UTC)',
    requests: 'İstek',
    total: 'Toplam',
    delay: 'Günlük sayılar her saniye yazılır; bugünkü, istek yaptıkça artar.',
  },
};

export interface UsagePageOptions {
  language: SiteLanguage;
  plan: PlanName;
  current: CurrentUsage;
  /** The days of the range, oldest first (the store's dailyUsage over usageRange). */
  days: readonly DailyCount[];
  /** The section by key and operation (keyUsageSection.ts), after the daily counts. */
  byKey?: Html;
}

export const formatCount = (language: SiteLanguage, n: number): string => n.toLocaleString(language === 'tr' ? 'tr-TR' : 'en-GB');

export function usagePage(options: UsagePageOptions): PageContent {
  const { language, current, days } = options;
  const w = USAGE_WORDS[language];
  const n = (value: number): string => formatCount(language, value);
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const main = html`<h1>${w.title}</h1>
<p class="lede">${w.lede}</p>
<h2>${w.now}</h2>
<dl class="facts usage-now">
<dt>${w.plan}</dt><dd>${DASHBOARD_WORDS[language].planNames[options.plan]}</dd>
<dt>${w.thisMinute}</dt><dd><span data-count="${current.minuteCount}" data-limit="${current.perMinute}">${w.of(n(current.minuteCount), n(current.perMinute))}</span> (${current.minuteReset > 0 ? w.minuteResets(current.minuteReset) : w.minuteIdle})</dd>
<dt>${w.thisMonth(current.month)}</dt><dd><span data-count="${current.monthCount}" data-limit="${current.perMonth}">${w.of(n(current.monthCount), n(current.perMonth))}</span> (${w.monthResets(current.monthReset)})</dd>
</dl>
<h2>${w.daily}</h2>
<figure class="usage">
${usageChart({ days, title: w.chartTitle(n(total)), describedBy: TABLE_ID, titleId: 'daily-usage-title', formatNumber: n })}
</figure>
<div class="table-wrap">
<table class="usage" id="${TABLE_ID}">
<caption>${w.caption}</caption>
<thead><tr><th scope="col">${w.day}</th><th scope="col">${w.requests}</th></tr></thead>
<tbody>
${days.map((d) => html`<tr><th scope="row"><time datetime="${d.day}">${d.day}</time></th><td data-count="${d.count}">${n(d.count)}</td></tr>\n`)}</tbody>
<tfoot><tr><th scope="row">${w.total}</th><td data-count="${total}">${n(total)}</td></tr></tfoot>
</table>
</div>
<p class="note">${w.delay}</p>
${options.byKey}`;
  return { title: w.title, main };
}
