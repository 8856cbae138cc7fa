// The API as a surface of the edge: /api/v1/* (the route table and the OpenAPI document), /healthz, /readyz and the
// JSON 404 for any path no other surface claims. Answers synchronously (in fleet mode once Redis has counted the
// request); the stored-answer shortcut first.
import type { AccessControl, Admission } from '../access/access.js';
import type { QuotaDecision } from '../access/quota.js';
import type { EdgeRequest, Reply, Surface } from '../edge/edge.js';
import { clipped } from '../edge/edge.js';
import { ApiError, notFoundMessage, type ErrorLinks } from '../errors.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import type { TimetableReader } from '../../pipeline/store/timetableStore.js';
import { ALWAYS, keepRendered, RenderedBody, requestKey } from '../timetables/renderedResponses.js';
import { storedAnswer } from '../timetables/timetables.js';
import { openApiDocument } from './openapi.js';
import { parseQuery, validateParams } from './params.js';
import { CORS_HEADERS, errorReply, failureReply, jsonReply, quotaBlock } from './replies.js';
import { ROUTES, ROUTES_BY_PATH, type Route } from './routes.js';
import { OPENAPI_PATH } from '../links.js';

export { OPENAPI_PATH };

/** The operations usage per key is counted for (AccessControl's `operations`), by index: the API's, then MCP. */
export const KEY_USAGE_OPERATIONS: readonly string[] = [...ROUTES.map((route) => route.operationId), 'mcp'];
/** MCP's index in KEY_USAGE_OPERATIONS. */
export const MCP_USAGE_OPERATION = ROUTES.length;
const USAGE_OPERATION: ReadonlyMap<Route, number> = new Map(ROUTES.map((route, i) => [route as unknown as Route, i]));
export const HEALTH_PATH = '/healthz';
/** For load balancers: 200 only when this server holds the build it should (timetables/readiness.ts). */
export const READY_PATH = '/readyz';

const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, X-API-Key',
  'Access-Control-Max-Age': '86400',
};

export interface ServerState {
  /** False while starting and once shutting down: API requests get 503. */
  serving: boolean;
  /** The place catalog, when one has been built. */
  catalog: PlaceCatalog | undefined;
  /** The live precomputed timetables, when there are any for the catalog. */
  store: TimetableReader | undefined;
  /** Why the store cannot be read, while it cannot (storeFollower.ts). */
  storeProblem: string | undefined;
  /** Why the live build is set aside (another catalog, other time-zone rules), while it is. */
  storeSetAside: string | undefined;
  storeReadFailed(error: unknown): void;
  /** The body of GET /healthz. */
  health(): object;
  /** GET /readyz: whether to send this server traffic, and why not. */
  readiness(): { ready: boolean; body: object };
}

export interface ApiOptions extends ErrorLinks {
  state: ServerState;
  /** Keys and quotas; undefined only when switched off for benchmarking (ACCESS_CONTROL=off). */
  access: AccessControl | undefined;
  /** The server's clock; tests leave it alone, it exists so the clock is read in one place. */
  now: () => number;
}

export function serviceUnavailableWhileStopping(state: ServerState): void {
  if (!state.serving) throw new ApiError('service_unavailable', 'The service is starting or stopping; try again in a moment.');
}

