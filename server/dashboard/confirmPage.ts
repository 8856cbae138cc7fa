// Asking first: the page a permanent action goes through (revoking a key, removing a passkey, ending a subscription).
// The list's button is a GET form to the action's own URL, which answers this page: the question, what follows, and
// a POST form (the CSRF token, the confirmation field) with the action's button and a way back. No script is needed.
// The action's POST acts only when it carries the confirmation field (`confirmed`); without it (an older page's
// form, a script posting the bare endpoint) it changes nothing and sends the browser to this page instead.
import { html, type Html } from '../web/html.js';
import { CSRF_FIELD } from './csrf.js';

/** The field only a confirmation page's form carries. */
export const CONFIRM_FIELD = 'confirm';
export const CONFIRM_VALUE = 'yes';

export const confirmed = (form: URLSearchParams): boolean => form.get(CONFIRM_FIELD) === CONFIRM_VALUE;

export interface Confirmation {
  /** The heading: the question, naming the thing (`Revoke the key “CI” (mk_abc123…wxyz)?`). */
  question: string;
  /** What follows, in one or two sentences (`This cannot be undone: …`). */
  consequence: string;
  /** Where the POST goes. */
  action: string;
  /** Other hidden fields the POST needs (the portal's `action` and `return`). */
  fields?: Readonly<Record<string, string>>;
  /** The button that does it (`Revoke key`). */
  confirmLabel: string;
  /** The way back, which changes nothing. */
  back: { href: string; label: string };
  csrf: string;
}

/** The confirmation page's main content. */
export function confirmationContent(c: Confirmation): Html {
  const hidden = Object.entries(c.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`);
  return html`<h1>${c.question}</h1>
<p class="lede" id="confirm-consequence">${c.consequence}</p>
<form class="choose confirm" method="post" action="${c.action}" aria-describedby="confirm-consequence">
<input type="hidden" name="${CSRF_FIELD}" value="${c.csrf}">
<input type="hidden" name="${CONFIRM_FIELD}" value="${CONFIRM_VALUE}">
${hidden}<button type="submit">${c.confirmLabel}</button>
<a href="${c.back.href}">${c.back.label}</a>
</form>`;
}
