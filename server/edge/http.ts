// The HTTP edge: one uWebSockets.js handler that routes by path, renders every reply (errors included) in one
// place, and writes one log line per request.
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { asApiError } from '../api/apiError.js';
import type { AccessControl } from '../access/access.js';
import { ApiError, errorBody, internalErrorMessage, notFoundMessage, type ErrorCode, type ErrorLinks } from '../errors.js';
import { enabled, log } from '../log.js';
import { openApiDocument } from '../api/openapi.js';
import { parseQuery, validateParams } from '../api/params.js';
import type { TimetableReader } from '../../pipeline/timetableStore.js';
import type { PlaceCatalog } from '../places/placeCatalog.js';
import { handleMcp, jsonRpcErrorBody, MCP_PATH, originAllowed, toolCallCount, type McpDependencies } from '../api/mcp.js';
import type { QuotaDecision } from '../access/quota.js';
import { keepRendered, RenderedBody, requestKey } from '../timetables/renderedResponses.js';
import { storedAnswer } from '../timetables/timetables.js';
import { ROUTES_BY_PATH, type Route } from '../api/routes.js';
import { threadId } from 'node:worker_threads';
import { uWS } from './uws.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const HEALTH_PATH = '/healthz';

const STATUS_LINES: Readonly<Record<number, string>> = {
  200: '200 OK',
  202: '202 Accepted',
  204: '204 No Content',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  406: '406 Not Acceptable',
  409: '409 Conflict',
  413: '413 Content Too Large',
  415: '415 Unsupported Media Type',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

const JSON_TYPE = 'application/json; charset=utf-8';
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'Retry-After',
  'X-Request-Id',
].join(', ');

/**
 * uWebSockets.js writes each header as `name: value\r\n`, one native call per header. Headers that we generate
 * ourselves (constants and numbers, never anything a client sent) are written as one block of lines in one call:
 * the name of the first, then the rest of the block as its "value". This saves about a microsecond a response.
 */
function headerBlock(lines: ReadonlyArray<readonly [string, string]>): readonly [string, string] {
  const [first, ...rest] = lines;
  return [first[0], [first[1], ...rest.map(([name, value]) => `${name}: ${value}`)].join('\r\n')];
}

/** Headers on every JSON response: constant, so built once. */
const JSON_HEADERS = headerBlock([
  ['Content-Type', JSON_TYPE],
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
]);
const CORS_HEADERS = headerBlock([
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
]);
const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.fromEntries([
  ['Access-Control-Allow-Methods', 'GET, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Authorization, X-API-Key'],
  ['Access-Control-Max-Age', '86400'],
]);
const MCP_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.fromEntries([
  ['Access-Control-Allow-Methods', 'POST, OPTIONS'],
  ['Access-Control-Allow-Headers', 'Authorization, X-API-Key, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID'],
  ['Access-Control-Max-Age', '86400'],
]);
/** An MCP message is a JSON-RPC request: a megabyte is far more than any tool call needs. */
const MCP_MAX_BODY_BYTES = 1 << 20;

/** A path as echoed in messages and logs: a client may send one of many kilobytes. */
const clipped = (path: string): string => (path.length <= 200 ? path : `${path.slice(0, 200)}…`);

interface Credentials {
  authorization: string;
  apiKey: string;
}

interface Reply {
  status: number;
  /** JSON text, or its UTF-8 bytes when rendered before (renderedResponses.ts). */
  body: string | Buffer;
  /** Only when not JSON (MCP may answer with an event stream, or nothing). */
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
  /** The rate-limit and quota headers, written from numbers (the hot path builds no header object). */
  quota?: QuotaDecision;
  /** The error code, for the log line (the API's, or one of the MCP transport's refusals). */
  code?: ErrorCode | 'origin_not_allowed' | 'message_too_large';
}

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
}

export interface HttpOptions extends ErrorLinks {
  state: ServerState;
  /** Keys and quotas; undefined only when switched off for benchmarking (ACCESS_CONTROL=off). */
  access: AccessControl | undefined;
  /** The origins a browser may send on /mcp (mcp.ts, allowedOrigins); a request without Origin passes. */
  mcpOrigins: ReadonlySet<string>;
  /** The server's clock; tests leave it alone, it exists so the clock is read in one place. */
  now?: () => number;
}

let requestCounter = 0;
// Unique across restarts and across the serving threads of one process.
const bootId = `${Date.now().toString(36)}${threadId}`;

