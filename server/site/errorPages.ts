// The site's own error pages: a 404 in the language of the path with a search form, a 400 that says what was wrong,
// a 405, and the rare 503 and 500. Never an echo of the request unescaped (html.ts escapes every value).
import { SEARCH_PATH, type SiteLanguage } from '../links.js';
import { html, type Html } from '../web/html.js';
import { page } from './layout.js';
import type { SitePage } from './sitePage.js';
import { WORDS } from './words.js';

/** The language of a path: Turkish under /tr, English elsewhere. */
export const languageOfPath = (path: string): SiteLanguage => (path === '/tr' || path.startsWith('/tr/') ? 'tr' : 'en');

export function searchForm(language: SiteLanguage, query = '', autofocus = false): Html {
  const w = WORDS[language];
  return html`<form class="search" action="${SEARCH_PATH[language]}" method="get" role="search">
<div><label for="q">${w.searchLabel}</label>
<input id="q" name="q" type="search" value="${query}" placeholder="${w.searchPlaceholder}" minlength="2" maxlength="100" required${autofocus ? html` autofocus` : ''}></div>
<button type="submit">${w.search}</button>
</form>`;
}

export function notFoundPage(base: string, path: string): SitePage {
  const language = languageOfPath(path);
  const w = WORDS[language];
  const main = html`<h1>${w.notFoundTitle}</h1>
<p>${w.notFoundText}</p>
${searchForm(language)}`;
  return {
    status: 404,
    body: page(base, { language, title: `${w.notFoundTitle} · ${w.siteName}`, description: w.notFoundText, canonicalPath: path, noindex: true, main }),
    maxAgeSeconds: 60,
  };
}

export function messagePage(base: string, path: string, status: 400 | 405, message: string, headers?: Record<string, string>): SitePage {
  const language = languageOfPath(path);
  const w = WORDS[language];
  const main = html`<h1>${w.badRequestTitle}</h1>
<p>${message}</p>
${searchForm(language)}`;
  return {
    status,
    body: page(base, { language, title: `${w.badRequestTitle} · ${w.siteName}`, description: message, canonicalPath: path, noindex: true, main }),
    maxAgeSeconds: 0,
    headers,
  };
}
