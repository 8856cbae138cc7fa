// /robots.txt: everything may be crawled but the dashboard and the API; the sitemap index says where the pages are.
import { DASHBOARD_PATH, ROBOTS_PATH, SITEMAP_INDEX_PATH } from '../links.js';
import type { SitePage, SiteRequest } from './sitePage.js';

const DAY_SECONDS = 86_400;

export const robotsText = (base: string): string =>
  ['User-agent: *', 'Allow: /', `Disallow: ${DASHBOARD_PATH}`, 'Disallow: /api/', '', `Sitemap: ${base}${SITEMAP_INDEX_PATH}`, ''].join('\n');

export function robots(request: SiteRequest): SitePage | undefined {
  if (request.path !== ROBOTS_PATH) return undefined;
  return { status: 200, body: robotsText(request.base), contentType: 'text/plain; charset=utf-8', maxAgeSeconds: DAY_SECONDS };
}
