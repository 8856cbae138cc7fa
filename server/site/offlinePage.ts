// The offline page (`/tr/cevrimdisi`, `/en/offline`): what the service worker answers, without a connection, for a
// page of the site it does not keep. It says so and lists the place pages the device keeps (offline.js reads them
// from the worker's cache); without JavaScript it links the home. Kept by the worker at install; noindex, in no sitemap.
import { LANGUAGE_HOME_PATH, OFFLINE_PATH, PLACE_PAGE_PREFIX, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { html } from '../web/html.js';
import { page } from './layout.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { PAGES_CACHE } from './webApp.js';
import { WORDS } from './words.js';

const OFFLINE_VALID_MS = 86_400_000;

function offlinePage(request: SiteRequest, language: SiteLanguage): SitePage {
  const w = WORDS[language];
  const main = html`<h1>${w.offlineTitle}</h1>
<p class="lede">${w.offlineText}</p>
<div id="kept-places" data-cache="${PAGES_CACHE}" data-prefixes="${SITE_LANGUAGES.map((l) => `${PLACE_PAGE_PREFIX[l]}/`).join(' ')}" hidden>
<p>${w.offlineKept}</p>
<ul class="list"></ul>
</div>
<p id="no-kept-places" class="note" hidden>${w.offlineNoneKept}</p>
<p><a href="${LANGUAGE_HOME_PATH[language]}">${w.home}</a></p>`;
  return {
    status: 200,
    body: page(request.base, {
      language,
      title: `${w.offlineTitle} · ${w.siteName}`,
      description: w.offlineText,
      canonicalPath: OFFLINE_PATH[language],
      alternates: OFFLINE_PATH,
      noindex: true,
      main,
    }),
    validUntil: request.now + OFFLINE_VALID_MS,
  };
}

export function offlinePages(request: SiteRequest): SitePage | undefined {
  const language = SITE_LANGUAGES.find((l) => request.path === OFFLINE_PATH[l]);
  return language && offlinePage(request, language);
}
