import { describe, expect, it } from 'vitest';
import { escapeHtml, html, jsonForScript, trusted } from './html.js';

describe('html', () => {
  it('escapes every interpolation unless it is markup already', () => {
    const hostile = `"><script>alert('x')</script>&`;
    expect(html`<p title="${hostile}">${hostile}</p>`.text).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
    expect(html`<div>${html`<b>${'<i>'}</b>`}</div>`.text).toBe('<div><b>&lt;i&gt;</b></div>');
    expect(html`${trusted('<br>')}`.text).toBe('<br>');
  });

  it('joins arrays and drops undefined, null and booleans', () => {
    expect(html`<ul>${['a', 'b<'].map((x) => html`<li>${x}</li>`)}</ul>`.text).toBe('<ul><li>a</li><li>b&lt;</li></ul>');
    expect(html`${undefined}${null}${false}${true}${0}`.text).toBe('0');
  });

  it('keeps JSON-LD from closing its script element', () => {
    expect(jsonForScript({ name: '</script><script>x' }).text).toBe('{"name":"\\u003c/script>\\u003cscript>x"}');
    expect(escapeHtml("'")).toBe('&#39;');
  });
});