export function createApp(options: HttpOptions): TemplatedApp {
  const now = options.now ?? Date.now;
  let openApi: { base: string; body: string } | undefined;
  const openApiBody = (): string => {
    if (openApi?.base !== options.publicBaseUrl) {
      openApi = { base: options.publicBaseUrl, body: JSON.stringify(openApiDocument(options.publicBaseUrl)) };
    }
    return openApi.body;
  };
  const errorReply = (code: ErrorCode, message: string, headers?: Record<string, string>): Reply => {
    const status = new ApiError(code, message).status;
    return { status, body: errorBody(code, message, options), headers, code };
  };

  /** Renders any error as the contract's body; an unexpected one is logged with the request id. */
  function failure(error: unknown, requestId: string, method: string, url: string): Reply {
    const known = asApiError(error);
    if (known) return errorReply(known.code, known.message, { ...known.headers });
    log('error', 'internal_error', { requestId, method, path: clipped(url), error: String((error as Error)?.stack ?? error) });
    return errorReply('internal_error', internalErrorMessage(requestId));
  }

  function apiRequest(route: Route, rawQuery: string, credentials: Credentials, requestId: string): Reply {
    if (!options.state.serving) throw new ApiError('service_unavailable', 'The service is starting or stopping; try again in a moment.');
    const at = now();
    // Contract order: key (401/403), limits (429), then parameters (400) and lookups (404). From here on the
    // request is counted, and every answer carries the account's rate-limit and quota headers.
    const quota = options.access?.admit(credentials.authorization, credentials.apiKey, at).quota;
    try {
      const store = options.state.store;
      const repeat = store && requestKey(store.name, options.publicBaseUrl, route.path, rawQuery);
      const kept = storedAnswer(repeat);
      if (kept) return { status: 200, body: kept.bytes, quota };
      const params = validateParams(route.params, parseQuery(rawQuery));
      const { catalog, storeProblem, storeReadFailed } = options.state;
      const result = route.handle(params, { now: at, catalog, store, storeProblem, storeReadFailed });
      if (result instanceof RenderedBody) {
        if (repeat && result.timeless) keepRendered(repeat, result);
        return { status: 200, body: result.bytes, quota };
      }
      return { status: 200, body: JSON.stringify(result), quota };
    } catch (error) {
      return { ...failure(error, requestId, 'get', route.path), quota };
    }
  }

  function dispatch(method: string, url: string, rawQuery: string, credentials: Credentials, requestId: string): Reply {
    if (url === HEALTH_PATH) {
      if (method !== 'get') return errorReply('method_not_allowed', 'Use GET.', { Allow: 'GET' });
      return { status: 200, body: JSON.stringify(options.state.health()) };
    }
    const route = ROUTES_BY_PATH.get(url);
    if (!route && url !== OPENAPI_PATH) {
      return errorReply('not_found', notFoundMessage(clipped(url), OPENAPI_PATH));
    }
    if (method === 'options') return { status: 204, body: '', headers: PREFLIGHT_HEADERS };
    if (method !== 'get') {
      return errorReply('method_not_allowed', `${method.toUpperCase()} is not allowed here; use GET.`, { Allow: 'GET, OPTIONS' });
    }
    if (!route) return { status: 200, body: openApiBody() };
    return apiRequest(route, rawQuery, credentials, requestId);
  }

  /**
   * Writes a reply; to a HEAD request without its body (HTTP forbids one, and a keep-alive client would read it as
   * the next answer). This uWS build aborts on endWithoutBody, so the answer is an empty one.
   */
  function write(res: HttpResponse, reply: Reply, requestId: string, head = false): void {
    res.cork(() => {
      res.writeStatus(STATUS_LINES[reply.status] ?? String(reply.status));
      const [name, block] = reply.status === 204 || reply.contentType !== undefined ? CORS_HEADERS : JSON_HEADERS;
      res.writeHeader(name, block);
      if (reply.contentType) res.writeHeader('Content-Type', reply.contentType);
      res.writeHeader('X-Request-Id', requestId);
      if (reply.headers) for (const header in reply.headers) res.writeHeader(header, reply.headers[header]);
      const q = reply.quota;
      if (q) {
        // One block, as above: every value here is a number or a text of ours.
        res.writeHeader(
          'RateLimit-Limit',
          `${q.plan.perMinuteText}\r\nRateLimit-Remaining: ${q.minuteRemaining}\r\nRateLimit-Reset: ${q.minuteReset}` +
            `${q.plan.monthLinesText}${q.monthRemaining}${q.monthResetLine}`,
        );
      }
      res.end(head ? undefined : reply.body);
    });
  }

  const mcpDependencies: McpDependencies = {
    context: () => {
      const { catalog, store, storeProblem, storeReadFailed } = options.state;
      return { now: now(), catalog, store, storeProblem, storeReadFailed };
    },
    links: options,
  };

  function logRequest(requestId: string, method: string, url: string, reply: Reply, started: number): void {
    if (!enabled('info')) return;
    log('info', 'request', {
      requestId,
      method: method.toUpperCase(),
      path: clipped(url),
      status: reply.status,
      ...(reply.code ? { code: reply.code } : {}),
      ms: Math.round((performance.now() - started) * 1000) / 1000,
    });
  }

  /** An MCP message: the key first (401/403), then its tool calls are counted (429), then the transport answers. */
  async function mcpMessage(body: Buffer, credentials: Credentials, headers: Headers, requestId: string): Promise<Reply> {
    if (!options.state.serving) throw new ApiError('service_unavailable', 'The service is starting or stopping; try again in a moment.');
    const account = options.access?.authenticate(credentials.authorization, credentials.apiKey);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      parsed = undefined; // the transport answers with the JSON-RPC parse error
    }
    // Each tools/call counts once; initialize, tools/list and notifications count nothing but still get the headers.
    const quota = account && options.access!.count(account, now(), parsed === undefined ? 0 : toolCallCount(parsed));
    const request = new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers, body });
    const response = await handleMcp(request, parsed, mcpDependencies);
    const contentType = response.headers.get('content-type') ?? undefined;
    return { status: response.status, body: await response.text(), contentType: contentType ?? 'text/plain', quota, code: undefined };
  }

  function mcpRequest(res: HttpResponse, req: HttpRequest, method: string, requestId: string, started: number): void {
    const reply = (r: Reply) => {
      write(res, r, requestId, method === 'head');
      logRequest(requestId, method, MCP_PATH, r, started);
    };
    // Against DNS rebinding (MCP, Streamable HTTP transport): a browser's request from an origin we do not know is
    // refused before anything else; clients that are not browsers send no Origin and pass.
    const origin = req.getHeader('origin');
    if (origin !== '' && !originAllowed(origin, options.mcpOrigins)) {
      const message = `Origin ${clipped(origin)} may not use this MCP server; it accepts browsers from ${options.publicBaseUrl} and loopback, and clients that send no Origin.`;
      return reply({ status: 403, body: jsonRpcErrorBody(null, -32000, message), code: 'origin_not_allowed' });
    }
    if (method === 'options') return reply({ status: 204, body: '', headers: MCP_PREFLIGHT_HEADERS });
    if (method !== 'post') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return reply(errorReply('method_not_allowed', `${method.toUpperCase()} is not allowed on ${MCP_PATH}; send JSON-RPC messages with POST.`, { Allow: 'POST, OPTIONS' }));
    }
    const credentials: Credentials = { authorization: req.getHeader('authorization'), apiKey: req.getHeader('x-api-key') };
    const headers = new Headers();
    req.forEach((name, value) => headers.append(name, value));
    let aborted = false;
    let answered = false;
    const chunks: Buffer[] = [];
    let size = 0;
    res.onAborted(() => {
      aborted = true;
    });
    const finish = (r: Reply) => {
      if (answered || aborted) return;
      answered = true;
      res.cork(() => reply(r));
    };
    res.onData((chunk, isLast) => {
      if (answered) return;
      size += chunk.byteLength;
      if (size > MCP_MAX_BODY_BYTES) {
        const message = `Invalid Request: an MCP message may be at most ${MCP_MAX_BODY_BYTES} bytes (1 MiB); this one is larger.`;
        finish({ status: 413, body: jsonRpcErrorBody(null, -32600, message), code: 'message_too_large' });
        return;
      }
      // uWebSockets.js reuses the chunk's memory after this callback: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
      if (!isLast) return;
      mcpMessage(Buffer.concat(chunks), credentials, headers, requestId).then(finish, (error) => finish(failure(error, requestId, method, MCP_PATH)));
    });
  }

  function handle(res: HttpResponse, req: HttpRequest): void {
    const started = performance.now();
    const method = req.getMethod();
    const url = req.getUrl();
    if (url === MCP_PATH) {
      mcpRequest(res, req, method, `${bootId}-${(++requestCounter).toString(36)}`, started);
      return;
    }
    const rawQuery = req.getQuery() ?? '';
    // uWebSockets.js headers can be read only now, before the handler returns.
    const credentials: Credentials = { authorization: req.getHeader('authorization'), apiKey: req.getHeader('x-api-key') };
    const requestId = `${bootId}-${(++requestCounter).toString(36)}`;
    let reply: Reply;
    try {
      reply = dispatch(method, url, rawQuery, credentials, requestId);
    } catch (error) {
      reply = failure(error, requestId, method, url);
    }
    write(res, reply, requestId, method === 'head');
    logRequest(requestId, method, url, reply, started);
  }

  return uWS.App().any('/*', handle);
}
