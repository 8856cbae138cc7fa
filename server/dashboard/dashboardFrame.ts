// The frame of every dashboard page: like the site's (its stylesheet, header and footer), but noindex, with the
// dashboard's navigation when signed in and a link to the same page in the other language. No inline script or style:
// a page's scripts are files of server/web/assets/, loaded deferred.
import { DOCS_PATH, LANGUAGE_HOME_PATH, type SiteLanguage } from '../links.js';
import { assetHref, type AssetName } from '../web/assets.js';
import { html, type Html } from '../web/html.js';
import { DASHBOARD_PATHS } from './dashboardPaths.js';
import { DASHBOARD_WORDS } from './dashboardWords.js';

export interface FrameOptions {
  language: SiteLanguage;
  title: string;
  main: Html;
  signedIn: boolean;
  /** The same page in the other language (a GET URL). */
  otherLanguageHref: string;
  /** Scripts of ours to load, deferred (the CSP allows no other). */
  scripts?: readonly AssetName[];
}

export function dashboardPage(options: FrameOptions): Html {
  const w = DASHBOARD_WORDS[options.language];
  const other: SiteLanguage = options.language === 'tr' ? 'en' : 'tr';
  const nav: Array<[string, string]> = options.signedIn
    ? [
        [DASHBOARD_PATHS.home, w.nav.home],
        [DASHBOARD_PATHS.keys, w.nav.keys],
        [DASHBOARD_PATHS.usage, w.nav.usage],
        [DASHBOARD_PATHS.billing, w.nav.billing],
        [DASHBOARD_PATHS.passkeys, w.nav.passkeys],
        [DOCS_PATH, w.nav.docs],
      ]
    : [];
  return html`<!doctype html>
<html lang="${options.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${options.title} · ${w.dashboard} · ${w.siteName}</title>
<link rel="stylesheet" href="${assetHref('site.css')}">
<link rel="icon" href="${assetHref('icon.svg')}" type="image/svg+xml">
${(options.scripts ?? []).map((name) => html`<script src="${assetHref(name)}" defer></script>\n`)}</head>
<body>
<a class="skip" href="#main">${w.skipToContent}</a>
<header class="site-header">
<a class="brand" href="${LANGUAGE_HOME_PATH[options.language]}">${w.siteName}</a>
<nav aria-label="${w.dashboard}"><ul>
${nav.map(([href, label]) => html`<li><a href="${href}">${label}</a></li>\n`)}<li><a href="${options.otherLanguageHref}" hreflang="${other}" lang="${other}">${w.otherLanguage}</a></li>
</ul></nav>
</header>
<main id="main">
${options.main}
</main>
<footer class="site-footer">
<p>${w.footer}</p>
</footer>
</body>
</html>
`;
}
