// MCP as a surface of the edge: POST /mcp, JSON-RPC through the SDK's transport (mcp.ts). The Origin is checked
// before anything else, the body is read by the edge's bounded reader, the key comes first (401/403), then the
// tool calls are counted (429; a body refused as invalid counts nothing), then the transport answers, asynchronously.
import type { AccessControl } from '../access/access.js';
import type { QuotaDecision } from '../access/quota.js';
import type { EdgeRequest, Reply, Surface } from '../edge/edge.js';
import { clipped } from '../edge/edge.js';
import type { ErrorLinks } from '../errors.js';
import { MCP_USAGE_OPERATION, serviceUnavailableWhileStopping, type ServerState } from './apiSurface.js';
import { handleMcp, jsonRpcErrorBody, MCP_PATH, originAllowed, readMcpBody, type McpDependencies } from './mcp.js';
import { CORS_HEADERS, errorReply, failureReply, JSON_HEADERS, quotaBlock } from './replies.js';

/** An MCP message is a JSON-RPC request: a megabyte is far more than any tool call needs. */
export const MCP_MAX_BODY_BYTES = 1 << 20;

const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, X-API-Key, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
};

export interface McpOptions extends ErrorLinks {
  state: ServerState;
  access: AccessControl | undefined;
  /** The origins a browser may send (mcp.ts, allowedOrigins); a request without Origin passes. */
  mcpOrigins: ReadonlySet<string>;
  now: () => number;
}

export function mcpSurface(options: McpOptions): Surface {
  const dependencies: McpDependencies = {
    context: () => {
      const { catalog, store, storeProblem, storeReadFailed } = options.state;
      return { now: options.now(), catalog, store, storeProblem, storeReadFailed };
    },
    links: options,
  };
  const jsonRpcReply = (status: number, body: string, code: string): Reply => ({ status, body, headerBlock: JSON_HEADERS, code });

  async function message(request: EdgeRequest): Promise<Reply> {
    serviceUnavailableWhileStopping(options.state);
    const { authorization, 'x-api-key': apiKey } = request.headers;
    const body = request.body ?? Buffer.alloc(0);
    const at = options.now();
    const access = options.access;
    const key = access?.authenticateKey(authorization ?? '', apiKey ?? '', at, request, MCP_USAGE_OPERATION);
    const account = key?.account;
    // Stateless: the protocol version of a request is its MCP-Protocol-Version header (absent: the transport's
    // default, 2025-03-26), and it decides whether a batch is taken (docs/mcp.md, "Batches follow the protocol
    // version").
    const message = readMcpBody(body.toString('utf8'), request.headers['mcp-protocol-version'] ?? '');
    // Each tools/call request counts once; initialize, tools/list, notifications and a body refused as invalid count
    // nothing but still get the headers.
    // In the usage per key, an MCP message counts as its tool calls (as against the quota), under `mcp`.
    let quota: QuotaDecision | undefined;
    try {
      quota = key && (await access!.count(key.account, at, message.toolCalls));
    } catch (error) {
      if (key && message.toolCalls > 0) access!.noteRefusal(key.key, MCP_USAGE_OPERATION, error, at, message.toolCalls);
      throw error;
    }
    const headers = new Headers();
    for (const name in request.headers) headers.append(name, request.headers[name]);
    const response = await handleMcp(new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers, body }), message, dependencies);
    const text = await response.text();
    // Every body the transport answers is JSON-RPC: JSON in UTF-8, said so as the API says it (its own header omits
    // the charset); an empty answer (202 to notifications) has no type.
    if (key && message.toolCalls > 0) access!.noteAnswer(key.key, MCP_USAGE_OPERATION, response.status, at, message.toolCalls);
    return { status: response.status, body: text, headerBlock: text === '' ? CORS_HEADERS : JSON_HEADERS, ...(quota ? { extraBlock: quotaBlock(quota) } : {}) };
  }

  return {
    patterns: [MCP_PATH],
    headers: 'all',
    // A key restricted to address ranges (the body arrives after the peer is gone, so resolved for every message).
    clientAddress: true,
    body: {
      methods: ['post'],
      maxBytes: MCP_MAX_BODY_BYTES,
      tooLarge: () =>
        jsonRpcReply(413, jsonRpcErrorBody(null, -32600, `Invalid Request: an MCP message may be at most ${MCP_MAX_BODY_BYTES} bytes (1 MiB); this one is larger.`), 'message_too_large'),
    },
    early(request) {
      // Against DNS rebinding (MCP, Streamable HTTP transport): a browser's request from an origin we do not know is
      // refused before anything else; clients that are not browsers send no Origin and pass.
      const origin = request.headers.origin ?? '';
      if (origin !== '' && !originAllowed(origin, options.mcpOrigins)) {
        const text = `Origin ${clipped(origin)} may not use this MCP server; it accepts browsers from ${options.publicBaseUrl} and loopback, and clients that send no Origin.`;
        return jsonRpcReply(403, jsonRpcErrorBody(null, -32000, text), 'origin_not_allowed');
      }
      if (request.method === 'options') return { status: 204, body: '', headerBlock: CORS_HEADERS, headers: PREFLIGHT_HEADERS };
      if (request.method !== 'post') {
        // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
        return errorReply(options, 'method_not_allowed', `${request.method.toUpperCase()} is not allowed on ${MCP_PATH}; send JSON-RPC messages with POST.`, {
          Allow: 'POST, OPTIONS',
        });
      }
      return undefined;
    },
    answer: message,
    failure(error, request) {
      return failureReply(options, error, request.requestId, request.method, MCP_PATH);
    },
  };
}
