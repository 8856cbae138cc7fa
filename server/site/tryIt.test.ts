// /docs/api's try-it forms and code samples over real HTTP. The forms say what the served OpenAPI document says (an
// input per parameter with its type, bounds, allowed values and default; the first example's values filled in) and can
// never put the key in an address; the page's policy lets its script reach the API. Every operation has a sample in
// curl, JavaScript, Python and PHP with its example's values, and the samples are RUN as the page shows them: the
// JavaScript one by this Node.js, the Python one by Debian's python3 with python3-requests, the PHP one by Debian's
// php-cli (`make samples`, testing/install-sample-runtimes.sh, installs both), against this server with a real key.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_REFERENCE_PATH } from '../links.js';
import { ASSETS } from '../web/assets.js';
import { siteServerForFile } from '../../testing/siteServer.js';
import { SAMPLE_LABELS, type SampleLanguage } from './codeSamples.js';

// No PUBLIC_BASE_URL: the server's own address (http://localhost:<port>) is the samples' base, so they run as shown.
const site = siteServerForFile('');
/** The Debian interpreters the samples run under (testing/install-sample-runtimes.sh installs them). */
const PYTHON = '/usr/bin/python3';
const PHP = '/usr/bin/php';

let page = '';
let doc: any;
let csp = '';
beforeAll(async () => {
  const res = await fetch(site.server.baseUrl + API_REFERENCE_PATH);
  expect(res.status).toBe(200);
  csp = res.headers.get('content-security-policy') ?? '';
  page = await res.text();
  doc = await (await fetch(`${site.server.baseUrl}/api/v1/openapi.json`)).json();
}, 60_000);

const unescape = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

interface Operation {
  operationId: string;
  path: string;
  parameters: Array<{ name: string; required: boolean; schema: any }>;
  /** The first example's request, `/api/v1/…?…`. */
  request: string;
}

const operations = (): Operation[] =>
  Object.entries<any>(doc.paths).map(([p, item]) => {
    const example: any = Object.values(item.get.responses['200'].content['application/json'].examples)[0];
    return { operationId: item.get.operationId, path: p, parameters: item.get.parameters, request: example.description.replace(/^GET /, '') };
  });

const sectionOf = (operationId: string): string => {
  const section = page.match(new RegExp(`<section id="${operationId}">([\\s\\S]*?)</section>`))?.[1];
  expect(section, operationId).toBeDefined();
  return section!;
};

/** The samples of an operation's section, by language, as text. */
function samplesOf(operationId: string): Map<string, string> {
  const found = [...sectionOf(operationId).matchAll(/<details class="sample" name="([^"]+)" data-language="(\w+)"[^>]*><summary>([^<]+)<\/summary>\n<pre><code>([\s\S]*?)<\/code><\/pre>/g)];
  for (const [, name, language, summary] of found) {
    expect(name).toBe(`${operationId}-samples`);
    expect(summary).toBe(SAMPLE_LABELS[language as SampleLanguage]);
  }
  return new Map(found.map((m) => [m[2], unescape(m[4])]));
}

/** One element of the form, by its name: the whole tag (and a select's options). */
function controlOf(form: string, name: string): string {
  const select = form.match(new RegExp(`<select [^>]*name="${name}"[^>]*>[\\s\\S]*?</select>`))?.[0];
  return select ?? form.match(new RegExp(`<input [^>]*name="${name}"[^>]*>`))?.[0] ?? '';
}

const attribute = (tag: string, name: string): string | undefined => tag.match(new RegExp(`\\s${name}(?:="([^"]*)")?[\\s>]`))?.[1] ?? (new RegExp(`\\s${name}[\\s>]`).test(tag) ? '' : undefined);

