// HTML with everything escaped by default: `html` is a tagged template whose interpolations are escaped unless they
// are Html already (a fragment built the same way, or `trusted` markup of ours). Arrays are joined; undefined, null
// and false render nothing, so conditions read naturally (`${cond && html`…`}`).

/** Markup that is safe to write as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === undefined || value === null || value === false || value === true) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup of ours (a constant, or JSON-LD serialised by jsonForScript): written without escaping. */
export const trusted = (markup: string): Html => new Html(markup);

/**
 * JSON inside `<script type="application/ld+json">`: `<` is written as `\u003c` so no value can close the element,
 * and U+2028/2029 as escapes.
 */
export const jsonForScript = (value: unknown): Html =>
  new Html(JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
