// The HTTP edge, and the only code that speaks uWebSockets.js: it mounts surfaces (the API, MCP, and next the site
// and the dashboard) on their URL patterns, reads what each declares before the handler returns (uWS lets go of the
// request then), refuses a head whose framing uWS let through but HTTP does not allow (two Host headers, a transfer
// coding other than chunked), reads bodies through one bounded reader, answers asynchronous replies inside `cork`
// (and not at all once the client is gone), counts the answers in flight so that a stop lets them finish, and writes
// one log line per request.
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { threadId } from 'node:worker_threads';
import { edgeErrorBody, type EdgeErrorCode } from '../errors.js';
import { enabled, requestLine } from '../log.js';
import { ClientAddresses, type TrustedRange } from './clientAddress.js';
import { uWS } from './uws.js';

/** A header block: the first header's name, then its value followed by the other lines (`\r\nName: value`…). */
export type HeaderBlock = readonly [name: string, valueAndLines: string];

export interface Reply {
  status: number;
  /** The body: text, or bytes rendered before. */
  body: string | Buffer;
  /** Constant headers of the surface, as one block (headerBlock below), written in one call. */
  headerBlock: HeaderBlock;
  contentType?: string;
  /** Headers of this reply (Allow, Retry-After): values of ours, or checked. */
  headers?: Readonly<Record<string, string>>;
  /** Headers computed for this reply from numbers of ours (the rate-limit headers), as one block. */
  extraBlock?: HeaderBlock;
  /** The error code, for the log line. */
  code?: string;
  /** Close the connection after this answer (the edge's refusals: what follows the head cannot be trusted). */
  closeConnection?: boolean;
}

export interface EdgeRequest {
  /** Lower case, as uWS gives it. */
  method: string;
  url: string;
  query: string;
  /** The headers the surface declared, by lower-case name ('' when absent). */
  headers: Readonly<Record<string, string>>;
  /** The body, for methods the surface reads bodies for. */
  body?: Buffer;
  requestId: string;
  /**
   * For surfaces that ask (Surface.clientAddress), who the client is: the connection's peer, or behind a trusted proxy
   * (TRUST_PROXY) the address it forwards (clientAddress.ts); '' for the others.
   */
  clientAddress: string;
  /**
   * For surfaces that ask on demand (Surface.clientAddress `onDemand`): the same address, resolved when called, which
   * must be during the synchronous part of `answer` (the peer is gone after it). So a request that never needs it
   * (the API's, but for a key restricted to address ranges) pays nothing for it.
   */
  clientAddressOf?: () => string;
}

export interface Surface {
  /** uWS route patterns (`/api/*`, `/mcp`); the most specific pattern wins. */
  readonly patterns: readonly string[];
  /** Header names (lower case) to read; `all` for every header. */
  readonly headers: readonly string[] | 'all';
  /**
   * The surface needs to know who the client is: `true` for every request (EdgeRequest.clientAddress: per-client
   * limits), `onDemand` for some (EdgeRequest.clientAddressOf).
   */
  readonly clientAddress?: boolean | 'onDemand';
  /**
   * Its paths are typed by people and written in lower case. `every`: every path it answers GET for (the dashboard):
   * a GET or HEAD with capitals in the path is sent (301) to it in lower case. `first`: its first segments (the site,
   * whose asset names keep their case and whose pages send a wrong-case path on themselves). Either way a GET or HEAD
   * that reaches another surface's catch-all `/*` with one of its first segments in another case (`/EN`, `/Dashboard`)
   * is sent on: the whole path in lower case for `every`, the first segment for `first`.
   */
  readonly lowerCasePaths?: 'every' | 'first';
  /** Bodies are read for these methods, up to `maxBytes`; a larger one is answered with `tooLarge`. */
  readonly body?: { methods: readonly string[]; maxBytes: number; tooLarge(request: EdgeRequest): Reply };
  /** An answer given before any body is read (a refused origin or method), or undefined to go on. */
  early?(request: EdgeRequest): Reply | undefined;
  answer(request: EdgeRequest): Reply | Promise<Reply>;
  /** The reply for an answer that threw or was rejected: the surface renders its own errors. */
  failure(error: unknown, request: EdgeRequest): Reply;
  /** Work done before the thread takes requests (Edge.warm), so that the first request costs what the next does. */
  warm?(): void;
}

export interface EdgeOptions {
  /** For the links in the edge's own error bodies. */
  publicBaseUrl(): string;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For is believed. */
  trustProxy: readonly TrustedRange[];
  /**
   * Called once per answer, beside the request log, with the surface's index in the list given and the seconds the
   * answer took (the metrics count requests with it: process/requestKinds.ts).
   */
  answered?(surface: number, request: EdgeRequest, reply: Reply, seconds: number): void;
}