describe('the try-it forms', () => {
  it('are one per operation, hidden until the script runs, sent to the operation\'s path, with a password field for the key that no submission carries', () => {
    expect(operations()).toHaveLength(6);
    for (const op of operations()) {
      const section = sectionOf(op.operationId);
      const form = section.match(/<form class="try-it"[^>]*>[\s\S]*?<\/form>/)?.[0];
      expect(form, op.operationId).toBeDefined();
      const tag = form!.match(/<form[^>]*>/)![0];
      expect(attribute(tag, 'id')).toBe(`${op.operationId}-try`);
      expect(attribute(tag, 'action')).toBe(op.path);
      expect(attribute(tag, 'method')).toBe('get');
      expect(attribute(tag, 'hidden')).toBe('');
      // The key: a password field with a label, that the browser does not fill or remember, and that has no name.
      const keys = form!.match(/<input [^>]*data-try-key[^>]*>/g) ?? [];
      expect(keys).toHaveLength(1);
      const key = keys[0]!;
      expect(attribute(key, 'type')).toBe('password');
      expect(attribute(key, 'autocomplete')).toBe('off');
      expect(attribute(key, 'name')).toBeUndefined();
      expect(form).toContain(`<label for="${attribute(key, 'id')}">Your API key</label>`);
      expect(form).toContain('<button type="submit">Send</button>');
      // Where the answer goes, and the note shown without JavaScript.
      expect(section).toContain(`<div class="try-it-result" id="${op.operationId}-try-result" aria-live="polite" hidden>`);
      expect(section).toMatch(/<p class="try-it-off">Try it needs JavaScript\./);
    }
    expect(page).toContain('<p id="try-it-key-note">');
  });

  it('have an input per parameter of the document: its type, bounds, allowed values as a select, default as placeholder, the first example filled in', () => {
    let checked = 0;
    for (const op of operations()) {
      const form = sectionOf(op.operationId).match(/<form class="try-it"[^>]*>[\s\S]*?<\/form>/)![0];
      const example = new URLSearchParams(op.request.split('?')[1] ?? '');
      const names = [...form.matchAll(/\sname="([^"]+)"/g)].map((m) => m[1]);
      expect(names, op.operationId).toEqual(op.parameters.map((p) => p.name));
      for (const p of op.parameters) {
        checked++;
        const s = p.schema;
        const control = controlOf(form, p.name);
        const id = `${op.operationId}-try-${p.name}`;
        expect(attribute(control, 'id'), `${op.operationId} ${p.name}`).toBe(id);
        expect(form).toContain(`<label for="${id}"><code>${p.name}</code></label>`);
        expect(attribute(control, 'required')).toBe(p.required ? '' : undefined);
        const given = example.get(p.name);
        if (s.enum) {
          expect(control.startsWith('<select ')).toBe(true);
          const options = [...control.matchAll(/<option([^>]*)>([^<]*)<\/option>/g)];
          expect(options.slice(1).map((o) => o[2])).toEqual(s.enum);
          expect(options[0][1]).toContain('value=""');
          expect(options.filter((o) => o[1].includes(' selected')).map((o) => (o[2].startsWith('default') ? '' : o[2]))).toEqual([given ?? '']);
          continue;
        }
        const value = attribute(control, 'value');
        expect(value === undefined ? undefined : unescape(value)).toBe(given ?? undefined);
        if (s.type === 'number' || s.type === 'integer') {
          expect(attribute(control, 'type')).toBe('number');
          expect(attribute(control, 'min')).toBe(String(s.minimum));
          expect(attribute(control, 'max')).toBe(String(s.maximum));
          expect(attribute(control, 'step')).toBe(s.type === 'integer' ? '1' : 'any');
        } else if (s.format === 'date') {
          expect(attribute(control, 'type')).toBe('date');
        } else {
          expect(attribute(control, 'type')).toBe('text');
          expect(attribute(control, 'maxlength')).toBe(String(s.maxLength));
          expect(attribute(control, 'minlength')).toBe(s.minLength > 1 ? String(s.minLength) : undefined);
        }
        expect(attribute(control, 'placeholder')).toBe(s.default === undefined ? undefined : String(s.default));
      }
    }
    expect(checked).toBeGreaterThan(20);
    // Spot checks: /cities' q is required and 2 to 100 characters, limit's default is the placeholder; lat is bounded.
    expect(controlOf(sectionOf('searchCities'), 'q')).toMatch(/minlength="2" maxlength="100"/);
    expect(page).toMatch(/<input type="number" id="searchCities-try-limit" name="limit" aria-describedby="searchCities-try-limit-hint" value="3" min="1" max="50" step="1" placeholder="10">/);
    expect(page).toMatch(/<input type="number" id="getNextPrayer-try-lat" name="lat" [^>]*min="-90" max="90" step="any">/);
  });

  it('run tryIt.js, an asset file (no inline script), and the page\'s policy lets it reach the API at the page\'s own origin', async () => {
    const asset = ASSETS.get('tryIt.js')!;
    expect(page).toContain(`<script src="${asset.href}" defer></script>`);
    const res = await fetch(site.server.baseUrl + asset.href);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toContain("form.getAttribute('action')");
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    // A form's native submission (not the script's) could only go to the site itself, and it carries no key.
    expect(directives.get('form-action')).toContain("'self'");
  });
});

