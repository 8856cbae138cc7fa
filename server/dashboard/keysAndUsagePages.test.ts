// The keys and usage pages as pure modules: what they show, in both languages, escaping, the forms and their CSRF
// field, and the chart against the table (the same numbers; the SVG well-formed XML).
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { currentUsage } from '../access/quota.js';
import type { KeyRecord } from '../accounts/accountStore.js';
import { DEFAULT_PLANS } from '../accounts/plans.js';
import { daysFrom } from '../accounts/usageHistory.js';
import { createdKeyPage, keysPage, keyView } from './keysPage.js';
import { scaleTop } from './usageChart.js';
import { usagePage, usageRange } from './usagePage.js';

const HOSTILE = '<script>alert("x")</script>&\'';
const record = (over: Partial<KeyRecord>): KeyRecord => ({
  hash: 'ab'.repeat(32),
  prefix: 'mk_abc123',
  accountId: 'acc_1',
  name: 'Production',
  lastFour: 'wxyz',
  createdAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

/** No inline script, no inline style, no event handler attributes (the CSP allows none). */
function expectCspClean(text: string): void {
  expect(text).not.toMatch(/<script/i);
  expect(text).not.toMatch(/\sstyle=/i);
  expect(text).not.toMatch(/\son[a-z]+=/i);
}

describe('the keys page', () => {
  const keys = [
    record({ name: HOSTILE, lastUsedDay: '2026-11-20' }),
    record({ hash: 'cd'.repeat(32), name: 'Old', revokedAt: '2026-11-15T08:00:00.000Z' }),
    record({ hash: 'ef'.repeat(32), name: '', lastFour: '', createdAt: '2025-01-01T00:00:00.000Z' }),
  ].map(keyView);

  it('lists name, prefix and last four, created and last used days, state; a Revoke button per active key, which asks first', () => {
    const { title, main } = keysPage({ language: 'en', keys, csrf: 'TOKEN"<' });
    const text = main.text;
    expect(title).toBe('API keys');
    expect(text).toContain('<code>mk_abc123…wxyz</code>');
    expect(text).toContain('<code>mk_abc123…</code>'); // a record from before last fours
    expect(text).toContain('<td data-label="Created (UTC)">2026-11-01</td>');
    expect(text).toContain('<td data-label="Last used (UTC)">2026-11-20</td>');
    expect(text).toContain('<td data-label="Last used (UTC)">never</td>');
    expect(text).toContain('revoked on 2026-11-15');
    expect(text).toContain('(unnamed)');
    // Two active keys, two revoke forms; the revoked one has none.
    const actions = [...text.matchAll(/action="\/dashboard\/keys\/([0-9a-f]{16})\/revoke"/g)].map((m) => m[1]);
    expect(actions).toEqual(['abababababababab', 'efefefefefefefef']);
    // The two revoke buttons GET the page that asks (no token in a URL); the create form POSTs with the CSRF field, escaped.
    expect(text.match(/<form /g)).toHaveLength(3);
    expect(text.match(/<form class="inline" method="get" action="\/dashboard\/keys\/[0-9a-f]{16}\/revoke">/g)).toHaveLength(2);
    expect(text.match(/<input type="hidden" name="csrf" value="TOKEN&quot;&lt;">/g)).toHaveLength(1);
    expect(text).toContain('<form class="choose" method="post" action="/dashboard/keys"');
    expect(text).toMatch(/<input id="key-name" name="name" type="text" required maxlength="60"/);
    expect(text).toContain('<th scope="col">Last used (UTC)</th>');
    expectCspClean(text);
  });

  it('escapes a hostile key name everywhere it appears', () => {
    const text = keysPage({ language: 'en', keys, csrf: 't', nameError: 'Give the key a name.', nameValue: HOSTILE }).main.text;
    expect(text).not.toContain('<script>');
    expect(text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    expect(text).toContain(`aria-label="Revoke &lt;script&gt;`);
    expect(text).toContain('aria-invalid="true"');
    const created = createdKeyPage({ language: 'tr', key: 'mk_' + 'A'.repeat(32), name: HOSTILE, apiBase: 'http://localhost:8080' }).main.text;
    expect(created).not.toContain('<script>');
    expect(created).toContain(`<code class="new-key">mk_${'A'.repeat(32)}</code>`);
    expectCspClean(created);
  });

  it('speaks Turkish', () => {
    const { title, main } = keysPage({ language: 'tr', keys, csrf: 't', notice: 'X' });
    expect(title).toBe('API anahtarları');
    expect(main.text).toContain('İptal et');
    expect(main.text).toContain('hiç');
    expect(main.text).toContain('<p class="note" role="status">X</p>');
    expect(keysPage({ language: 'tr', keys: [], csrf: 't' }).main.text).toContain('Henüz anahtarınız yok');
  });
});

describe('the usage page', () => {
  const now = Date.parse('2026-11-22T10:00:20Z');
  const { fromDay, toDay } = usageRange('2026-11-22');
  const days = daysFrom(fromDay, toDay).map((day, i) => ({ day, count: i % 7 === 3 ? 0 : i * 37 + (i === 29 ? 1234 : 0) }));
  const usage = { month: '2026-11', monthCount: 4321, windowStart: Date.parse('2026-11-22T10:00:00Z'), windowCount: 7 };

  const render = (language: 'en' | 'tr') =>
    usagePage({ language, plan: 'pro', current: currentUsage(usage, DEFAULT_PLANS.pro, now), days }).main.text;

  it('shows this minute and this month against the plan’s limits', () => {
    const text = render('en');
    expect(text).toContain('<span data-count="7" data-limit="60">7 of 60</span> (the window resets in 40 s)');
    expect(text).toContain('<span data-count="4321" data-limit="100000">4,321 of 100,000</span> (resets at 2026-12-01T00:00:00Z)');
    expect(render('tr')).toContain('<span data-count="4321" data-limit="100000">4.321 / 100.000</span>');
    expectCspClean(text);
  });

  it('draws the 30 days as a well-formed, accessible SVG whose bars say what the table says', () => {
    for (const language of ['en', 'tr'] as const) {
      const text = render(language);
      const svgText = /<svg[\s\S]*<\/svg>/.exec(text)![0];
      const errors: string[] = [];
      const svg = new DOMParser({ onError: (level, message) => void errors.push(`${level}: ${message}`) }).parseFromString(svgText, 'image/svg+xml');
      expect(errors).toEqual([]);
      const root = svg.documentElement!;
      expect(root.getAttribute('role')).toBe('img');
      const title = root.getElementsByTagName('title')[0];
      expect(title.getAttribute('id')).toBe(root.getAttribute('aria-labelledby'));
      expect(title.textContent).toMatch(language === 'en' ? /^Requests per UTC day over the last 30 days/ : /^Son 30 günde/);
      const describedBy = root.getAttribute('aria-describedby')!;
      expect(text).toContain(`<table class="usage" id="${describedBy}">`);

      const bars = Array.from(root.getElementsByTagName('rect')).map((r) => ({ day: r.getAttribute('data-day'), count: Number(r.getAttribute('data-count')), height: Number(r.getAttribute('height')) }));
      const rows = [...text.matchAll(/<tr><th scope="row"><time datetime="([\d-]+)">[\d-]+<\/time><\/th><td data-count="(\d+)">([^<]+)<\/td><\/tr>/g)].map((m) => ({
        day: m[1],
        count: Number(m[2]),
        shown: Number(m[3].replace(/[.,]/g, '')),
      }));
      expect(rows).toHaveLength(30);
      expect(bars.map(({ day, count }) => ({ day, count }))).toEqual(rows.map(({ day, count }) => ({ day, count })));
      expect(rows.every((r) => r.count === r.shown)).toBe(true);
      expect(rows.map((r) => ({ day: r.day, count: r.count }))).toEqual(days);
      // The bars' heights follow the counts (the tallest is the largest, a zero is flat).
      const tallest = bars.reduce((a, b) => (b.height > a.height ? b : a));
      expect(tallest.count).toBe(Math.max(...days.map((d) => d.count)));
      expect(bars.filter((b) => b.count === 0).every((b) => b.height === 0)).toBe(true);
      expect(text).toContain('<caption>');
      expect(text).toMatch(/<tfoot><tr><th scope="row">[^<]+<\/th><td data-count="(\d+)">/);
      const total = Number(/<tfoot><tr><th scope="row">[^<]+<\/th><td data-count="(\d+)">/.exec(text)![1]);
      expect(total).toBe(days.reduce((s, d) => s + d.count, 0));
      expectCspClean(text);
    }
  });

  it('an empty month and a quiet minute', () => {
    const quiet = usagePage({ language: 'en', plan: 'trial', current: currentUsage(undefined, DEFAULT_PLANS.trial, now), days: days.map((d) => ({ ...d, count: 0 })) }).main.text;
    expect(quiet).toContain('0 of 10</span> (no window open)');
    expect(quiet).toContain('0 of 1,000');
    expect(scaleTop(0)).toBe(1);
    expect([scaleTop(7), scaleTop(10), scaleTop(11), scaleTop(2001), scaleTop(60_000)]).toEqual([10, 10, 20, 5000, 100_000]);
  });
});
