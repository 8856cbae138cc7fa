// Finding the route of a request in the table: exact paths, and patterns whose `:name` segments match one segment
// each (never a slash). Compiled once per table.
import type { DashboardMethod, DashboardRoute } from './dashboardTypes.js';

export type RouteMatch =
  | { kind: 'route'; route: DashboardRoute; params: Record<string, string> }
  /** The path exists, not for this method: the methods it takes (for Allow). */
  | { kind: 'method'; allowed: DashboardMethod[] }
  | { kind: 'none' };

interface Compiled {
  route: DashboardRoute;
  pattern: RegExp;
  names: string[];
}

export type Router = (method: string, path: string) => RouteMatch;

export function compileRoutes(routes: readonly DashboardRoute[]): Router {
  const seen = new Set<string>();
  const compiled: Compiled[] = routes.map((route) => {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`dashboard route declared twice: ${key}`);
    seen.add(key);
    if (route.method === 'POST' && route.csrf === 'none' && route.body !== 'raw') {
      throw new Error(`dashboard route ${key}: only raw-body routes (webhooks) may skip the CSRF check`);
    }
    const names: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      })
      .join('/');
    return { route, pattern: new RegExp(`^${source}$`), names };
  });
  return (method, path) => {
    const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const allowed: DashboardMethod[] = [];
    for (const { route, pattern, names } of compiled) {
      const m = pattern.exec(path);
      if (!m) continue;
      if (route.method !== wanted) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1]);
        } catch {
          params[name] = m[i + 1];
        }
      });
      return { kind: 'route', route, params };
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
  };
}