export interface Edge {
  readonly app: TemplatedApp;
  /** Lets every surface do its start-up work (Surface.warm); call it once what they serve is in place, before listening. */
  warm(): void;
  /** Resolves once no answer is in flight, or after `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
}

/** Builds a header block from (name, value) pairs: one native call writes them all. */
export function headerBlock(lines: ReadonlyArray<readonly [string, string]>): HeaderBlock {
  const [first, ...rest] = lines;
  return [first[0], [first[1], ...rest.map(([name, value]) => `${name}: ${value}`)].join('\r\n')];
}

const STATUS_LINES: Readonly<Record<number, string>> = {
  200: '200 OK',
  202: '202 Accepted',
  204: '204 No Content',
  301: '301 Moved Permanently',
  302: '302 Found',
  304: '304 Not Modified',
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
  501: '501 Not Implemented',
  503: '503 Service Unavailable',
};

/** A path as echoed in messages and logs: a client may send one of many kilobytes. */
export const clipped = (path: string): string => (path.length <= 200 ? path : `${path.slice(0, 200)}…`);

let requestCounter = 0;
// Unique across restarts and across the serving threads of one process.
const bootId = `${Date.now().toString(36)}${threadId}`;

/** What one pass over a request's header lines finds: the surface's headers, and what the edge itself checks. */
interface Head {
  headers: Record<string, string>;
  /** Host lines: HTTP/1.1 wants exactly one (uWS answers none without one, and takes two). */
  hosts: number;
  /** Transfer-Encoding lines, joined; undefined without one. */
  transferEncoding: string | undefined;
  /** X-Forwarded-For lines, joined ('' without one). */
  forwardedFor: string;
}

/**
 * Reads the head in one pass over its lines (every request needs the pass for the Host count, so the surface's own
 * headers come from it too rather than from a lookup each). A listed header keeps its first line, as uWS's getHeader
 * does; with `all`, repeated lines are joined. The pass costs about 0.35 µs more than the API's two lookups for a
 * curl-like head of four lines, 0.7 µs for the nine lines nginx sends (uWS makes two strings a line); no cheaper way
 * to count Host lines exists in this uWS.
 */
function readHead(req: HttpRequest, names: ReadonlySet<string> | 'all', declared: readonly string[]): Head {
  const headers: Record<string, string> = {};
  if (names !== 'all') for (const name of declared) headers[name] = '';
  let hosts = 0;
  let transferEncoding: string | undefined;
  let forwardedFor = '';
  req.forEach((name, value) => {
    if (name === 'host') hosts++;
    else if (name === 'transfer-encoding') transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
    else if (name === 'x-forwarded-for') forwardedFor = forwardedFor === '' ? value : `${forwardedFor}, ${value}`;
    if (names === 'all') headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    else if (names.has(name) && headers[name] === '') headers[name] = value;
  });
  return { headers, hosts, transferEncoding, forwardedFor };
}

/** The one transfer coding we (and uWS) understand; names of codings are case-insensitive (RFC 9112, 7). */
const CHUNKED_ONLY = /^[ \t]*chunked[ \t]*$/i;

/** The connection's peer address as uWS gives it (text; IPv6 in full, an IPv4 peer of a dual-stack socket mapped). */
const peerAddress = (res: HttpResponse): string => Buffer.from(res.getRemoteAddressAsText()).toString('latin1');

/**
 * Writes a reply. To a HEAD request without its body (HTTP forbids one, and a keep-alive client would read it as the
 * next answer) but with the Content-Length the same GET's body has (RFC 9110, 9.3.2: the same header fields); a 204
 * and a 304 with none (9.3.2 and 8.6: a 304's length could only be the 200's, which is not at hand). This uWS build
 * counts endWithoutBody's own length as bytes still to come (the answer never ends), so the length is written as a
 * header of ours and endWithoutBody is called with none. One exception: a HEAD the edge refuses and closes the
 * connection on (closeConnection) gets `Content-Length: 0`, as endWithoutBody cannot close here.
 */
function write(res: HttpResponse, reply: Reply, request: EdgeRequest): void {
  res.writeStatus(STATUS_LINES[reply.status] ?? String(reply.status));
  res.writeHeader(reply.headerBlock[0], reply.headerBlock[1]);
  if (reply.contentType) res.writeHeader('Content-Type', reply.contentType);
  res.writeHeader('X-Request-Id', request.requestId);
  if (reply.headers) for (const header in reply.headers) res.writeHeader(header, reply.headers[header]);
  if (reply.extraBlock) res.writeHeader(reply.extraBlock[0], reply.extraBlock[1]);
  const bodiless = reply.status === 304 || reply.status === 204;
  if (request.method !== 'head' && !bodiless) {
    res.end(reply.body, reply.closeConnection);
  } else if (reply.closeConnection) {
    res.end(undefined, true);
  } else {
    if (!bodiless) res.writeHeader('Content-Length', String(typeof reply.body === 'string' ? Buffer.byteLength(reply.body) : reply.body.length));
    res.endWithoutBody();
  }
}

/**
 * The request log (docs/operations.md, "Logs"): at LOG_LEVEL=debug a line for every request; at info (the default)
 * a line for every error answer (4xx, 5xx) and every request slower than SLOW_MS, and one in SAMPLE_EVERY of the
 * others, which says `"sample":SAMPLE_EVERY` (it stands for that many). A full line per request cost more than the 5%
 * of throughput the default may cost (BENCHMARKS.md, the request log).
 */
const SAMPLE_EVERY = 100;
const SLOW_MS = 50;
let unlogged = 0;

function logRequest(request: EdgeRequest, reply: Reply, started: number, ended?: number): void {
  if (!enabled('info')) return;
  const ms = Math.round(((ended ?? performance.now()) - started) * 1000) / 1000;
  let sample: number | undefined;
  if (reply.status < 400 && ms < SLOW_MS && !enabled('debug')) {
    if (++unlogged < SAMPLE_EVERY) return;
    unlogged = 0;
    sample = SAMPLE_EVERY;
  }
  requestLine(request.requestId, request.method.toUpperCase(), clipped(request.url), reply.status, reply.code || undefined, ms, sample);
}

/** A path's first segment: `en` of `/en/prayer-times` and of the pattern `/en/*`; '' for `/`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return path.slice(1, end < 0 ? path.length : end);
}

const CAPITAL = /[A-Z]/;
/** A path in lower case, its percent-escapes as they are (`%C3%BC` is the same byte as `%c3%bc`). */
const lowerCased = (path: string): string => path.replace(/%[0-9A-F]{2}|[A-Z]+/gi, (s) => (s[0] === '%' ? s : s.toLowerCase()));

/** Where a wrong-case path is sent: kept by browsers and proxies for a day. */
const CASE_REDIRECT_HEADERS = headerBlock([['Cache-Control', 'public, max-age=86400']]);

/** The edge's own refusals: JSON in the API's error shape, as the proxy's own answers are, whatever the surface. */
const REFUSAL_HEADERS = headerBlock([['Access-Control-Allow-Origin', '*']]);
const MAX_ECHOED = 100;

export function createEdge(surfaces: readonly Surface[], options: EdgeOptions): Edge {
  const app = uWS.App();
  const clients = new ClientAddresses(options.trustProxy);

  const refusal = (status: number, code: EdgeErrorCode, message: string): Reply => ({
    status,
    body: edgeErrorBody(code, message, { publicBaseUrl: options.publicBaseUrl() }),
    headerBlock: REFUSAL_HEADERS,
    contentType: 'application/json; charset=utf-8',
    code,
    closeConnection: true,
  });

  /** A head HTTP does not allow but uWS let through: answered here, before any surface, and the connection closed. */
  const framingRefusal = (head: Head): Reply | undefined => {
    if (head.hosts > 1) return refusal(400, 'bad_request', `The request has ${head.hosts} Host headers; HTTP/1.1 allows exactly one.`);
    const coding = head.transferEncoding;
    if (coding !== undefined && !CHUNKED_ONLY.test(coding)) {
      const shown = JSON.stringify(coding.length > MAX_ECHOED ? `${coding.slice(0, MAX_ECHOED)}…` : coding);
      return refusal(501, 'not_implemented', `Transfer-Encoding ${shown} is not supported: send the body with Content-Length, or with Transfer-Encoding: chunked alone.`);
    }
    return undefined;
  };
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const settled = (): void => {
    inFlight--;
    if (inFlight === 0) idle?.();
  };

  // Responses whose client went away before an asynchronous answer was ready: never written to.
  const aborted = new WeakSet<HttpResponse>();

  /** The first segments of the surfaces whose paths are lower case (`en`, `docs`, `dashboard`…), and how far. */
  const lowerCaseSegments = new Map<string, 'every' | 'first'>();
  for (const surface of surfaces) {
    if (!surface.lowerCasePaths) continue;
    for (const segment of surface.patterns.map(firstSegment)) {
      if (segment !== '' && segment !== '*') lowerCaseSegments.set(segment, surface.lowerCasePaths);
    }
  }
  /**
   * A 301 to the lower-case form of a GET or HEAD's path: on a surface whose paths are all lower case (`every`), or
   * from a catch-all when the path's first segment in lower case is a lower-case surface's; undefined otherwise.
   */
  const caseRedirect = (request: EdgeRequest, rule: 'every' | 'catchAll'): Reply | undefined => {
    if ((request.method !== 'get' && request.method !== 'head') || !CAPITAL.test(request.url)) return undefined;
    let lowered: string;
    if (rule === 'every') lowered = lowerCased(request.url);
    else {
      const segment = firstSegment(request.url);
      const reach = lowerCaseSegments.get(segment.toLowerCase());
      if (reach === undefined) return undefined;
      lowered = reach === 'every' ? lowerCased(request.url) : `/${segment.toLowerCase()}${request.url.slice(segment.length + 1)}`;
    }
    if (lowered === request.url) return undefined;
    const location = `${options.publicBaseUrl()}${lowered}${request.query === '' ? '' : `?${request.query}`}`;
    return { status: 301, body: '', headerBlock: CASE_REDIRECT_HEADERS, headers: { Location: location } };
  };

  for (const surface of surfaces) {
    const index = surfaces.indexOf(surface);
    const answered = options.answered;
    const record = (request: EdgeRequest, reply: Reply, started: number): void => {
      if (answered === undefined) return logRequest(request, reply, started);
      const ended = performance.now(); // one clock read for both
      logRequest(request, reply, started, ended);
      answered(index, request, reply, (ended - started) / 1000);
    };
    const declared = surface.headers === 'all' ? [] : surface.headers;
    const names: ReadonlySet<string> | 'all' = surface.headers === 'all' ? 'all' : new Set(surface.headers);
    /** `watching`: onAborted is already attached (the body reader attaches it); else it is attached here if needed. */
    const answerNow = (res: HttpResponse, request: EdgeRequest, started: number, watching: boolean): void => {
      let result: Reply | Promise<Reply>;
      try {
        result = surface.answer(request);
      } catch (error) {
        result = surface.failure(error, request);
      }
      if (!(result instanceof Promise)) {
        // The handler's own run is corked by uWS already (its docs: "the immediately executing top portion of the
        // route handler"); a body's last chunk arrives in a callback of its own, which is not.
        if (watching) res.cork(() => write(res, result as Reply, request));
        else write(res, result, request);
        record(request, result, started);
        return;
      }
      // Asynchronous: answered later, inside cork, unless the client has gone. uWS wants onAborted attached before
      // the handler returns, which it has not yet.
      if (!watching) res.onAborted(() => aborted.add(res));
      inFlight++;
      result
        .catch((error: unknown) => surface.failure(error, request))
        .then((reply) => {
          if (!aborted.has(res)) res.cork(() => write(res, reply, request));
          record(request, reply, started);
        })
        .finally(() => {
          aborted.delete(res);
          settled();
        });
    };
    const handlerFor = (rule: 'every' | 'catchAll' | undefined) => (res: HttpResponse, req: HttpRequest): void => {
      const started = performance.now();
      const head = readHead(req, names, declared);
      const request: EdgeRequest = {
        method: req.getMethod(),
        url: req.getUrl(),
        query: req.getQuery() ?? '',
        headers: head.headers,
        requestId: `${bootId}-${(++requestCounter).toString(36)}`,
        // The peer, like the request, is gone once this handler returns.
        clientAddress: surface.clientAddress === true ? clients.resolve(peerAddress(res), head.forwardedFor) : '',
        clientAddressOf: surface.clientAddress === 'onDemand' ? () => clients.resolve(peerAddress(res), head.forwardedFor) : undefined,
      };
      // Nothing of `req` may be read after this point.
      const early = framingRefusal(head) ?? (rule && caseRedirect(request, rule)) ?? surface.early?.(request);
      if (early) {
        write(res, early, request); // corked: the handler's own run
        record(request, early, started);
        return;
      }
      const body = surface.body;
      if (!body || !body.methods.includes(request.method)) {
        answerNow(res, request, started, false);
        return;
      }
      // The one bounded body reader.
      inFlight++;
      let done = false;
      const chunks: Buffer[] = [];
      let size = 0;
      res.onAborted(() => {
        aborted.add(res);
        if (!done) {
          done = true;
          settled();
        }
      });
      res.onData((chunk, isLast) => {
        if (done) return;
        size += chunk.byteLength;
        if (size > body.maxBytes) {
          done = true;
          const reply = body.tooLarge(request);
          res.cork(() => write(res, reply, request));
          record(request, reply, started);
          settled();
          return;
        }
        // uWebSockets.js reuses the chunk's memory after this callback: copy it.
        chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
        if (!isLast) return;
        done = true;
        request.body = Buffer.concat(chunks);
        answerNow(res, request, started, true);
        settled();
      });
    };
    // The catch-all's own handler checks for a wrong-case path of another surface; the others need not.
    const handler = handlerFor(surface.lowerCasePaths === 'every' ? 'every' : undefined);
    const catchAll = surface.lowerCasePaths ? handler : handlerFor('catchAll');
    for (const pattern of surface.patterns) app.any(pattern, pattern === '/*' ? catchAll : handler);
  }

  return {
    app,
    warm() {
      for (const surface of surfaces) surface.warm?.();
    },
    drain(timeoutMs) {
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}
