// The developer pages over real HTTP: /docs, /docs/api, /docs/errors, /docs/authentication, /docs/mcp, /pricing.
// Every error the API answers links to a section that exists; the reference says what the served OpenAPI document
// says and its curls work; the pricing page says what the limits do.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openAccountStore } from '../accounts/openStores.js';
import { EDGE_ERRORS, ERROR_STATUS } from '../errors.js';
import { API_REFERENCE_PATH, AUTHENTICATION_DOCS_PATH, DOCS_PATH, ERRORS_DOCS_PATH, MCP_DOCS_PATH, PRICING_PATH } from '../links.js';
import { dataDirWithCatalog, provisionKey, startServer, type RunningServer } from '../../testing/serverProcess.js';
import { boundsText } from './apiReferencePage.js';
import { shellQuote } from './curlSnippets.js';
import { exampleArguments } from './mcpDocsPage.js';

const PUBLIC_BASE_URL = 'https://prayer-times.example';
const PAGES = [DOCS_PATH, API_REFERENCE_PATH, ERRORS_DOCS_PATH, AUTHENTICATION_DOCS_PATH, MCP_DOCS_PATH, PRICING_PATH];
/** The plans of the main server: business overridden, trial and pro as they come. */
const OVERRIDE = { business: { perMinute: 1_000_000_000, perMonth: 1_000_000_000_000 } };

let server: RunningServer;
let defaults: RunningServer;
const keys = { business: '', trial: '', revoked: '' };
let doc: any;
const pages = new Map<string, string>();

beforeAll(async () => {
  const dir = dataDirWithCatalog(inject('catalogDataDir'));
  const plans = path.join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify(OVERRIDE));
  keys.business = await provisionKey(dir, 'docs@example.com', 'business');
  keys.trial = await provisionKey(dir, 'trial@example.com', 'trial');
  keys.revoked = await provisionKey(dir, 'revoked@example.com', 'business');
  const store = openAccountStore(dir);
  store.revoke(keys.revoked);
  await store.close();
  // One server with the catalog, a public base URL and a plans override; one bare, with the default plans.
  [server, defaults] = await Promise.all([startServer({ DATA_DIR: dir, PLANS_FILE: plans, PUBLIC_BASE_URL }), startServer()]);
  doc = await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json();
  for (const page of PAGES) pages.set(page, await (await fetch(server.baseUrl + page)).text());
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.stop(), defaults?.stop()]);
});

const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const idsOf = (page: string): string[] => [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
/** The text of a page with the tags taken out and the entities read. */
const textOf = (markup: string): string => unescape(markup.replace(/<[^>]+>/g, ''));

/** The curls a page shows for the API: `curl -H "<header>: … $KEY" '<url>'`, unescaped. */
function apiCurls(page: string): Array<{ header: string; url: string }> {
  return [...unescape(page).matchAll(/curl -H "(Authorization: Bearer|X-API-Key:) \$KEY" '([^']+)'/g)].map((m) => ({ header: m[1], url: m[2] }));
}

/** Runs a curl of the page against the test server (its URL on the public base URL). */
async function runCurl(c: { header: string; url: string }, key: string): Promise<Response> {
  expect(c.url.startsWith(PUBLIC_BASE_URL)).toBe(true);
  const headers: Record<string, string> = c.header === 'X-API-Key:' ? { 'X-API-Key': key } : { Authorization: `Bearer ${key}` };
  return fetch(server.baseUrl + c.url.slice(PUBLIC_BASE_URL.length), { headers });
}

const VOID = new Set(['meta', 'link', 'br', 'img', 'input', 'hr', 'source', 'wbr']);

/** Where the element structure breaks: an end tag that closes nothing open, or elements left open. */
function structureProblems(page: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  const body = page.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/g, '<script></script>').replace(/<!doctype html>/i, '');
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    const [, closing, name] = m;
    const tag = name.toLowerCase();
    if (VOID.has(tag)) continue;
    if (!closing) open.push(tag);
    else if (open.at(-1) === tag) open.pop();
    else problems.push(`</${tag}> at ${m.index} closes <${open.at(-1)}>`);
  }
  if (open.length) problems.push(`left open: ${open.join(' ')}`);
  return problems;
}

