// The usage page's section per key (issue 32), pure: the last 30 days by key and operation (by name), with what became of the
// requests (2xx, 4xx and 5xx, counted against the quota; 429 and key_restricted refusals, not counted), a choice of
// one key (a GET form, no script), and for the chosen key its requests per UTC day as the account's chart is drawn
// (usageChart.ts), with the same numbers in a table. In Turkish or English; names escaped by `html`.
import { KEY_OUTCOMES, type KeyOutcome, type KeyUsageEntry } from '../accounts/keyUsage.js';
import { daysFrom, type DailyCount } from '../accounts/usageHistory.js';
import { keyIdOf } from '../accounts/keys.js';
import type { SiteLanguage } from '../links.js';
import { html, type Html } from '../web/html.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';
import type { KeyView } from './keysPage.js';
import { usageChart } from './usageChart.js';

/** The usage page's query parameter naming one key (its id). */
export const KEY_PARAM = 'key';
const TABLE_ID = 'key-usage';
const DAYS_TABLE_ID = 'key-daily-usage';
/** Outcomes counted against the quota. */
const COUNTED: ReadonlySet<KeyOutcome> = new Set(['2xx', '4xx', '5xx']);

interface KeyUsageWords {
  heading: string;
  lede: string;
  chooseLabel: string;
  allKeys: string;
  show: string;
  caption: (key: string | undefined) => string;
  key: string;
  operation: string;
  outcome: Readonly<Record<KeyOutcome, string>>;
  counted: string;
  total: string;
  none: string;
  mcp: string;
  unnamed: string;
  chartTitle: (key: string, total: string) => string;
  daysCaption: (key: string) => string;
  day: string;
  note: string;
}

export const KEY_USAGE_WORDS: Readonly<Record<SiteLanguage, KeyUsageWords>> = {
  en: {
    heading: 'By key and operation',
    lede: 'The last 30 UTC days. 2xx, 4xx and 5xx are counted against the quota; requests refused with 429 (a limit) or 403 key_restricted (outside a key’s restrictions) are not.',
    chooseLabel: 'Key',
    allKeys: 'All keys',
    show: 'Show',
    caption: (key) => (key === undefined ? 'Requests by key and operation, the last 30 days' : `Requests of ${key} by operation, the last 30 days`),
    key: 'Key',
    operation: 'Operation',
    outcome: { '2xx': '2xx', '4xx': '4xx', '5xx': '5xx', '429': '429 (not counted)', restricted: '403 restricted (not counted)' },
    counted: 'Counted',
    total: 'Total',
    none: 'No requests in the last 30 days.',
    mcp: 'MCP tool calls',
    unnamed: '(unnamed)',
    chartTitle: (key, total) => `Requests of ${key} per UTC day over the last 30 days, ${total} in all`,
    daysCaption: (key) => `Requests of ${key} per UTC day (2xx, 4xx and 5xx), the last 30 days`,
    day: 'Day (UTC)',
    note: 'These counts are written every few seconds by each server.',
  },
  tr: {
    heading: 'Anahtara ve işleme göre',
    lede: 'Son 30 UTC günü. 2xx, 4xx ve 5xx kotadan sayılır; 429 (bir sınır) ya da 403 key_restricted (anahtarın sınırlarının dışında) ile reddedilen istekler sayılmaz.',
    chooseLabel: 'Anahtar',
    allKeys: 'Bütün anahtarlar',
    show: 'Göster',
    caption: (key) => (key === undefined ? 'Anahtara ve işleme göre istekler, son 30 gün' : `${key} anahtarının işleme göre istekleri, son 30 gün`),
    key: 'Anahtar',
    operation: 'İşlem',
    outcome: { '2xx': '2xx', '4xx': '4xx', '5xx': '5xx', '429': '429 (sayılmaz)', restricted: '403 sınır dışı (sayılmaz)' },
    counted: 'Sayılan',
    total: 'Toplam',
    none: 'Son 30 günde istek yok.',
    mcp: 'MCP araç çağrıları',
    unnamed: '(adsız)',
    chartTitle: (key, total) => `${key} anahtarının son 30 günde UTC gününe göre istekleri, toplam ${total}`,
    daysCaption: (key) => `${key} anahtarının UTC gününe göre istekleri (2xx, 4xx ve 5xx), son 30 gün`,
    day: 'Gün (UTC)',
    note: 'Bu sayılar her sunucu tarafından birkaç saniyede bir yazılır.',
  },
};

export interface KeyUsageSectionOptions {
  language: SiteLanguage;
  /** The account's keys (the choice, and names for the rows). */
  keys: readonly KeyView[];
  /** The store's entries over the page's range. */
  entries: readonly KeyUsageEntry[];
  fromDay: string;
  toDay: string;
  /** The chosen key's id, when one is chosen (and is the account's). */
  selected: string | undefined;
  formatNumber: (n: number) => string;
}

interface Row {
  keyId: string;
  operation: string;
  counts: Record<KeyOutcome, number>;
}

const zeroCounts = (): Record<KeyOutcome, number> => Object.fromEntries(KEY_OUTCOMES.map((o) => [o, 0])) as Record<KeyOutcome, number>;
const countedOf = (counts: Record<KeyOutcome, number>): number => counts['2xx'] + counts['4xx'] + counts['5xx'];

