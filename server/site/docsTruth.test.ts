// The developer pages say what the running service does, over real HTTP (docs/site.md, "Docs that are true"): no page
// promises a thing to come ("coming", "soon", "not yet", "planned"…); every link, every path and URL in their code and
// every project command they name exists on this server and in this repository; and Getting started, followed step by
// step as a developer would (sign in at the dashboard with an e-mail code as a new address, create a key, run the curl),
// works.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DashboardBrowser, outboxMail } from '../../testing/dashboardBrowser.js';
import { dataDirWithCatalog, runCli, startServerWithKey, type RunningServer } from '../../testing/serverProcess.js';
import { CHOOSER_PATH, DASHBOARD_PATH, DOCS_PATH, LANGUAGE_HOME_PATH, PRICING_PATH } from '../links.js';
import { DOCS_PAGES } from './docsFrame.js';
import { CLI_CREATE_KEY } from './gettingStartedPage.js';

const PUBLIC_BASE_URL = 'https://prayer-times.example';
/** Every docs page, /pricing, the homes, and the page the docs send a developer to for a key (in both languages). */
const PAGES = [...DOCS_PAGES.map((p) => p.path), PRICING_PATH, CHOOSER_PATH, LANGUAGE_HOME_PATH.tr, LANGUAGE_HOME_PATH.en, '/dashboard/sign-in?lang=en', '/dashboard/sign-in?lang=tr'];

let server: RunningServer;
let key: string;
const pages = new Map<string, string>();