describe('every docs page', () => {
  it.each(PAGES)('%s is English, canonical, cacheable, well-formed, and accessible in its structure', async (pagePath) => {
    const res = await fetch(server.baseUrl + pagePath);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=(\d+)$/);
    expect(Number(res.headers.get('cache-control')!.split('=')[1])).toBeGreaterThan(600);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const page = await res.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain(`<link rel="canonical" href="${PUBLIC_BASE_URL}${pagePath}">`);
    expect(structureProblems(page)).toEqual([]);
    // Ids unique; every in-page link lands on one.
    const ids = idsOf(page);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const [, target] of page.matchAll(/href="#([^"]+)"/g)) expect(ids).toContain(target);
    // No inline styles or scripts (the CSP forbids them): a script is JSON-LD, or a file of the site's assets with
    // nothing inside its element (the service worker's registration, offline.js, is on every page).
    expect(page).not.toMatch(/\sstyle=/);
    const inlineScripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes, body]) => !attributes.includes('type="application/ld+json"') && !(/\ssrc="\/assets\/[^"]+"/.test(attributes) && body === ''),
    );
    expect(inlineScripts.map(([element]) => element)).toEqual([]);
    // One h1, and headings that never skip a level going down.
    const levels = [...page.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
    expect(levels[0]).toBe(1);
    expect(levels.filter((l) => l === 1)).toHaveLength(1);
    levels.forEach((l, i) => i > 0 && expect(l).toBeLessThanOrEqual(levels[i - 1] + 1));
    // Tables have header cells with a scope, and a caption.
    for (const table of page.match(/<table[\s>][\s\S]*?<\/table>/g) ?? []) {
      expect(table).toContain('<caption>');
      expect(table).toMatch(/<th scope="col">/);
      expect(table.match(/<th(?! scope="(?:col|row)")[\s>]/g) ?? []).toEqual([]);
    }
    // 304 for the same ETag.
    const again = await fetch(server.baseUrl + pagePath, { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('link to one another only where a page and its fragment exist', () => {
    let checked = 0;
    for (const page of pages.values()) {
      for (const [, target, fragment] of page.matchAll(/href="(\/[^"#?]*)(?:#([^"]+))?"/g)) {
        const linked = pages.get(target);
        if (!linked) continue; // pages of other modules (the dashboard, the home page)
        if (fragment) expect(idsOf(linked), `${target}#${fragment}`).toContain(fragment);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('/docs/errors', () => {
  it('has a section for every code of the error table and every code nginx answers, in a table of contents', () => {
    const page = pages.get(ERRORS_DOCS_PATH)!;
    const codes = [...Object.keys(ERROR_STATUS), ...Object.keys(EDGE_ERRORS)];
    expect(codes.length).toBe(20); // 15 of the service (key_restricted the newest) and 5 of nginx
    for (const code of codes) {
      const status = (ERROR_STATUS as Record<string, number>)[code] ?? EDGE_ERRORS[code as keyof typeof EDGE_ERRORS].status;
      const section = page.match(new RegExp(`<section id="${code}">([\\s\\S]*?)</section>`))?.[1];
      expect(section, code).toBeDefined();
      expect(section).toContain(`<h2>${code}</h2>`);
      expect(section).toMatch(new RegExp(`<dt>Status</dt><dd>${status} `));
      expect(section).toContain('<dt>When</dt>');
      expect(section).toContain('<dt>What to do</dt>');
      // The example body is an error of this code, whose docs link is this section (or the authentication page).
      const example = JSON.parse(unescape(section!.match(/<pre><code>([\s\S]*?)<\/code><\/pre>/)![1]));
      expect(example.error.code).toBe(code);
      expect(example.error.docs).toBe(status === 401 || status === 403 ? `${PUBLIC_BASE_URL}${AUTHENTICATION_DOCS_PATH}` : `${PUBLIC_BASE_URL}${ERRORS_DOCS_PATH}#${code}`);
      expect(page).toContain(`<a href="#${code}">`);
    }
  });

  it('has a section for every error nginx answers (deploy/nginx.conf), which says the same status and message', () => {
    const conf = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
    const page = pages.get(ERRORS_DOCS_PATH)!;
    const bodies = [...conf.matchAll(/return (\d{3}) '(\{"error".*\})';/g)];
    expect(bodies.length).toBeGreaterThanOrEqual(5);
    const linked = [...conf.matchAll(/\/docs\/errors#(\w+)/g)].map((m) => m[1]);
    expect(linked.length).toBe(bodies.length);
    for (const code of linked) expect(idsOf(page)).toContain(code);
    for (const [, status, body] of bodies) {
      const { error } = JSON.parse(body.replaceAll('$public_base_url', PUBLIC_BASE_URL));
      if (error.code in EDGE_ERRORS) {
        const edge = EDGE_ERRORS[error.code as keyof typeof EDGE_ERRORS];
        expect([edge.status, edge.message]).toEqual([Number(status), error.message]);
      } else {
        expect((ERROR_STATUS as Record<string, number>)[error.code]).toBe(Number(status));
      }
    }
    expect(Object.keys(EDGE_ERRORS).every((code) => linked.includes(code))).toBe(true);
  });

  const provoked: Array<[code: string, method: string, path: string, key: keyof typeof keys | 'none' | 'unknown']> = [
    ['missing_parameter', 'GET', '/api/v1/times', 'business'],
    ['invalid_parameter', 'GET', '/api/v1/times?lat=91&lon=29', 'business'],
    ['unknown_parameter', 'GET', '/api/v1/qibla?lat=41&lon=29&tz=UTC', 'business'],
    ['conflicting_parameters', 'GET', '/api/v1/times?city=istanbul&lat=41&lon=29', 'business'],
    ['missing_api_key', 'GET', '/api/v1/times?city=istanbul', 'none'],
    ['invalid_api_key', 'GET', '/api/v1/times?city=istanbul', 'unknown'],
    ['api_key_revoked', 'GET', '/api/v1/times?city=istanbul', 'revoked'],
    ['city_not_found', 'GET', '/api/v1/times?city=Nowhereville', 'business'],
    ['not_found', 'GET', '/api/v1/prayer-times', 'business'],
    ['method_not_allowed', 'POST', '/api/v1/times?city=istanbul', 'business'],
    ['method_not_allowed', 'GET', '/mcp', 'business'],
  ];
  it.each(provoked)('%s: the docs link of the answer (%s %s) is a page that has its section', async (code, method, apiPath, keyName) => {
    const key = keyName === 'none' ? undefined : keyName === 'unknown' ? `mk_${'Z'.repeat(32)}` : keys[keyName];
    const res = await fetch(server.baseUrl + apiPath, { method, headers: key ? { Authorization: `Bearer ${key}` } : {} });
    expect(res.status).toBe((ERROR_STATUS as Record<string, number>)[code]);
    const { error } = (await res.json()) as any;
    expect(error.code).toBe(code);
    await expectDocsLinkLands(error.docs, code);
  });

  it('rate_limit_exceeded: a trial key past its minute gets a docs link that lands, and the limit /pricing shows', async () => {
    let res: Response | undefined;
    for (let i = 0; i < 30 && res?.status !== 429; i++) res = await fetch(`${server.baseUrl}/api/v1/hijri?date=2026-03-01`, { headers: { 'X-API-Key': keys.trial } });
    expect(res!.status).toBe(429);
    const { error } = (await res!.json()) as any;
    expect(error.code).toBe('rate_limit_exceeded');
    await expectDocsLinkLands(error.docs, 'rate_limit_exceeded');
    // The page says the limit the 429 counts against.
    const limit = Number(res!.headers.get('ratelimit-limit'));
    expect(limit).toBe(10);
    expect(planRow(pages.get(PRICING_PATH)!, 'trial')[0]).toBe(limit.toLocaleString('en'));
    expect(Number(res!.headers.get('x-quota-limit')).toLocaleString('en')).toBe(planRow(pages.get(PRICING_PATH)!, 'trial')[1]);
  });
});

async function expectDocsLinkLands(docs: string, code: string): Promise<void> {
  const url = new URL(docs);
  expect(url.origin).toBe(PUBLIC_BASE_URL);
  const res = await fetch(server.baseUrl + url.pathname);
  expect(res.status, docs).toBe(200);
  const page = await res.text();
  if (url.hash) {
    expect(url.hash).toBe(`#${code}`);
    expect(idsOf(page)).toContain(code);
  } else {
    expect(url.pathname).toBe(AUTHENTICATION_DOCS_PATH);
    expect(page).toContain(`<code>${code}</code>`);
  }
}

/** The cells of a plan's row on /pricing: per minute, per month (by their labels: the price comes first). */
function planRow(page: string, plan: string): [string, string] {
  const row = page.match(new RegExp(`<tr id="${plan}">([\\s\\S]*?)</tr>`))![1];
  const cells = new Map([...row.matchAll(/<td data-label="([^"]+)">([^<]*)<\/td>/g)].map((m) => [m[1], m[2]]));
  return [cells.get('Requests per minute')!, cells.get('Requests per month')!];
}

describe('/docs/api', () => {
  it('names every operation of the served OpenAPI document with its path, summary and rules', () => {
    const page = pages.get(API_REFERENCE_PATH)!;
    const operations = Object.entries<any>(doc.paths).map(([p, item]) => ({ path: p, ...item.get }));
    expect(operations.map((op) => op.operationId)).toEqual(['getPrayerTimes', 'getMonthlyTimetable', 'getNextPrayer', 'getQibla', 'searchCities', 'getHijriDate']);
    for (const op of operations) {
      const section = page.match(new RegExp(`<section id="${op.operationId}">([\\s\\S]*?)</section>`))?.[1];
      expect(section, op.operationId).toBeDefined();
      expect(section).toContain(`<h2>${escape(op.summary)}</h2>`);
      expect(section).toContain(`<code>GET ${op.path}</code>`);
      for (const rule of op['x-parameter-rules'] ?? []) {
        expect(section).toContain(`<li>${escape(rule.description)}: otherwise <a href="${ERRORS_DOCS_PATH}#${rule.error}">`);
      }
      // Every status the operation answers, with its codes.
      for (const status of Object.keys(op.responses)) expect(section).toMatch(new RegExp(`<th scope="row">${status}</th>`));
    }
  });

  it('gives every parameter its type, bounds, allowed values, default, required and description', () => {
    const page = pages.get(API_REFERENCE_PATH)!;
    let parameters = 0;
    for (const item of Object.values<any>(doc.paths)) {
      const op = item.get;
      for (const p of op.parameters) {
        parameters++;
        const row = page.match(new RegExp(`<tr id="${op.operationId}-${p.name}">([\\s\\S]*?)</tr>`))?.[1];
        expect(row, `${op.operationId} ${p.name}`).toBeDefined();
        const cells = [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((m) => textOf(m[1]));
        const s = p.schema;
        expect(cells[0]).toBe(p.name);
        expect(cells[1]).toBe(s.format ? `${s.type} (${s.format})` : s.type);
        expect(cells[2]).toBe(p.required ? 'yes' : 'no');
        if (s.minimum !== undefined) expect(cells[3]).toContain(`${s.minimum} to ${s.maximum}`);
        if (s.maxLength !== undefined && !s.enum) expect(cells[3]).toContain(`to ${s.maxLength} characters`);
        for (const value of s.enum ?? []) expect(cells[3]).toContain(value);
        expect(cells[4]).toBe(s.default === undefined ? '' : String(s.default));
        expect(cells[5]).toBe(p.description);
      }
    }
    expect(parameters).toBeGreaterThan(20);
    // Spot checks in words: lat's bounds, /cities' limit default and q's length.
    expect(textOf(page.match(/<tr id="getPrayerTimes-lat">[\s\S]*?<\/tr>/)![0])).toContain('-90 to 90');
    expect(textOf(page.match(/<tr id="searchCities-limit">[\s\S]*?<\/tr>/)![0])).toMatch(/1 to 50\s*10/);
    expect(textOf(page.match(/<tr id="searchCities-q">[\s\S]*?<\/tr>/)![0])).toContain('2 to 100 characters');
  });

  it("shows each operation's examples and a curl for each that works", async () => {
    const page = pages.get(API_REFERENCE_PATH)!;
    let examples = 0;
    for (const item of Object.values<any>(doc.paths)) {
      for (const example of Object.values<any>(item.get.responses['200'].content['application/json'].examples)) {
        examples++;
        expect(page).toContain(escape(JSON.stringify(example.value, null, 2)));
        const request = example.description.replace(/^GET /, '');
        expect(page).toContain(escape(`curl -H "Authorization: Bearer $KEY" '${PUBLIC_BASE_URL}${request}'`));
      }
    }
    expect(examples).toBeGreaterThanOrEqual(6);
    const curls = apiCurls(page);
    expect(curls).toHaveLength(examples);
    for (const c of curls) {
      const res = await runCurl(c, keys.business);
      expect(res.status, c.url).toBe(200);
    }
  });

  it('documents the rate-limit and quota headers', () => {
    const page = pages.get(API_REFERENCE_PATH)!;
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Reset', 'Retry-After', 'X-Request-Id']) {
      expect(page).toContain(`<th scope="row"><code>${name}</code></th>`);
    }
  });
});

describe('/docs and /docs/authentication', () => {
  it('show curls that work, with either header', async () => {
    for (const pagePath of [DOCS_PATH, AUTHENTICATION_DOCS_PATH]) {
      const curls = apiCurls(pages.get(pagePath)!);
      expect(curls.map((c) => c.header).sort()).toEqual(['Authorization: Bearer', 'X-API-Key:']);
      for (const c of curls) expect((await runCurl(c, keys.business)).status).toBe(200);
    }
  });

  it('/docs names the CLI command that makes a key, and the CLI has it', () => {
    expect(pages.get(DOCS_PATH)).toContain('npm run cli -- keys create --email you@example.com');
    const cli = readFileSync(new URL('../../cli/accounts.ts', import.meta.url), 'utf8');
    expect(cli).toContain(".command('create')");
    expect(cli).toContain("requiredOption('--email <email>'");
  });

  it('/docs/authentication says that Bearer wins and lists the key errors', () => {
    const page = pages.get(AUTHENTICATION_DOCS_PATH)!;
    expect(textOf(page)).toContain('When both are sent, Authorization: Bearer wins');
    for (const code of ['missing_api_key', 'invalid_api_key', 'api_key_revoked']) expect(page).toContain(`<a href="${ERRORS_DOCS_PATH}#${code}"><code>${code}</code></a>`);
  });

  it('Bearer does win: a revoked Bearer key beside a valid X-API-Key is refused, as the page says', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/hijri?date=2026-03-01`, { headers: { Authorization: `Bearer ${keys.revoked}`, 'X-API-Key': keys.business } });
    expect(res.status).toBe(403);
  });
});

describe('/docs/mcp', () => {
  const jsonRpcCurls = (page: string) =>
    [...unescape(page).matchAll(/curl -X POST '([^']+)'[\s\S]*?-d '([^']+)'/g)].map((m) => ({ url: m[1], body: m[2] }));
  const post = (url: string, body: string) =>
    fetch(server.baseUrl + url.slice(PUBLIC_BASE_URL.length), {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys.business}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body,
    });

  it('lists a tool per operation, and its tools/list curl answers those very tools', async () => {
    const page = pages.get(MCP_DOCS_PATH)!;
    const operationIds = Object.values<any>(doc.paths).map((item) => item.get.operationId);
    for (const id of operationIds) expect(page).toContain(`<th scope="row"><code>${id}</code></th>`);
    const [list] = jsonRpcCurls(page);
    expect(JSON.parse(list.body).method).toBe('tools/list');
    const res = await post(list.url, list.body);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as any;
    expect(answer.result.tools.map((t: { name: string }) => t.name)).toEqual(operationIds);
  });

  it('shows a tools/call curl that answers the API example, and a client config with the endpoint', async () => {
    const page = pages.get(MCP_DOCS_PATH)!;
    const call = jsonRpcCurls(page)[1];
    expect(JSON.parse(call.body).method).toBe('tools/call');
    const res = await post(call.url, call.body);
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as any;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(doc.paths['/api/v1/times'].get.responses['200'].content['application/json'].examples.city.value);
    const config = JSON.parse(unescape(page).match(/<pre><code>(\{\s*"mcpServers"[\s\S]*?)<\/code><\/pre>/)![1]);
    expect(config.mcpServers['prayer-times']).toEqual({ type: 'http', url: `${PUBLIC_BASE_URL}/mcp`, headers: { Authorization: 'Bearer mk_your_key_here' } });
    expect(textOf(page)).toContain('Each tools/call counts as one API request');
  });
});

describe('/pricing', () => {
  it('shows the default plans', async () => {
    const page = await (await fetch(defaults.baseUrl + PRICING_PATH)).text();
    expect(planRow(page, 'trial')).toEqual(['10', '1,000']);
    expect(planRow(page, 'pro')).toEqual(['60', '100,000']);
    expect(planRow(page, 'business')).toEqual(['300', '1,000,000']);
    expect(page).toContain('<th scope="col">Requests per minute</th>');
    expect(page).toContain('<a href="/dashboard">');
    expect(textOf(page)).toContain('MCP tool calls count like API requests');
  });

  it('shows the plans of PLANS_FILE where it overrides them', () => {
    const page = pages.get(PRICING_PATH)!;
    expect(planRow(page, 'business')).toEqual(['1,000,000,000', '1,000,000,000,000']);
    expect(planRow(page, 'trial')).toEqual(['10', '1,000']);
  });
});

describe('the pieces', () => {
  it('say bounds in words', () => {
    const base = { name: 'x', required: false, description: '', type: 'string' };
    expect(boundsText({ ...base, type: 'number', minimum: -90, maximum: 90 })).toBe('-90 to 90');
    expect(boundsText({ ...base, minLength: 2, maxLength: 100 })).toBe('2 to 100 characters');
    expect(boundsText({ ...base, minLength: 1, maxLength: 16, enum: ['shafi', 'hanafi'] })).toBe('');
    expect(boundsText({ ...base, minLength: 3 })).toBe('at least 3 characters');
  });

  it('find broken structure (the check the pages pass)', () => {
    expect(structureProblems('<main><p>a</p><br></main>')).toEqual([]);
    expect(structureProblems('<main><p>a</main>')).toHaveLength(2);
    expect(structureProblems('<table><tr><td>a</tr>')).not.toEqual([]);
  });

  it('quote for a shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('turn an example request into tool arguments, numbers as numbers', () => {
    const op = {
      operationId: 'getQibla',
      path: '/api/v1/qibla',
      summary: '',
      description: [],
      rules: [],
      responses: [],
      parameters: [
        { name: 'lat', required: false, description: '', type: 'number' },
        { name: 'city', required: false, description: '', type: 'string' },
      ],
      examples: [{ name: 'x', summary: '', request: '/api/v1/qibla?lat=-6.2&city=Paris%2C+FR', value: {} }],
    };
    expect(exampleArguments(op)).toEqual({ lat: -6.2, city: 'Paris, FR' });
  });
});
