// /docs/authentication: the key, the two headers and which wins, what needs no key, the 401/403 errors (from the
// error table) and the headers every keyed answer carries (from the OpenAPI document). The `docs` link of 401 and
// 403 bodies lands here.
import { ERROR_DOCS, ERROR_STATUS, type ErrorCode } from '../errors.js';
import { AUTHENTICATION_DOCS_PATH, DASHBOARD_PATH, DOCS_PATH, ERRORS_DOCS_PATH, MCP_DOCS_PATH, MCP_PATH, OPENAPI_PATH, PRICING_PATH } from '../links.js';
import { apiCurl } from './curlSnippets.js';
import { docsPage } from './docsFrame.js';
import { html } from '../web/html.js';
import { headersOf, operationsOf } from './openApiView.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';

/** The errors about the key, in the table's order. */
export const KEY_ERRORS: readonly ErrorCode[] = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === 401 || ERROR_STATUS[c] === 403);

export function authenticationDocsPage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (request.path !== AUTHENTICATION_DOCS_PATH) return undefined;
  const base = request.base;
  const doc = ctx.data.openApi(base);
  const example = operationsOf(doc).find((op) => op.examples.length > 0)?.examples[0].request ?? '/api/v1/hijri';
  const headers = headersOf(doc).filter((h) => h.name !== 'X-Request-Id');
  const main = html`<h1>Authentication</h1>
<p class="lede">Every call to the API and to the MCP server carries an API key. Keys belong to an account; the account's plan sets the
limits, shared by all its keys.</p>
<h2 id="keys">Keys</h2>
<p>A key is <code>mk_</code> followed by 32 letters and digits, made at random. It is shown once, when it is created; the service
keeps only a hash of it and a short prefix (<code>mk_</code> and 6 characters) to name it. Make one in the
<a href="${DASHBOARD_PATH}">developer dashboard</a> after signing in with your e-mail address or a passkey (a new address gets a
trial account): <a href="${DOCS_PATH}#key">Getting started</a> says how. The dashboard lists your keys and revokes them; a revoked
key is refused from then on (within a second) and never works again.</p>
<h2 id="headers">Sending the key</h2>
<p>In either header:</p>
<pre><code>${apiCurl(base, example)}
${apiCurl(base, example, 'x-api-key')}</code></pre>
<p><strong>When both are sent, <code>Authorization: Bearer</code> wins</strong>: the request is judged by the Bearer key alone
and <code>X-API-Key</code> is ignored, whatever either holds. An unknown or revoked Bearer key is refused even beside a valid
<code>X-API-Key</code>; nothing falls back from one header to the other. An <code>Authorization</code> header with another
scheme (such as <code>Basic</code>) is not a key, and then <code>X-API-Key</code> is used. The same holds at
<a href="${MCP_DOCS_PATH}"><code>${MCP_PATH}</code></a>.</p>
<p>No key is needed for <a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a>, <code>/healthz</code>, <code>/readyz</code>, CORS preflight
(<code>OPTIONS</code>) and the web site. The API answers browsers from any origin (CORS <code>*</code>), so a key used in a
web page is visible to its visitors: call the API from your server instead.</p>
<h2 id="errors">When the key is refused</h2>
<p>The key is checked first, before the limits and the parameters. A refusal is not counted.</p>
<table class="stack">
<caption>Errors about the key</caption>
<thead><tr><th scope="col">Status</th><th scope="col">Code</th><th scope="col">When</th><th scope="col">What to do</th></tr></thead>
<tbody>
${KEY_ERRORS.map((code) => html`<tr id="${code}"><td data-label="Status">${ERROR_STATUS[code]}</td><th scope="row"><a href="${ERRORS_DOCS_PATH}#${code}"><code>${code}</code></a></th><td data-label="When">${ERROR_DOCS[code].when}</td><td data-label="What to do">${ERROR_DOCS[code].fix}</td></tr>\n`)}</tbody>
</table>
<h2 id="limits">Limits on every answer</h2>
<p>Every answer to a request with a valid key, errors and 429 included, says where the account stands
(limits per plan: <a href="${PRICING_PATH}">Pricing</a>):</p>
<table>
<caption>Rate-limit and quota headers</caption>
<thead><tr><th scope="col">Header</th><th scope="col">Meaning</th></tr></thead>
<tbody>
${headers.map((h) => html`<tr><th scope="row"><code>${h.name}</code></th><td>${h.description}</td></tr>\n`)}</tbody>
</table>
<p>Every request with a valid key counts once, whatever its status, except one refused with 429. The minute is a fixed 60-second
window per account; the month is the calendar month in UTC. Past either limit the answer is 429,
<a href="${ERRORS_DOCS_PATH}#rate_limit_exceeded"><code>rate_limit_exceeded</code></a> or
<a href="${ERRORS_DOCS_PATH}#quota_exceeded"><code>quota_exceeded</code></a>, with <code>Retry-After</code>.</p>`;
  return docsPage(request, {
    path: AUTHENTICATION_DOCS_PATH,
    title: 'Authentication',
    description: 'How to send your Prayer Times API key (Authorization: Bearer or X-API-Key), which header wins, the 401 and 403 errors and the rate-limit headers.',
    main,
  });
}