beforeAll(async () => {
  ({ server, key } = await startServerWithKey({ DATA_DIR: dataDirWithCatalog(inject('catalogDataDir')), PUBLIC_BASE_URL }));
  for (const page of PAGES) {
    const res = await fetch(server.baseUrl + page);
    expect(res.status, page).toBe(200);
    pages.set(page, await res.text());
  }
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
/** What a reader sees: the body's text without tags, scripts and styles, entities read, white space folded. */
const visibleText = (page: string): string =>
  unescape(
    page
      .replace(/^[\s\S]*?<body\b[^>]*>/, '')
      .replace(/<script\b[\s\S]*?<\/script>/g, ' ')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
/** The text of a page's code: `<code>` spans and `<pre>` blocks, entities read. */
const codeOf = (page: string): string[] => [...page.matchAll(/<code\b[^>]*>([\s\S]*?)<\/code>/g)].map((m) => unescape(m[1].replace(/<[^>]+>/g, '')));
const idsOf = (page: string): string[] => [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);

/**
 * Words that promise a thing for later, in English and Turkish, as whole words (a letter on neither side, so
 * "upcoming" or "Yakındaki" is not one). A page says what the service does now, or nothing.
 */
const PROMISES = [
  'coming',
  'coming soon',
  'soon',
  'not yet',
  'planned',
  'in the future',
  'until then',
  'will be available',
  'yakında',
  'ileride',
  'gelecekte',
  'planlan\\p{L}*',
];
const PROMISE = new RegExp(`(?<!\\p{L})(?:${PROMISES.join('|')})(?!\\p{L})`, 'giu');

/** Where a page's text promises: each match with some context. */
const promisesIn = (text: string): string[] => [...text.matchAll(PROMISE)].map((m) => text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40));

/** An answer's status without following redirects, for a path of this server (with the key, for the API's paths). */
async function statusOf(pathAndQuery: string): Promise<number> {
  const res = await fetch(server.baseUrl + pathAndQuery, { redirect: 'manual', headers: { Authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

describe('the words', () => {
  it('find a promise where there is one (the check itself)', () => {
    expect(promisesIn('Sign-up in the developer dashboard is coming; until then the operator makes keys.')).toHaveLength(2);
    expect(promisesIn('Passkeys: soon.')).toHaveLength(1);
    expect(promisesIn('This is not yet possible.')).toHaveLength(1);
    expect(promisesIn('Panel yakında açılacak.')).toHaveLength(1);
    expect(promisesIn('Bu özellik planlanıyor.')).toHaveLength(1);
    expect(promisesIn('The upcoming prayer. Yakındaki yerler. Becoming.')).toEqual([]);
  });

  it.each(PAGES)('%s promises nothing for later', (page) => {
    expect(promisesIn(visibleText(pages.get(page)!))).toEqual([]);
  });
});

describe('what the pages name exists', () => {
  it('every link and every file a page loads answers here (no 404), and a fragment lands on an id of its page', async () => {
    const targets = new Map<string, string>(); // path and query → the first page that links it
    const fragments: Array<{ page: string; target: string; path: string; id: string }> = [];
    for (const [page, markup] of pages) {
      for (const [, attribute] of markup.matchAll(/\s(?:href|src|action)="([^"]+)"/g)) {
        const target = unescape(attribute);
        if (target.startsWith('#')) {
          expect(idsOf(markup), `${page} ${target}`).toContain(target.slice(1));
          continue;
        }
        let url: URL;
        if (target.startsWith('/')) url = new URL(target, PUBLIC_BASE_URL);
        else if (target.startsWith(`${PUBLIC_BASE_URL}/`) || target === PUBLIC_BASE_URL) url = new URL(target);
        else continue; // another site's address, or a scheme such as mailto:
        const pathAndQuery = `${url.pathname}${url.search}`;
        if (!targets.has(pathAndQuery)) targets.set(pathAndQuery, `${page} links ${target}`);
        if (url.hash && url.pathname !== DASHBOARD_PATH && !url.pathname.startsWith(`${DASHBOARD_PATH}/`)) fragments.push({ page, target, path: url.pathname, id: url.hash.slice(1) });
      }
    }
    const all = [...targets];
    for (let i = 0; i < all.length; i += 8) {
      const statuses = await Promise.all(all.slice(i, i + 8).map(([pathAndQuery]) => statusOf(pathAndQuery)));
      statuses.forEach((status, j) => {
        expect(status, all[i + j][1]).not.toBe(404);
        expect(status, all[i + j][1]).toBeLessThan(500);
      });
    }
    for (const { page, target, path, id } of fragments) {
      const linked = pages.get(path) ?? (await (await fetch(server.baseUrl + path)).text());
      expect(idsOf(linked), `${page} links ${target}`).toContain(id);
    }
    // The docs link the dashboard, the reference, the errors and the OpenAPI document, at least.
    for (const path of [DASHBOARD_PATH, '/docs/api', '/docs/errors', '/api/v1/openapi.json', PRICING_PATH]) expect([...targets.keys()]).toContain(path);
  }, 180_000);

  it('every path and URL of this service that the pages show as code answers here', async () => {
    const named = new Set<string>();
    for (const markup of pages.values()) {
      for (const code of codeOf(markup)) {
        // URLs on the public base URL (curls, client settings, samples), and paths shown alone (`/healthz`, `GET /api/v1/times`).
        for (const [url] of code.matchAll(new RegExp(`${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/[^\\s'"<>\`)\\\\]*`, 'g'))) named.add(url.slice(PUBLIC_BASE_URL.length));
        const alone = /^(?:GET |POST )?(\/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)$/.exec(code.trim());
        if (alone) named.add(alone[1]);
      }
    }
    expect(named.size).toBeGreaterThan(10);
    const answered = new Map<string, number>();
    for (const pathAndQuery of named) answered.set(pathAndQuery, await statusOf(pathAndQuery));
    for (const [pathAndQuery, status] of answered) {
      // A prefix that is no page of its own ("every operation is a GET under …/api/v1") holds when paths under it answer.
      const under = [...answered].filter(([other, s]) => other.startsWith(`${pathAndQuery}/`) && s !== 404);
      if (status === 404 && under.length > 0) continue;
      expect(status, pathAndQuery).not.toBe(404);
      expect(status, pathAndQuery).toBeLessThan(500);
    }
    for (const path of ['/healthz', '/readyz', '/mcp', '/api/v1/openapi.json']) expect([...named]).toContain(path);
  });

  it('every project command the pages show exists: the npm script, and the CLI command with each option it passes', async () => {
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;
    const makefile = readFileSync(new URL('../../Makefile', import.meta.url), 'utf8');
    const commands = [...pages.values()].flatMap((markup) => codeOf(markup).flatMap((code) => code.split('\n'))).map((line) => line.trim());
    const project = [...new Set(commands.filter((line) => /^(?:npm|make)\s/.test(line)))];
    expect(project).toContain(CLI_CREATE_KEY);
    for (const command of project) {
      const words = command.split(/\s+/);
      if (words[0] === 'make') {
        for (const target of words.slice(1).filter((w) => !w.startsWith('-'))) expect(makefile, command).toMatch(new RegExp(`^${target}:`, 'm'));
        continue;
      }
      if (words[1] === 'install' || words[1] === 'i') {
        // A package of this repository's own (clients/<name>/package.json), by its name.
        const ours = readdirSync(new URL('../../clients/', import.meta.url), { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && existsSync(new URL(`../../clients/${entry.name}/package.json`, import.meta.url)))
          .map((entry) => JSON.parse(readFileSync(new URL(`../../clients/${entry.name}/package.json`, import.meta.url), 'utf8')).name);
        for (const name of words.slice(2).filter((w) => !w.startsWith('-'))) expect(ours, command).toContain(name.replace(/(?<=.)@[^@/]*$/, ''));
        continue;
      }
      expect(words.slice(0, 2), command).toEqual(['npm', 'run']);
      expect(Object.keys(scripts), command).toContain(words[2]);
      if (words[2] !== 'cli') continue;
      // `npm run cli -- keys create --email …`: the CLI knows the command, and its help lists every option given.
      const args = words.slice(words.indexOf('--') + 1);
      const subcommand = args.filter((w, i) => !w.startsWith('-') && !(i > 0 && args[i - 1].startsWith('--')));
      const help = await runCli([...subcommand, '--help'], { DATA_DIR: server.dataDir });
      expect(help.code, `${command}\n${help.stderr}`).toBe(0);
      expect(help.stdout).toContain(`Usage: `);
      expect(help.stdout, command).toContain(subcommand.join(' '));
      for (const option of args.filter((w) => w.startsWith('--'))) expect(help.stdout, command).toContain(option);
    }
  }, 60_000);
});

describe('Getting started, followed as written', () => {
  it('says to sign in at the dashboard by e-mail code or passkey, a new address getting a trial account, and to create the key there', () => {
    const text = visibleText(pages.get(DOCS_PATH)!);
    expect(text).toContain('Keys are made in the developer dashboard');
    expect(text).toMatch(/sign in with your e-mail address: a message brings a 6-digit code/);
    expect(text).toContain('gets a new account on the trial plan');
    expect(text).toContain('add a passkey and sign in with it');
    expect(text).toContain('On the dashboard\'s Keys page, name a key and create it');
    // The CLI stays, for a server's operator.
    expect(text).toContain(`The operator of a server can also make a key with its command-line tool, on the server's data directory: ${CLI_CREATE_KEY}`);
    const auth = visibleText(pages.get('/docs/authentication')!);
    expect(auth).toContain('Make one in the developer dashboard after signing in with your e-mail address or a passkey');
  });

  it('works: a new address signs in with the mailed code, is on the trial plan, creates a key on the Keys page, and the page’s curl answers 200 with it', async () => {
    const markup = pages.get(DOCS_PATH)!;
    expect(markup).toContain(`<a href="${DASHBOARD_PATH}">`);
    // The dashboard's sign-in page offers both ways the docs name.
    const signInPage = pages.get('/dashboard/sign-in?lang=en')!;
    expect(signInPage).toContain('name="email"');
    expect(signInPage).toMatch(/passkey/i);
    const developer = new DashboardBrowser(server.baseUrl, PUBLIC_BASE_URL);
    const signedIn = await developer.signIn('first.time@example.com', (email) => outboxMail(server.dataDir, email));
    expect(signedIn.status).toBe(303);
    const home = await developer.get(DASHBOARD_PATH);
    expect(home.status).toBe(200);
    expect(visibleText(home.text)).toMatch(/Trial/);
    await developer.get('/dashboard/keys');
    const created = await developer.post('/dashboard/keys', { name: 'from the docs' });
    expect(created.status).toBe(200);
    const newKey = /(mk_[0-9A-Za-z]{32})/.exec(created.text)![1];
    // As the page says: a Copy button, and a curl with the key in it.
    expect(visibleText(created.text)).toMatch(/Copy the key/);
    expect(unescape(created.text)).toMatch(new RegExp(`curl [^<]*${newKey}`));
    // The first curl of the page, with the new key in KEY, against this server.
    const [, header, url] = /curl -H "(Authorization: Bearer|X-API-Key:) \$KEY" '([^']+)'/.exec(unescape(markup))!;
    expect(url.startsWith(PUBLIC_BASE_URL)).toBe(true);
    const headers: Record<string, string> = header === 'X-API-Key:' ? { 'X-API-Key': newKey } : { Authorization: `Bearer ${newKey}` };
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      status = (await fetch(server.baseUrl + url.slice(PUBLIC_BASE_URL.length), { headers })).status;
    }
    expect(status).toBe(200);
  });
});