export function apiSurface(options: ApiOptions): Surface {
  const { state } = options;
  // The OpenAPI document (70 KB) is rendered, and compressed, once per base URL.
  let openApi: { base: string; body: RenderedBody } | undefined;
  const openApiBody = (): RenderedBody => {
    if (openApi?.base !== options.publicBaseUrl) {
      openApi = { base: options.publicBaseUrl, body: new RenderedBody(JSON.stringify(openApiDocument(options.publicBaseUrl)), ALWAYS, 'none').kept() };
    }
    return openApi.body;
  };

  function apiRequest(route: Route, request: EdgeRequest): Reply | Promise<Reply> {
    serviceUnavailableWhileStopping(state);
    const at = options.now();
    // Contract order: key (401/403), limits (429), then parameters (400) and lookups (404). From here on the
    // request is counted, and every answer carries the account's rate-limit and quota headers. Counting answers at
    // once on the embedded ledger, later in fleet mode (the edge then answers inside cork; the headers were read).
    // The request is also where it comes from (Origin, the address on demand), for a restricted key.
    const access = options.access;
    if (!access) return counted(route, request, at, undefined);
    const operation = USAGE_OPERATION.get(route) ?? -1;
    const admission = access.admit(request.headers.authorization, request.headers['x-api-key'], at, request, operation);
    if (admission instanceof Promise) return admission.then((admitted) => answered(access, admitted, operation, counted(route, request, at, admitted.quota), at));
    return answered(access, admission, operation, counted(route, request, at, admission.quota), at);
  }

  /** Notes what became of an admitted request in its key's usage (by operation and status class). */
  function answered(access: AccessControl, admission: Admission, operation: number, reply: Reply, at: number): Reply {
    access.noteAnswer(admission.key, operation, reply.status, at);
    return reply;
  }

  /** The answer to a request that was admitted and counted (or needs no key). */
  function counted(route: Route, request: EdgeRequest, at: number, quota: QuotaDecision | undefined): Reply {
    try {
      const store = state.store;
      // A repeated request whose answer was kept, and still holds now (today's ends at the place's midnight), is
      // answered as it was; without a store the key has no build, and only live answers are kept under it. Only the
      // body is kept: the quota headers are this request's.
      const repeat = requestKey(store?.name ?? '', options.publicBaseUrl, route.path, request.query);
      const kept = storedAnswer(repeat, at);
      const acceptEncoding = request.headers['accept-encoding'];
      if (kept) return jsonReply(200, kept, quota, acceptEncoding);
      const params = validateParams(route.params, parseQuery(request.query));
      const { catalog, storeProblem, storeReadFailed } = state;
      const result = route.handle(params, { now: at, catalog, store, storeProblem, storeReadFailed });
      if (result instanceof RenderedBody) {
        if (result.validity.until > at) keepRendered(repeat, result);
        return jsonReply(200, result, quota, acceptEncoding);
      }
      return jsonReply(200, JSON.stringify(result), quota, acceptEncoding);
    } catch (error) {
      const reply = failureReply(options, error, request.requestId, 'get', route.path);
      return quota ? { ...reply, extraBlock: quotaBlock(quota) } : reply;
    }
  }

  return {
    patterns: ['/api/*', HEALTH_PATH, READY_PATH, '/*'],
    headers: ['authorization', 'x-api-key', 'accept-encoding', 'origin'],
    // A key restricted to address ranges needs the client's address; no other request resolves it.
    clientAddress: 'onDemand',
    answer(request) {
      const { method, url } = request;
      if (url === HEALTH_PATH) {
        if (method !== 'get') return errorReply(options, 'method_not_allowed', 'Use GET.', { Allow: 'GET' });
        return jsonReply(200, JSON.stringify(state.health()));
      }
      if (url === READY_PATH) {
        if (method !== 'get') return errorReply(options, 'method_not_allowed', 'Use GET.', { Allow: 'GET' });
        const { ready, body } = state.readiness();
        return jsonReply(ready ? 200 : 503, JSON.stringify(body));
      }
      const route = ROUTES_BY_PATH.get(url);
      if (!route && url !== OPENAPI_PATH) return errorReply(options, 'not_found', notFoundMessage(clipped(url), OPENAPI_PATH));
      if (method === 'options') return { status: 204, body: '', headerBlock: CORS_HEADERS, headers: PREFLIGHT_HEADERS };
      if (method !== 'get') {
        return errorReply(options, 'method_not_allowed', `${method.toUpperCase()} is not allowed here; use GET.`, { Allow: 'GET, OPTIONS' });
      }
      if (!route) return jsonReply(200, openApiBody(), undefined, request.headers['accept-encoding']);
      return apiRequest(route, request);
    },
    failure(error, request) {
      return failureReply(options, error, request.requestId, request.method, request.url);
    },
  };
}
