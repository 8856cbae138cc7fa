// What the developer pages (/docs, /docs/api, /docs/errors, /docs/authentication, /docs/mcp, /pricing) share: the
// frame in English, the breadcrumb from the English home, the list of docs pages, and how long they hold.
//
// These pages exist in English only: their hreflang alternates name the English page alone (and as x-default), never
// a Turkish one (pointing `tr` at the English page would tell search engines it is Turkish). The header's language
// link therefore leads to the Turkish home page (the layout's fallback).
import { API_REFERENCE_PATH, AUTHENTICATION_DOCS_PATH, DOCS_PATH, ERRORS_DOCS_PATH, LANGUAGE_HOME_PATH, MCP_DOCS_PATH } from '../links.js';
import { html, type Html } from '../web/html.js';
import { page, type Crumb, type Frame } from './layout.js';
import type { SitePage, SiteRequest } from './sitePage.js';
import { WORDS } from './words.js';

/** Docs depend on the base URL, the route table and the plans alone, all fixed while a process runs: an hour. */
export const DOCS_VALID_MS = 3_600_000;

export interface DocsPageLink {
  path: string;
  title: string;
}

/** The docs pages in reading order: the nav at the top of each lists them. */
export const DOCS_PAGES: readonly DocsPageLink[] = [
  { path: DOCS_PATH, title: 'Getting started' },
  { path: API_REFERENCE_PATH, title: 'API reference' },
  { path: AUTHENTICATION_DOCS_PATH, title: 'Authentication' },
  { path: ERRORS_DOCS_PATH, title: 'Errors' },
  { path: MCP_DOCS_PATH, title: 'MCP server' },
];

const home: Crumb = { name: WORDS.en.home, path: LANGUAGE_HOME_PATH.en };
const docsCrumb: Crumb = { name: 'Docs', path: DOCS_PATH };

/** The crumbs of a docs page: home, docs, and the page itself unless it is /docs. */
export function docsCrumbs(path: string, title: string): Crumb[] {
  return path === DOCS_PATH ? [home, { name: title, path }] : [home, docsCrumb, { name: title, path }];
}

/** The list of docs pages, the current one marked: at the end of each docs page, under its own h2. */
export function docsNav(current: string): Html {
  return html`<nav aria-labelledby="docs-nav"><h2 id="docs-nav">Documentation</h2><ul>${DOCS_PAGES.map((p) =>
    p.path === current ? html`<li><a href="${p.path}" aria-current="page">${p.title}</a></li>` : html`<li><a href="${p.path}">${p.title}</a></li>`,
  )}</ul></nav>`;
}

export interface DocsContent {
  path: string;
  title: string;
  description: string;
  main: Html;
  crumbs?: readonly Crumb[];
  /** Whether to end main with the docs nav (pricing has none). */
  nav?: boolean;
  /** The page's own scripts (asset files): /docs/api's try-it forms. */
  scripts?: Frame['scripts'];
}

/** A docs page as the surface takes it: 200, English, kept for DOCS_VALID_MS. */
export function docsPage(request: SiteRequest, content: DocsContent): SitePage {
  const main = content.nav === false ? content.main : html`${content.main}\n${docsNav(content.path)}`;
  return {
    status: 200,
    body: page(request.base, {
      language: 'en',
      title: `${content.title} · ${WORDS.en.siteName}`,
      description: content.description,
      canonicalPath: content.path,
      alternates: { en: content.path },
      crumbs: content.crumbs ?? docsCrumbs(content.path, content.title),
      scripts: content.scripts,
      main,
    }),
    validUntil: request.now + DOCS_VALID_MS,
  };
}
