// The frame of every page: head (title, description, canonical URL, share preview, hreflang alternates, robots,
// breadcrumb JSON-LD, stylesheet), the header with the site's links and the other language, the breadcrumb, main,
// the footer.
import { DASHBOARD_PATH, DOCS_PATH, LANGUAGE_HOME_PATH, PRICING_PATH, SEARCH_PATH, SITE_LANGUAGES, type SiteLanguage } from '../links.js';
import { assetHref } from '../web/assets.js';
import { html, jsonForScript, type Html } from '../web/html.js';
import { offlineNotice, webAppHead } from './webApp.js';
import { WORDS } from './words.js';

export interface Crumb {
  name: string;
  /** Path under the base. */
  path: string;
}

export interface Frame {
  language: SiteLanguage;
  title: string;
  description: string;
  /** The page's own path (the canonical URL is the base and this). */
  canonicalPath: string;
  /**
   * The same page in each language it exists in (paths), for hreflang and the language link; x-default is the
   * English one. A page in one language only (the docs) names just that one.
   */
  alternates?: Readonly<Partial<Record<SiteLanguage, string>>>;
  /** From the home page down to this page (this page last). */
  crumbs?: readonly Crumb[];
  /** Variants (another method, madhab or month) and search results: not for search engines. */
  noindex?: boolean;
  scripts?: ReadonlyArray<'countdown.js' | 'preferences.js' | 'nearMe.js' | 'compass.js' | 'copySnippet.js' | 'ramadan.js' | 'tryIt.js'>;
  main: Html;
}

/** og:locale of each language. */
const OG_LOCALE: Readonly<Record<SiteLanguage, string>> = { tr: 'tr_TR', en: 'en_US' };

/**
 * The share preview (Open Graph, and Twitter's card, which reads Open Graph for what it does not name): made from what
 * the page already says (title, description, canonical URL), so every page has one; escaped as every value is.
 */
function sharePreview(base: string, frame: Frame): Html {
  const other: SiteLanguage = frame.language === 'tr' ? 'en' : 'tr';
  return html`<meta property="og:type" content="website">
<meta property="og:site_name" content="${WORDS[frame.language].siteName}">
<meta property="og:title" content="${frame.title}">
<meta property="og:description" content="${frame.description}">
<meta property="og:url" content="${base}${frame.canonicalPath}">
<meta property="og:locale" content="${OG_LOCALE[frame.language]}">
${frame.alternates?.[other] !== undefined && html`<meta property="og:locale:alternate" content="${OG_LOCALE[other]}">\n`}<meta name="twitter:card" content="summary">
`;
}

function breadcrumbJsonLd(base: string, crumbs: readonly Crumb[]): Html {
  return jsonForScript({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, item: `${base}${c.path}` })),
  });
}

export function page(base: string, frame: Frame): Html {
  const w = WORDS[frame.language];
  const other: SiteLanguage = frame.language === 'tr' ? 'en' : 'tr';
  const otherPath = frame.alternates?.[other] ?? LANGUAGE_HOME_PATH[other];
  // A crumb without a name would be an empty link (axe's link-name) and an empty JSON-LD item: left out.
  const crumbs = (frame.crumbs ?? []).filter((c) => c.name !== '');
  return html`<!doctype html>
<html lang="${frame.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title}</title>
<meta name="description" content="${frame.description}">
<link rel="canonical" href="${base}${frame.canonicalPath}">
${sharePreview(base, frame)}${frame.alternates && [
  SITE_LANGUAGES.filter((l) => frame.alternates![l] !== undefined).map((l) => html`<link rel="alternate" hreflang="${l}" href="${base}${frame.alternates![l]}">\n`),
  html`<link rel="alternate" hreflang="x-default" href="${base}${frame.alternates.en ?? frame.alternates.tr}">\n`,
]}${frame.noindex && html`<meta name="robots" content="noindex, follow">\n`}<link rel="stylesheet" href="${assetHref('site.css')}">
${webAppHead(frame.language)}<link rel="icon" href="${assetHref('icon.svg')}" type="image/svg+xml">
${crumbs.length > 1 && html`<script type="application/ld+json">${breadcrumbJsonLd(base, crumbs)}</script>\n`}${(frame.scripts ?? []).map((s) => html`<script src="${assetHref(s)}" defer></script>\n`)}</head>
<body>
<a class="skip" href="#main">${w.skipToContent}</a>
<header class="site-header">
<a class="brand" href="${LANGUAGE_HOME_PATH[frame.language]}">${w.siteName}</a>
<nav aria-label="${w.siteName}"><ul>
<li><a href="${SEARCH_PATH[frame.language]}">${w.search}</a></li>
<li><a href="${DOCS_PATH}">${w.docs}</a></li>
<li><a href="${PRICING_PATH}">${w.pricing}</a></li>
<li><a href="${DASHBOARD_PATH}">${w.dashboard}</a></li>
<li><a href="${otherPath}" hreflang="${other}" lang="${other}">${w.otherLanguage}</a></li>
</ul></nav>
</header>
${crumbs.length > 1 && html`<nav class="crumbs" aria-label="${w.breadcrumb}"><ol>${crumbs.map((c, i) =>
    i === crumbs.length - 1 ? html`<li><a href="${c.path}" aria-current="page">${c.name}</a></li>` : html`<li><a href="${c.path}">${c.name}</a></li>`,
  )}</ol></nav>\n`}<main id="main">
${offlineNotice(frame.language)}
${frame.main}
</main>
<footer class="site-footer">
<p>${w.tagline} <a href="${DOCS_PATH}">${w.docs}</a> · <a href="${PRICING_PATH}">${w.pricing}</a></p>
</footer>
</body>
</html>
`;
}
