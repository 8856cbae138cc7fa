// An operation's "Try it" form on /docs/api: a field for the key and one input per parameter, made from the OpenAPI
// document (types, bounds, enumerations as selects, defaults as placeholders, the first example's values filled in).
// tryIt.js sends it with fetch from the browser and fills the answer in; without JavaScript the form stays hidden
// and a note says to use the samples (a plain form cannot send the key in a header, and the key never goes in a URL).
// The key field has no name, so no submission of the form could ever carry it.
import { html, type Html } from '../web/html.js';
import { boundsText, type OperationView, type ParameterView } from './openApiView.js';
import { requestArguments } from './codeSamples.js';

/** The id of the paragraph that says where the key goes (on the page once, above the operations). */
export const TRY_IT_KEY_NOTE_ID = 'try-it-key-note';

/** What the page says about the key, once: the key fields point at it. */
export const tryItKeyNote = (): Html =>
  html`<p id="${TRY_IT_KEY_NOTE_ID}">Each operation has a <strong>Try it</strong> form: paste your key, press Send, and the page calls the API
from your browser and shows the status, the headers and the body. It needs JavaScript. The key is sent to the API alone, in the
<code>Authorization</code> header; it is not kept: not in the page's address, not in the browser's storage, not on our server
(the key you type in one form fills the others, and is forgotten when you leave the page). Each request counts like any other.</p>`;

const inputId = (op: OperationView, name: string): string => `${op.operationId}-try-${name}`;

/** The hint under a parameter's name: its type, bounds and whether it is required. */
function hint(p: ParameterView): string {
  // A date's length says nothing its format does not; an enumeration's values are the select's options.
  const bounds = p.enum || p.format === 'date' ? '' : boundsText(p);
  return [p.format ?? p.type, bounds, p.required ? 'required' : ''].filter(Boolean).join(', ');
}

function control(op: OperationView, p: ParameterView, value: string | undefined): Html {
  const id = inputId(op, p.name);
  const described = `${id}-hint`;
  if (p.enum) {
    const fallback = p.default !== undefined ? `default (${String(p.default)})` : 'default';
    return html`<select id="${id}" name="${p.name}" aria-describedby="${described}"${p.required && html` required`}>
<option value=""${value === undefined && html` selected`}>${fallback}</option>
${p.enum.map((v) => html`<option${v === value && html` selected`}>${v}</option>\n`)}</select>`;
  }
  const common = html`id="${id}" name="${p.name}" aria-describedby="${described}"${value !== undefined && html` value="${value}"`}${p.required && html` required`}`;
  if (p.type === 'number' || p.type === 'integer') {
    return html`<input type="number" ${common}${p.minimum !== undefined && html` min="${p.minimum}"`}${p.maximum !== undefined && html` max="${p.maximum}"`} step="${p.type === 'integer' ? '1' : 'any'}"${p.default !== undefined && html` placeholder="${String(p.default)}"`}>`;
  }
  if (p.format === 'date') return html`<input type="date" ${common}>`;
  return html`<input type="text" ${common}${p.minLength !== undefined && p.minLength > 1 && html` minlength="${p.minLength}"`}${p.maxLength !== undefined && html` maxlength="${p.maxLength}"`}${p.default !== undefined && html` placeholder="${String(p.default)}"`} autocomplete="off" spellcheck="false">`;
}

function field(op: OperationView, p: ParameterView, value: string | undefined): Html {
  const id = inputId(op, p.name);
  return html`<div class="try-it-field"><label for="${id}"><code>${p.name}</code></label>
${control(op, p, value)}
<span class="note" id="${id}-hint">${hint(p)}</span></div>`;
}

/**
 * The form and the place its answer is shown, for one operation. The body's box scrolls past a screen's height, so it
 * is a named region that takes the focus (scrolled with the keyboard too).
 */
export function tryItForm(op: OperationView): Html {
  const first = op.examples[0];
  const values = new Map(first ? requestArguments(op, first.request).args.map((a) => [a.name, a.value]) : []);
  const id = `${op.operationId}-try`;
  return html`<div class="try-it-panel" id="${id}-panel">
<h3 id="${op.operationId}-try-it">Try it</h3>
<p class="try-it-off">Try it needs JavaScript. The key goes in a header, which a plain form cannot send (and a key in an address
would be kept in your history and in logs): use the samples below with your key instead.</p>
<form class="try-it" id="${id}" action="${op.path}" method="get" hidden data-sending="Sending…" data-failed="The request failed: ">
<div class="try-it-field try-it-key"><label for="${id}-key">Your API key</label>
<input type="password" id="${id}-key" data-try-key autocomplete="off" spellcheck="false" aria-describedby="${TRY_IT_KEY_NOTE_ID}"></div>
${op.parameters.length > 0 && html`<fieldset><legend>Parameters of <code>${op.path}</code></legend>
<div class="try-it-fields">
${op.parameters.map((p) => html`${field(op, p, values.get(p.name))}\n`)}</div>
</fieldset>\n`}<p><button type="submit">Send</button></p>
</form>
<div class="try-it-result" id="${id}-result" aria-live="polite" hidden>
<p class="try-it-status"><span class="note" data-try-request></span><br><strong>Status</strong> <output data-try-status></output></p>
<h4 id="${id}-headers">Response headers</h4>
<pre data-try-headers></pre>
<h4 id="${id}-body">Body</h4>
<pre data-try-body tabindex="0" role="region" aria-labelledby="${id}-body"></pre>
</div>
</div>`;
}
