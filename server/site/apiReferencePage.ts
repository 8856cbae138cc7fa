// /docs/api: the API reference, rendered from the OpenAPI document (itself derived from the route table), so the
// operations, parameters, bounds, defaults, rules, responses and examples are said once, there.
import { API_REFERENCE_PATH, AUTHENTICATION_DOCS_PATH, ERRORS_DOCS_PATH, MCP_DOCS_PATH, OPENAPI_PATH, PRICING_PATH } from '../links.js';
import { codeSamples } from './codeSamples.js';
import { apiCurl } from './curlSnippets.js';
import { docsPage } from './docsFrame.js';
import { html, type Html } from '../web/html.js';
import { boundsText, headersOf, infoOf, operationsOf, type ExampleView, type OperationView, type ParameterView, type ResponseView } from './openApiView.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { tryItForm, tryItKeyNote } from './tryItForm.js';

/** The bounds of a parameter in words (openApiView.ts; the try-it form says them too). */
export { boundsText };

const typeText = (p: ParameterView): string => (p.format ? `${p.type} (${p.format})` : p.type);

function parameterRow(operationId: string, p: ParameterView): Html {
  const bounds = boundsText(p);
  return html`<tr id="${operationId}-${p.name}">
<th scope="row"><code>${p.name}</code></th>
<td data-label="Type">${typeText(p)}</td>
<td data-label="Required">${p.required ? 'yes' : 'no'}</td>
<td data-label="Allowed values">${bounds}${p.enum && html`${bounds && '; '}one of ${p.enum.map((v, i) => html`${i > 0 && ', '}<code>${v}</code>`)}`}</td>
<td data-label="Default">${p.default !== undefined && html`<code>${String(p.default)}</code>`}</td>
<td>${p.description}</td>
</tr>`;
}

function parametersTable(op: OperationView): Html {
  if (op.parameters.length === 0) return html`<p>No parameters.</p>`;
  return html`<table class="stack">
<caption>Query parameters of <code>${op.path}</code></caption>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Allowed values</th><th scope="col">Default</th><th scope="col">Description</th></tr></thead>
<tbody>
${op.parameters.map((p) => html`${parameterRow(op.operationId, p)}\n`)}</tbody>
</table>`;
}

function rulesList(op: OperationView): Html | undefined {
  if (op.rules.length === 0) return undefined;
  return html`<h3 id="${op.operationId}-rules">How the parameters go together</h3>
<p>Checked in this order; the first rule broken answers 400 with its code.</p>
<ol>
${op.rules.map((r) => html`<li>${r.description}: otherwise <a href="${ERRORS_DOCS_PATH}#${r.error}"><code>${r.error}</code></a></li>\n`)}</ol>`;
}

const codeLinks = (codes: readonly string[]): Html =>
  html`${codes.map((c, i) => html`${i > 0 && ', '}<a href="${ERRORS_DOCS_PATH}#${c}"><code>${c}</code></a>`)}`;

function responsesTable(op: OperationView): Html {
  return html`<table class="stack">
<caption>Responses of <code>${op.path}</code></caption>
<thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Error codes</th></tr></thead>
<tbody>
${op.responses.map((r: ResponseView) => html`<tr><th scope="row">${r.status}</th><td>${withoutCodes(r.description)}</td><td data-label="Error codes">${codeLinks(r.codes)}</td></tr>\n`)}</tbody>
</table>`;
}

/** A response's description without its trailing "Codes: …." (the table has a column for them). */
const withoutCodes = (description: string): string => description.replace(/\s*Codes: [^.]*\.$/, '');

function example(base: string, op: OperationView, e: ExampleView, open: boolean, withSamples: boolean): Html {
  const request = e.request || op.path;
  const body = html`<pre><code>${JSON.stringify(e.value, null, 2)}</code></pre>`;
  return html`<h4>${e.summary || e.name}</h4>
${withSamples ? samples(base, op, request) : html`<pre><code>${apiCurl(base, request)}</code></pre>`}
${open ? body : html`<details><summary>The answer</summary>\n${body}\n</details>`}`;
}

/**
 * The request in each language, one details element each (one open at a time where the browser knows `name`, like
 * tabs; all usable without JavaScript), curl open.
 */
