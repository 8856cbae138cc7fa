// What the site's pages read: the catalog, the API's operations (the same handlers the API answers with), the
// OpenAPI document derived from the route table, and the plans the limits use. The process hands these over
// (server/process/serve.ts), so the site imports no other surface.
import type { Plans } from '../accounts/plans.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';

export interface SiteData {
  /**
   * An API operation's answer body, as the API would send it, from the same route and handler (operationId, the
   * query's parameters as text). Throws the API's ApiError on what the API would refuse.
   */
  answer(operationId: string, query: Readonly<Record<string, string>>, now: number): Record<string, unknown>;
  /** The OpenAPI document for this base URL (derived from the route table). */
  openApi(base: string): Record<string, unknown>;
}

export interface SiteOptions {
  /** Read at each request: settled once the port is known. */
  publicBaseUrl: string;
  state: { catalog: PlaceCatalog | undefined; serving: boolean };
  data: SiteData;
  /** The plan table in force (PLANS_FILE applied): /pricing shows what the limits use. */
  plans: Plans;
  now: () => number;
  /** Memory for rendered pages in this thread (bytes). */
  pageCacheBytes?: number;
}

/** What a page module is given with each request. */
export interface SiteContext {
  catalog: PlaceCatalog | undefined;
  data: SiteData;
  plans: Plans;
}
