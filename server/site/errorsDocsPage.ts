// /docs/errors: one section per error code, its id the code, so the `docs` link of every error body lands on it.
// The codes and statuses come from the error table (errors.ts, ERROR_STATUS and ERROR_DOCS), the codes nginx
// answers in front of the service from EDGE_ERRORS, the example bodies from the OpenAPI document (made by the real
// code) where it has one.
import { STATUS_CODES } from 'node:http';
import { EDGE_ERRORS, ERROR_DOCS, ERROR_STATUS, errorObject, type ErrorCode, type ErrorExplanation } from '../errors.js';
import { AUTHENTICATION_DOCS_PATH, ERRORS_DOCS_PATH, errorDocsUrl, pricingUrl } from '../links.js';
import { docsPage } from './docsFrame.js';
import { html, type Html } from '../web/html.js';
import { errorExamplesOf } from './openApiView.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';

export interface ErrorEntry extends ErrorExplanation {
  code: string;
  status: number;
  /** Who answers it: the service, nginx in front of it (deploy/nginx.conf), or either (the service's edge without one). */
  by: 'service' | 'proxy' | 'proxy and service';
  /** An example body. */
  example: unknown;
  /** The response headers the OpenAPI document gives for it, beyond X-Request-Id. */
  headers: readonly string[];
}

const AUTH_CODES: ReadonlySet<string> = new Set(['missing_api_key', 'invalid_api_key', 'api_key_revoked', 'key_restricted']);

/** Every code the pages document: the service's, then the proxy's. */
export function errorEntries(base: string, doc: Record<string, unknown>): ErrorEntry[] {
  const examples = errorExamplesOf(doc);
  const service = (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => ({
    code,
    status: ERROR_STATUS[code],
    by: 'service' as const,
    ...ERROR_DOCS[code],
    example: examples.get(code)?.value ?? { error: errorObject(code, ERROR_DOCS[code].exampleMessage ?? ERROR_DOCS[code].when, { publicBaseUrl: base }) },
    headers: examples.get(code)?.headers ?? (code === 'method_not_allowed' ? ['Allow'] : []),
  }));
  const proxy = Object.entries(EDGE_ERRORS).map(([code, e]) => ({
    code,
    status: e.status,
    by: 'alsoByService' in e ? ('proxy and service' as const) : ('proxy' as const),
    when: e.when,
    fix: e.fix,
    example: { error: { code, message: e.message, docs: errorDocsUrl(base, code), pricing: pricingUrl(base) } },
    headers: [],
  }));
  return [...service, ...proxy];
}

const ANSWERED_BY = {
  service: 'the service',
  proxy: 'the reverse proxy in front of the service (nginx), before the request reaches it',
  'proxy and service': 'the reverse proxy in front of the service (nginx), before the request reaches it; without one, the service itself',
} as const;

const statusText = (status: number): string => `${status} ${STATUS_CODES[status] ?? ''}`.trim();

function entrySection(entry: ErrorEntry): Html {
  return html`<section id="${entry.code}">
<h2>${entry.code}</h2>
<dl class="facts">
<dt>Status</dt><dd>${statusText(entry.status)}</dd>
<dt>Answered by</dt><dd>${ANSWERED_BY[entry.by]}</dd>
<dt>When</dt><dd>${entry.when}</dd>
<dt>What to do</dt><dd>${entry.fix}</dd>
${entry.headers.length > 0 && html`<dt>Headers</dt><dd>${entry.headers.map((h, i) => html`${i > 0 && ', '}<code>${h}</code>`)}</dd>\n`}</dl>
${AUTH_CODES.has(entry.code) && html`<p class="note">The <code>docs</code> link of this error leads to <a href="${AUTHENTICATION_DOCS_PATH}">Authentication</a>, which explains keys.</p>\n`}<h3>Example</h3>
<pre><code>${JSON.stringify(entry.example, null, 2)}</code></pre>
</section>`;
}

function contents(entries: readonly ErrorEntry[]): Html {
  return html`<table class="stack">
<caption>Error codes</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col">When</th></tr></thead>
<tbody>
${entries.map((e) => html`<tr><th scope="row"><a href="#${e.code}"><code>${e.code}</code></a></th><td data-label="Status">${e.status}</td><td>${firstSentence(e.when)}</td></tr>\n`)}</tbody>
</table>`;
}

/** The first sentence of a text, for the table of contents. */
export const firstSentence = (text: string): string => {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
};

export function errorsDocsPage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (request.path !== ERRORS_DOCS_PATH) return undefined;
  const entries = errorEntries(request.base, ctx.data.openApi(request.base));
  const main = html`<h1>Errors</h1>
<p class="lede">Every error is JSON, with a status code and a body that names what went wrong:</p>
<pre><code>{"error":{"code":"…","message":"…","docs":"${request.base}${ERRORS_DOCS_PATH}#…","pricing":"${pricingUrl(request.base)}"}}</code></pre>
<p><code>code</code> is one of those below and stays the same; <code>message</code> says in words what was wrong (the parameter and the
values it may take) and may change; <code>docs</code> links to the code's section on this page (to
<a href="${AUTHENTICATION_DOCS_PATH}">Authentication</a> for 401 and 403). Every answer carries <code>X-Request-Id</code>.
The checks run in this order: the key (401, 403), then the limits (429), then the parameters (400), then the lookups (404);
an unknown path (404) or another method (405) is answered before the key is looked at.</p>
${contents(entries)}
${entries.map(entrySection)}`;
  return docsPage(request, {
    path: ERRORS_DOCS_PATH,
    title: 'Errors',
    description: 'Every error code of the Prayer Times API: its status, when it happens, what to do, and an example body.',
    main,
  });
}