describe('the code samples', () => {
  it('give every operation its example request in curl, JavaScript, Python and PHP, with the example\'s values', () => {
    for (const op of operations()) {
      const samples = samplesOf(op.operationId);
      expect([...samples.keys()], op.operationId).toEqual(['curl', 'javascript', 'python', 'php']);
      const base = site.server.baseUrl.replace('127.0.0.1', 'localhost');
      const [, query = ''] = op.request.split('?');
      const params = [...new URLSearchParams(query)];
      expect(params.length, op.operationId).toBeGreaterThan(0);
      const numeric = (name: string) => ['number', 'integer'].includes(op.parameters.find((p) => p.name === name)!.schema.type);
      expect(samples.get('curl')).toBe(`curl -H "Authorization: Bearer $KEY" '${base}${op.request}'`);
      expect(samples.get('javascript')).toContain(`fetch('${base}${op.path}?' + params, {`);
      expect(samples.get('javascript')).toContain('Authorization: `Bearer ${process.env.KEY}`');
      expect(samples.get('python')).toContain(`    "${base}${op.path}",\n`);
      expect(samples.get('python')).toContain('"Authorization": "Bearer " + os.environ["KEY"]');
      expect(samples.get('php')).toContain(`$url = '${base}${op.path}?' . http_build_query([`);
      expect(samples.get('php')).toContain("'Authorization: Bearer ' . getenv('KEY')");
      for (const [name, value] of params) {
        expect(samples.get('javascript'), `${op.operationId} ${name}`).toContain(`${name}: '${value}'`);
        expect(samples.get('python'), `${op.operationId} ${name}`).toContain(`"${name}": ${numeric(name) ? value : `"${value}"`}`);
        expect(samples.get('php'), `${op.operationId} ${name}`).toContain(`'${name}' => ${numeric(name) ? value : `'${value}'`}`);
      }
    }
  });

  it('fold all but curl, which is open', () => {
    for (const op of operations()) {
      const tags = [...sectionOf(op.operationId).matchAll(/<details class="sample"[^>]*>/g)].map((m) => m[0]);
      expect(tags.map((t) => attribute(t, 'open'))).toEqual(['', undefined, undefined, undefined]);
    }
  });
});

/** Runs a program with the key in KEY; resolves with its exit code and output. */
function run(command: string, args: string[], key: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', KEY: key, LANG: 'C.UTF-8' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const folder = mkdtempSync(path.join(tmpdir(), 'prayer-times-samples-'));

/** Writes a sample to a file of its own and runs it. */
function runSample(language: 'javascript' | 'python' | 'php', operationId: string, key: string) {
  const file = path.join(folder, `${operationId}.${{ javascript: 'mjs', python: 'py', php: 'php' }[language]}`);
  writeFileSync(file, samplesOf(operationId).get(language)!);
  const command = { javascript: process.execPath, python: PYTHON, php: PHP }[language];
  return run(command, [file], key);
}

/** What the API answers the same request now, with the key, straight from this test. */
async function directAnswer(request: string): Promise<any> {
  return site.api(request);
}

/** The answer of /next moves with the clock: compared without its seconds. */
const steady = (operationId: string, body: any): any =>
  operationId === 'getNextPrayer' ? { location: body.location, next: body.next.prayer, previous: body.previous?.prayer } : body;

describe.each([
  ['javascript', 'Node.js (fetch)', process.execPath],
  ['python', "Debian's python3 with python3-requests", PYTHON],
  ['php', "Debian's php-cli", PHP],
] as const)('the %s samples, run by %s against this server', (language, _, interpreter) => {
  beforeAll(() => {
    if (!existsSync(interpreter)) {
      throw new Error(`${interpreter} is missing: the code samples' test runs them with Debian's python3-requests and php-cli. Run \`make samples\` (testing/install-sample-runtimes.sh).`);
    }
  });

  it('answer 200 with the body the API gives, printed as JSON', async () => {
    for (const op of operations()) {
      const { code, stdout, stderr } = await runSample(language, op.operationId, site.key);
      expect(stderr, `${language} ${op.operationId}`).toBe('');
      expect(code, `${language} ${op.operationId}`).toBe(0);
      const printed = JSON.parse(stdout);
      expect(steady(op.operationId, printed), `${language} ${op.operationId}`).toEqual(steady(op.operationId, await directAnswer(op.request)));
    }
  }, 60_000);

  it('stop with the status and the error code when the key is wrong', async () => {
    const { code, stdout, stderr } = await runSample(language, 'getQibla', 'mk_not_a_key_of_ours');
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('401 invalid_api_key: ');
  });
});