function samples(base: string, op: OperationView, request: string): Html {
  return html`<div class="samples">
${codeSamples(base, op, request).map(
  (s, i) => html`<details class="sample" name="${op.operationId}-samples" data-language="${s.language}"${i === 0 && html` open`}><summary>${s.label}</summary>
<pre><code>${s.code}</code></pre>
</details>\n`,
)}</div>`;
}

/** The first example's answer is shown unless it is long (a month: every day); the others are folded. */
const FOLD_ABOVE_LINES = 60;

/** The operation's description, without the paragraph that restates its rules when they are listed on their own. */
const ownDescription = (op: OperationView): readonly string[] =>
  op.rules.length === 0 ? op.description : op.description.filter((d) => !d.includes('x-parameter-rules'));

function operationSection(base: string, op: OperationView): Html {
  return html`<section id="${op.operationId}">
<h2>${op.summary}</h2>
<p><code>GET ${op.path}</code> · operation <code>${op.operationId}</code> (also the MCP tool of that name)</p>
${ownDescription(op).map((d) => html`<p>${d}</p>\n`)}<h3 id="${op.operationId}-parameters">Parameters</h3>
${parametersTable(op)}
${rulesList(op)}
<h3 id="${op.operationId}-responses">Responses</h3>
${responsesTable(op)}
${tryItForm(op)}
<h3 id="${op.operationId}-examples">Examples</h3>
${op.examples.map((e, i) => example(base, op, e, i === 0 && JSON.stringify(e.value, null, 2).split('\n').length <= FOLD_ABOVE_LINES, i === 0))}
</section>`;
}

function headersSection(doc: Record<string, unknown>): Html {
  return html`<section id="headers">
<h2>Response headers</h2>
<p>Every answer carries <code>X-Request-Id</code>. Every answer to a request with a valid key, a 429 included, carries the
rate-limit and quota headers; a 429 also <code>Retry-After</code>. The limits are the account's, shared by all its keys and
by the MCP server's tool calls (<a href="${PRICING_PATH}">Pricing</a>). Browsers can read them: they are listed in
<code>Access-Control-Expose-Headers</code>.</p>
<table>
<caption>Response headers</caption>
<thead><tr><th scope="col">Header</th><th scope="col">Meaning</th></tr></thead>
<tbody>
${headersOf(doc).map((h) => html`<tr><th scope="row"><code>${h.name}</code></th><td>${h.description}</td></tr>\n`)}</tbody>
</table>
</section>`;
}

export function apiReferencePage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (request.path !== API_REFERENCE_PATH) return undefined;
  const doc = ctx.data.openApi(request.base);
  const operations = operationsOf(doc);
  const info = infoOf(doc);
  const main = html`<h1>API reference</h1>
<p class="lede">${info.title} ${info.version}: every operation is a GET under <code>${request.base}/api/v1</code>, answers JSON and needs a key
(<a href="${AUTHENTICATION_DOCS_PATH}">Authentication</a>). This page is rendered from the OpenAPI 3.1 description,
<a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a> (served without a key), which your tools can read.</p>
<h2 id="operations">Operations</h2>
<ul>
<li><a href="#general">General: how values are read, which error answers first</a></li>
${operations.map((op) => html`<li><a href="#${op.operationId}"><code>${op.path}</code></a>: ${op.summary}</li>\n`)}<li><a href="#headers">Response headers</a></li>
</ul>
<p>Errors are described on <a href="${ERRORS_DOCS_PATH}">Errors</a>; the same operations are tools of the <a href="${MCP_DOCS_PATH}">MCP server</a>.
In the examples and the samples (curl, JavaScript, Python and PHP), <code>$KEY</code> or the environment variable <code>KEY</code> is your key.</p>
${tryItKeyNote()}
<section id="general">
<h2>General</h2>
${info.description.filter((d) => !d.includes('x-parameter-rules')).map((d) => html`<p>${d}</p>\n`)}</section>
${operations.map((op) => operationSection(request.base, op))}
${headersSection(doc)}`;
  return docsPage(request, {
    path: API_REFERENCE_PATH,
    title: 'API reference',
    description: 'The Prayer Times API: every operation with its parameters, their bounds and defaults, responses, error codes, examples, code samples and a form to try it.',
    main,
    scripts: ['tryIt.js'],
  });
}
