// /docs/mcp: the MCP server at /mcp. Its tools are the API's operations by operationId (read from the OpenAPI
// document, as the server derives them from the same route table), a client configuration, and raw JSON-RPC.
import { API_REFERENCE_PATH, AUTHENTICATION_DOCS_PATH, ERRORS_DOCS_PATH, MCP_DOCS_PATH, MCP_PATH, OPENAPI_PATH, PRICING_PATH } from '../links.js';
import { mcpCurl, operationHref } from './curlSnippets.js';
import { docsPage } from './docsFrame.js';
import { html } from '../web/html.js';
import { operationsOf, type OperationView } from './openApiView.js';
import type { SiteContext } from './siteContext.js';
import type { SitePage, SiteRequest } from './sitePage.js';

/** A client configuration in the `mcpServers` shape most clients read (Claude Desktop, Cursor, Claude Code's .mcp.json). */
export const clientConfig = (base: string): string =>
  JSON.stringify({ mcpServers: { 'prayer-times': { type: 'http', url: `${base}${MCP_PATH}`, headers: { Authorization: 'Bearer mk_your_key_here' } } } }, null, 2);

/** A tool's arguments from an operation's example request: the query's values, numbers as numbers. */
export function exampleArguments(op: OperationView): Record<string, string | number> {
  const request = op.examples[0]?.request ?? '';
  const query = new URLSearchParams(request.slice(request.indexOf('?') + 1));
  const types = new Map(op.parameters.map((p) => [p.name, p.type]));
  return Object.fromEntries(
    [...query].map(([name, value]) => [name, types.get(name) === 'number' || types.get(name) === 'integer' ? Number(value) : value]),
  );
}

export function mcpDocsPage(request: SiteRequest, ctx: SiteContext): SitePage | undefined {
  if (request.path !== MCP_DOCS_PATH) return undefined;
  const base = request.base;
  const operations = operationsOf(ctx.data.openApi(base));
  const sample = operations.find((op) => op.examples.length > 0);
  const call = sample
    ? { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: sample.operationId, arguments: exampleArguments(sample) } }
    : undefined;
  const main = html`<h1>MCP server</h1>
<p class="lede">AI agents reach the same operations as the API through the Model Context Protocol: an MCP server at
<code>${base}${MCP_PATH}</code>, with the same keys and the same limits.</p>
<h2 id="endpoint">The endpoint</h2>
<p><code>${base}${MCP_PATH}</code> speaks MCP's Streamable HTTP transport: JSON-RPC 2.0 messages sent with <code>POST</code>,
answered with JSON. It is stateless: no session to open, and <code>tools/list</code> or <code>tools/call</code> may come without an
<code>initialize</code> first. The key goes in the same headers as for the API (<a href="${AUTHENTICATION_DOCS_PATH}">Authentication</a>).</p>
<h2 id="tools">Tools</h2>
<p>One tool per operation, named as the operation. A tool's input schema is the operation's query parameters, with the same bounds
and allowed values, and every tool is read-only (<code>readOnlyHint</code>). A result carries the same JSON as the API's answer,
as <code>structuredContent</code> and as text. A tool's output schema (<code>outputSchema</code>) is the operation's response
schema of the <a href="${OPENAPI_PATH}">OpenAPI description</a>, or the API's error body for a result with <code>isError</code>, so a
client can validate <code>structuredContent</code>.</p>
<table class="stack">
<caption>The tools</caption>
<thead><tr><th scope="col">Tool</th><th scope="col">What it answers</th><th scope="col">Same as</th></tr></thead>
<tbody>
${operations.map((op) => html`<tr><th scope="row"><code>${op.operationId}</code></th><td>${op.summary}</td><td data-label="Same as"><a href="${operationHref(op.operationId)}"><code>GET ${op.path}</code></a></td></tr>\n`)}</tbody>
</table>
<h2 id="clients">Connecting a client</h2>
<p>Most clients (Claude Desktop, Cursor and others) take a server in this shape; put your key in the header:</p>
<pre><code>${clientConfig(base)}</code></pre>
<p>Claude Code:</p>
<pre><code>claude mcp add --transport http prayer-times ${base}${MCP_PATH} --header "Authorization: Bearer $KEY"</code></pre>
<h2 id="json-rpc">Raw JSON-RPC</h2>
<p>List the tools:</p>
<pre><code>${mcpCurl(base, MCP_PATH, { jsonrpc: '2.0', id: 1, method: 'tools/list' })}</code></pre>
${call && html`<p>Call one (the arguments are the API's query parameters):</p>
<pre><code>${mcpCurl(base, MCP_PATH, call)}</code></pre>\n`}<h2 id="counting">Limits and errors</h2>
<ul>
<li>Each <code>tools/call</code> counts as one API request, against the same per-minute limit and monthly quota as the API
(<a href="${PRICING_PATH}">Pricing</a>). <code>initialize</code>, <code>tools/list</code> and notifications need a valid key but
count nothing; their answers still carry the rate-limit headers. A <code>tools/call</code> sent as a notification (no
<code>id</code>) is not run and counts nothing, nor does a message or batch refused as invalid (<code>-32600</code>,
<code>-32700</code>).</li>
<li>A missing, unknown or revoked key, and a used-up limit, are HTTP 401, 403 or 429 with the API's error body and headers
(<a href="${ERRORS_DOCS_PATH}">Errors</a>).</li>
<li>A bad argument or an unknown city is a tool result with <code>isError: true</code> and the API's error object, so the agent can
read the message and try again. Arguments have the input schema's JSON types: <code>"lat": 41</code>, not <code>"lat": "41"</code>
(that is <code>invalid_parameter</code>). See <a href="${API_REFERENCE_PATH}">the API reference</a> for each parameter.</li>
<li>Protocol mistakes are JSON-RPC errors: <code>-32602</code> for an unknown tool or malformed params, <code>-32600</code> for a
message that is not JSON-RPC, <code>-32700</code> for one that is not JSON. A message may be at most 1 MiB: a larger one is HTTP 413
with a <code>-32600</code> error. An <code>id</code> is a string or an integer within ±(2<sup>53</sup> − 1); a larger integer cannot be
echoed exactly, so the answer is <code>-32600</code> with <code>id: null</code>. Answers are
<code>Content-Type: application/json; charset=utf-8</code>.</li>
<li id="batches">Batches follow the protocol version, which a stateless server learns from the <code>MCP-Protocol-Version</code> header
(without it, 2025-03-26). Under 2025-06-18 and later, which removed JSON-RPC batching, an array of messages is refused: HTTP 400,
<code>-32600</code>, <code>id: null</code>. Under 2025-03-26 and 2024-11-05 a batch of up to 100 messages is served, without
<code>initialize</code> in it.</li>
<li>Browsers: a request that carries an <code>Origin</code> header is served only from the site's own origin and loopback (and the
operator's list); clients that send no <code>Origin</code> (agents' back ends, curl) pass, and the key protects them.</li>
</ul>`;
  return docsPage(request, {
    path: MCP_DOCS_PATH,
    title: 'MCP server',
    description: 'The Prayer Times MCP server for AI agents: the endpoint, the tools, client configuration, raw JSON-RPC and how tool calls count.',
    main,
  });
}