export function keyUsageSection(options: KeyUsageSectionOptions): Html {
  const w = KEY_USAGE_WORDS[options.language];
  const n = options.formatNumber;
  const names = new Map(options.keys.map((k) => [k.id, `${k.name === '' ? w.unnamed : k.name} (${k.shown})`]));
  const nameOf = (id: string): string => names.get(id) ?? id;
  const entries = options.selected === undefined ? options.entries : options.entries.filter((e) => keyIdOf(e.keyHash) === options.selected);

  // Rows by key (in the order of the account's keys), then operation (in the API's order).
  const rows = new Map<string, Row>();
  for (const e of entries) {
    const keyId = keyIdOf(e.keyHash);
    const id = `${keyId} ${e.operation}`;
    const row = rows.get(id) ?? { keyId, operation: e.operation, counts: zeroCounts() };
    row.counts[e.outcome] += e.requests;
    rows.set(id, row);
  }
  const keyOrder = new Map(options.keys.map((k, i) => [k.id, i]));
  // Operations by name, MCP's tool calls last.
  const operationRank = (operation: string): string => (operation === 'mcp' ? `~${operation}` : operation);
  const sorted = [...rows.values()].sort(
    (a, b) =>
      (keyOrder.get(a.keyId) ?? 1e9) - (keyOrder.get(b.keyId) ?? 1e9) || a.keyId.localeCompare(b.keyId) || operationRank(a.operation).localeCompare(operationRank(b.operation)),
  );
  const totals = zeroCounts();
  for (const row of sorted) for (const o of KEY_OUTCOMES) totals[o] += row.counts[o];

  const selectedName = options.selected === undefined ? undefined : nameOf(options.selected);
  const choice = html`<form class="choose" method="get" action="${DASHBOARD_PATHS.usage}">
<label for="usage-key">${w.chooseLabel}</label>
<select id="usage-key" name="${KEY_PARAM}">
<option value=""${options.selected === undefined ? ' selected' : ''}>${w.allKeys}</option>
${options.keys.map((k) => html`<option value="${k.id}"${k.id === options.selected ? ' selected' : ''}>${nameOf(k.id)}</option>\n`)}</select>
<button type="submit">${w.show}</button>
</form>`;

  const cells = (counts: Record<KeyOutcome, number>): Html =>
    html`${KEY_OUTCOMES.map((o) => html`<td data-label="${w.outcome[o]}" data-outcome="${o}" data-count="${counts[o]}">${n(counts[o])}</td>`)}<td data-label="${w.counted}" data-counted="${countedOf(counts)}">${n(countedOf(counts))}</td>`;
  const operationName = (operation: string): Html => (operation === 'mcp' ? html`${w.mcp}` : html`<code>${operation}</code>`);
  const table =
    sorted.length === 0
      ? html`<p>${w.none}</p>`
      : html`<div class="table-wrap">
<table class="usage stack" id="${TABLE_ID}">
<caption>${w.caption(selectedName)}</caption>
<thead><tr><th scope="col">${w.key}</th><th scope="col">${w.operation}</th>${KEY_OUTCOMES.map((o) => html`<th scope="col">${w.outcome[o]}</th>`)}<th scope="col">${w.counted}</th></tr></thead>
<tbody>
${sorted.map((row) => html`<tr data-key="${row.keyId}" data-operation="${row.operation}"><th scope="row">${nameOf(row.keyId)}</th><td data-label="${w.operation}">${operationName(row.operation)}</td>${cells(row.counts)}</tr>\n`)}</tbody>
<tfoot><tr><th scope="row" colspan="2">${w.total}</th>${cells(totals)}</tr></tfoot>
</table>
</div>`;

  let daily: Html | '' = '';
  if (options.selected !== undefined && selectedName !== undefined) {
    const perDay = new Map<string, number>();
    for (const e of entries) if (COUNTED.has(e.outcome)) perDay.set(e.day, (perDay.get(e.day) ?? 0) + e.requests);
    const days: DailyCount[] = daysFrom(options.fromDay, options.toDay).map((day) => ({ day, count: perDay.get(day) ?? 0 }));
    const total = days.reduce((sum, d) => sum + d.count, 0);
    daily = html`<figure class="usage">
${usageChart({ days, title: w.chartTitle(selectedName, n(total)), describedBy: DAYS_TABLE_ID, titleId: 'key-daily-usage-title', formatNumber: n })}
</figure>
<div class="table-wrap">
<table class="usage" id="${DAYS_TABLE_ID}">
<caption>${w.daysCaption(selectedName)}</caption>
<thead><tr><th scope="col">${w.day}</th><th scope="col">${w.counted}</th></tr></thead>
<tbody>
${days.map((d) => html`<tr><th scope="row"><time datetime="${d.day}">${d.day}</time></th><td data-count="${d.count}">${n(d.count)}</td></tr>\n`)}</tbody>
<tfoot><tr><th scope="row">${w.total}</th><td data-count="${total}">${n(total)}</td></tr></tfoot>
</table>
</div>
`;
  }

  return html`<h2 id="by-key">${w.heading}</h2>
<p>${w.lede}</p>
${choice}
${table}
${daily}<p class="note">${w.note}</p>`;
}
