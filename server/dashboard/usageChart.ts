// The usage chart: requests per UTC day as an SVG bar chart, pure. An image to assistive technology (role="img", its
// name from its <title>), described by the table of the same numbers below it (aria-describedby), so the chart
// adds nothing that the table does not say. Presentation attributes only (fill, x, y, width, height): the CSP
// allows no inline style. Each bar carries its day and count in data- attributes (the tests compare them to the table).
import type { DailyCount } from '../accounts/usageHistory.js';
import { html, type Html } from '../web/html.js';

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 48;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 28;
const BAR_GAP = 2;

export interface UsageChartOptions {
  days: readonly DailyCount[];
  /** The chart's accessible name. */
  title: string;
  /** The id of the element (the table) that gives the same numbers. */
  describedBy: string;
  /** The id of the chart's <title> element. */
  titleId: string;
  /** Formats a count for the axis labels (the page's language). */
  formatNumber: (n: number) => string;
}

/** A round number at or above `max` for the top of the scale (1, 2, 5 × 10^n). */
export function scaleTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

export function usageChart(options: UsageChartOptions): Html {
  const { days } = options;
  const top = scaleTop(Math.max(0, ...days.map((d) => d.count)));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = days.length === 0 ? plotWidth : plotWidth / days.length;
  const barWidth = Math.max(1, slot - BAR_GAP);
  const round = (n: number): number => Math.round(n * 100) / 100;
  const bars = days.map((d, i) => {
    const height = round((d.count / top) * plotHeight);
    const x = round(LEFT + i * slot + BAR_GAP / 2);
    const y = round(TOP + plotHeight - height);
    return html`<rect class="bar" x="${x}" y="${y}" width="${round(barWidth)}" height="${height}" fill="currentColor" data-day="${d.day}" data-count="${d.count}"/>\n`;
  });
  // Day labels under the first, middle and last bars (MM-DD); the table has every one.
  const labelled = days.length === 0 ? [] : [...new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])];
  const labels = labelled.map(
    (i) => html`<text x="${round(LEFT + i * slot + slot / 2)}" y="${HEIGHT - 8}" text-anchor="middle" font-size="11" fill="currentColor">${days[i].day.slice(5)}</text>\n`,
  );
  return html`<svg class="usage-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-labelledby="${options.titleId}" aria-describedby="${options.describedBy}" focusable="false">
<title id="${options.titleId}">${options.title}</title>
<line x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - RIGHT}" y2="${TOP + plotHeight}" stroke="currentColor" stroke-width="1"/>
<line x1="${LEFT}" y1="${TOP}" x2="${WIDTH - RIGHT}" y2="${TOP}" stroke="currentColor" stroke-width="0.5" stroke-dasharray="4 4" opacity="0.5"/>
<text x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end" font-size="11" fill="currentColor">${options.formatNumber(top)}</text>
<text x="${LEFT - 6}" y="${TOP + plotHeight + 4}" text-anchor="end" font-size="11" fill="currentColor">0</text>
${bars}${labels}</svg>`;
}
