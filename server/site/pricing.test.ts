// Prices over real HTTP: /pricing, the dashboard's billing page and the checkout show the prices of the plan table
// (the contract's 9 and 49 USD a month, the trial free with no card and no end), a PLANS_FILE override changes what
// all three show, and the words for the dashboard's door agree between /pricing and the dashboard (in both languages).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardBrowser, outboxMail } from '../../testing/dashboardBrowser.js';
import { startServer, type RunningServer } from '../../testing/serverProcess.js';
import { DASHBOARD_ENTRY, DASHBOARD_PATH, PRICING_PATH } from '../links.js';

/** Prices of the override server: pro with cents, business another whole number; the limits as they come. */
const OVERRIDE = { pro: { monthlyPriceUsd: 12.5 }, business: { monthlyPriceUsd: 99 } };

let defaults: RunningServer;
let overridden: RunningServer;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pricing-'));
  const plans = path.join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify(OVERRIDE));
  [defaults, overridden] = await Promise.all([startServer(), startServer({ PLANS_FILE: plans })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([defaults?.stop(), overridden?.stop()]);
});

const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const textOf = (markup: string): string => unescape(markup.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
const mainOf = (page: string): string => page.match(/<main\b[^>]*>([\s\S]*?)<\/main>/)![1];

/** A plan's row on /pricing, its cells by their data-label. */
function pricingRow(page: string, plan: string): Record<string, string> {
  const row = page.match(new RegExp(`<tr id="${plan}">([\\s\\S]*?)</tr>`))![1];
  return Object.fromEntries([...row.matchAll(/<td data-label="([^"]+)">([\s\S]*?)<\/td>/g)].map((m) => [m[1], textOf(m[2])]));
}

const pricing = async (server: RunningServer): Promise<string> => {
  const res = await fetch(server.baseUrl + PRICING_PATH);
  expect(res.status).toBe(200);
  return res.text();
};

/** A new account on `server`, signed in with the mailed code (outbox mode). */
async function signedIn(server: RunningServer, email: string): Promise<DashboardBrowser> {
  const browser = DashboardBrowser.forServer(server);
  expect((await browser.signIn(email, (address) => outboxMail(server.dataDir, address))).status).toBe(303);
  return browser;
}

describe('/pricing', () => {
  it('shows the contract’s prices beside the limits: trial free with no card, pro 9 and business 49 USD a month', async () => {
    const page = await pricing(defaults);
    expect(page).toContain('<th scope="col">Price</th>');
    expect(pricingRow(page, 'trial')).toMatchObject({ Price: 'Free, no card', 'Requests per minute': '10', 'Requests per month': '1,000' });
    expect(pricingRow(page, 'pro')).toMatchObject({ Price: '9 USD a month', 'Requests per minute': '60', 'Requests per month': '100,000' });
    expect(pricingRow(page, 'business')).toMatchObject({ Price: '49 USD a month', 'Requests per minute': '300', 'Requests per month': '1,000,000' });
  });

  it('says the trial does not end, and how paying and cancelling go', async () => {
    const page = await pricing(defaults);
    expect(textOf(page.match(/<li id="trial-ends">[\s\S]*?<\/li>/)![0])).toBe('The trial does not end: it is free for as long as you use it, within its limits, and asks for no card.');
    expect(textOf(page)).toContain('Pro and Business are monthly subscriptions in US dollars');
    expect(textOf(page)).toContain('the plan stays to the end of the month paid for, then the account is on the trial plan again');
  });

  it('shows the prices of PLANS_FILE where it overrides them, and the others as they come', async () => {
    const page = await pricing(overridden);
    expect(pricingRow(page, 'pro').Price).toBe('12.50 USD a month');
    expect(pricingRow(page, 'business').Price).toBe('99 USD a month');
    expect(pricingRow(page, 'trial').Price).toBe('Free, no card');
    expect(pricingRow(page, 'pro')['Requests per minute']).toBe('60');
  });
});

describe('the dashboard’s billing page and the checkout', () => {
  it('show the plan table’s prices: the trial’s on the billing page, each paid plan’s offer, and the checkout’s charge (en)', async () => {
    const browser = await signedIn(defaults, 'prices.en@example.com');
    const billing = await browser.get('/dashboard/billing?lang=en');
    expect(billing.status).toBe(200);
    const main = textOf(mainOf(billing.text));
    expect(main).toContain('Current plan Trial');
    expect(main).toContain('Price Free, no card; the trial does not end');
    expect(main).toMatch(/Pro 9 USD a month 60 requests a minute/);
    expect(main).toMatch(/Business 49 USD a month 300 requests a minute/);
    const checkout = await browser.post('/dashboard/billing/checkout', { plan: 'business' });
    expect(checkout.status).toBe(303);
    const location = new URL(checkout.headers.get('location')!, defaults.baseUrl);
    const page = await browser.get(`${location.pathname}${location.search}`);
    expect(page.status).toBe(200);
    expect(textOf(mainOf(page.text))).toContain('Business plan, monthly subscription 49 USD now, then every month until you cancel.');
  });

  it('follow a PLANS_FILE override, in Turkish as in English', async () => {
    const browser = await signedIn(overridden, 'prices.tr@example.com');
    const billing = await browser.get('/dashboard/billing?lang=tr');
    expect(billing.status).toBe(200);
    const main = textOf(mainOf(billing.text));
    expect(main).toContain('Fiyat Ücretsiz, kart istenmez; deneme planının süresi dolmaz');
    expect(main).toMatch(/Pro aylık 12,50 USD dakikada 60/);
    expect(main).toMatch(/Business aylık 99 USD dakikada 300/);
    const checkout = await browser.post('/dashboard/billing/checkout', { plan: 'pro' });
    expect(checkout.status).toBe(303);
    const location = new URL(checkout.headers.get('location')!, overridden.baseUrl);
    const page = await browser.get(`${location.pathname}${location.search}`);
    expect(textOf(mainOf(page.text))).toContain('Şimdi 12,50 USD, sonra iptal edene dek her ay.');
    const english = await browser.get(`${location.pathname}${location.search}&lang=en`);
    expect(textOf(mainOf(english.text))).toContain('12.50 USD now, then every month until you cancel.');
  });

  it('a bad plan at the checkout is a 400 page that still shows the prices', async () => {
    const browser = await signedIn(defaults, 'prices.bad@example.com');
    await browser.get('/dashboard/billing?lang=en');
    const refused = await browser.post('/dashboard/billing/checkout', { plan: 'gold' });
    expect(refused.status).toBe(400);
    expect(textOf(mainOf(refused.text))).toContain('Choose the Pro or Business plan.');
    expect(textOf(mainOf(refused.text))).toContain('9 USD a month');
  });
});

describe('the dashboard’s door', () => {
  it('is named alike on /pricing and on the dashboard’s sign-in page, in English and in Turkish; nothing says "Sign up"', async () => {
    const page = await pricing(defaults);
    expect(page).toContain(`<a href="${DASHBOARD_PATH}">${DASHBOARD_ENTRY.en}</a>`);
    expect(textOf(page)).not.toMatch(/sign[ -]?up/i);
    for (const language of ['en', 'tr'] as const) {
      const res = await fetch(`${defaults.baseUrl}/dashboard/sign-in?lang=${language}`);
      const signIn = await res.text();
      expect(signIn).toContain(`<h1>${DASHBOARD_ENTRY[language]}</h1>`);
      expect(signIn).toContain(`<title>${DASHBOARD_ENTRY[language]}`);
      expect(textOf(signIn)).not.toMatch(/sign[ -]?up|kaydol|kayıt ol/i);
    }
    // The link's target, /dashboard with no session, is that page.
    const door = await fetch(`${defaults.baseUrl}${DASHBOARD_PATH}?lang=en`);
    expect(door.status).toBe(200);
    expect(await door.text()).toContain(`<h1>${DASHBOARD_ENTRY.en}</h1>`);
  });
});
