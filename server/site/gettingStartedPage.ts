// /docs: getting started. Get a key, make a first call (the reference's first example, so it works), and where
// to read on.
import {
  API_REFERENCE_PATH,
  AUTHENTICATION_DOCS_PATH,
  DASHBOARD_PATH,
  DOCS_PATH,
  ERRORS_DOCS_PATH,
  MCP_DOCS_PATH,
  OPENAPI_PATH,
  PRICING_PATH,
} from '../links.js';
import { apiCurl, operationHref } from './curlSnippets.js';
import { DOCS_PAGES, docsPage } from './docsFrame.js';
import { html } from '../web/html.js';
import { operationsOf } from './openApiView.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';

/** The operator's command that makes a key on a server's data directory (cli/accounts.ts), beside the dashboard. */
export const CLI_CREATE_KEY = 'npm run cli -- keys create --email you@example.com';

/** What each docs page is for, by path. */
const BLURBS: Readonly<Record<string, string>> = {
  [API_REFERENCE_PATH]: 'every operation, its parameters with their bounds and defaults, responses, examples and a curl each',
  [AUTHENTICATION_DOCS_PATH]: 'sending the key, which header wins, the 401 and 403 errors, the rate-limit and quota headers',
  [ERRORS_DOCS_PATH]: 'every error code: when it happens and what to do',
  [MCP_DOCS_PATH]: 'the same operations as tools for AI agents, at /mcp',
};

export function gettingStartedPage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (request.path !== DOCS_PATH) return undefined;
  const base = request.base;
  const operations = operationsOf(ctx.data.openApi(base));
  const first = operations.find((op) => op.examples.length > 0);
  const firstRequest = first?.examples[0].request ?? '/api/v1/times?lat=41.0082&lon=28.9784';
  const main = html`<h1>Getting started</h1>
<p class="lede">The Prayer Times API answers prayer times for any place on Earth, a month's timetable, the next prayer, the qibla,
a city search and the Hijri date, as JSON over HTTP. Three steps:</p>
<h2 id="key">1. Get a key</h2>
<p>Every call needs an API key (<code>mk_</code> and 32 letters and digits), shown once when it is made. Keys are made in the
<a href="${DASHBOARD_PATH}">developer dashboard</a>:</p>
<ol>
<li>Open <a href="${DASHBOARD_PATH}">the dashboard</a> and sign in with your e-mail address: a message brings a 6-digit code and
a link, and there is no password. An address the service does not know gets a new account on the trial plan, free and with
no card (<a href="${PRICING_PATH}">Pricing</a>). Once signed in, you can add a passkey and sign in with it from then on.</li>
<li>On the dashboard's Keys page, name a key and create it. The page that shows it has a Copy button and a ready curl with
the key in it; copy the key then, as it is shown once.</li>
</ol>
<p>Keep the key secret: whoever has it spends your quota. Revoke a key on the same page; it is refused within a second.</p>
<p>The operator of a server can also make a key with its command-line tool, on the server's data directory:</p>
<pre><code>${CLI_CREATE_KEY}
# {"key":"mk_…","accountId":"acc_…","plan":"trial"}</code></pre>
<h2 id="first-call">2. Make a call</h2>
<p>Put the key in <code>KEY</code> and ask for ${first ? html`<a href="${operationHref(first.operationId)}">${first.summary.toLowerCase()}</a>` : 'prayer times'}:</p>
<pre><code>KEY=mk_your_key_here
${apiCurl(base, firstRequest)}</code></pre>
<p>The key may also go in <code>X-API-Key</code>:</p>
<pre><code>${apiCurl(base, firstRequest, 'x-api-key')}</code></pre>
<p>A place is a <code>city</code> (a name such as <code>Kadıköy</code> or <code>Paris, FR</code>, or a path found with
<a href="${operationHref('searchCities')}"><code>/api/v1/cities</code></a>) or a point, <code>lat</code> and <code>lon</code>.
Method and madhab default to the place's country's custom.</p>
<h2 id="read-on">3. Read on</h2>
<ul>
${DOCS_PAGES.filter((p) => p.path !== DOCS_PATH).map((p) => html`<li><a href="${p.path}">${p.title}</a>: ${BLURBS[p.path]}</li>\n`)}<li><a href="${PRICING_PATH}">Pricing</a>: the plans and their limits</li>
<li><a href="${OPENAPI_PATH}">The OpenAPI 3.1 description</a>, for code generators and API tools (no key needed)</li>
</ul>
<h2 id="operations">The operations</h2>
<ul>
${operations.map((op) => html`<li><a href="${operationHref(op.operationId)}"><code>${op.path}</code></a>: ${op.summary}</li>\n`)}</ul>`;
  return docsPage(request, {
    path: DOCS_PATH,
    title: 'Getting started',
    description: 'Get an API key and make your first call to the Prayer Times API: prayer times, monthly timetables, qibla, city search and the Hijri date.',
    main,
  });
}
