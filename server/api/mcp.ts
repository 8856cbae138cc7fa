// The MCP server at /mcp (contract, "MCP server"): Streamable HTTP, stateless, JSON responses. The six tools are the
// six operations of the route table: the same names, descriptions and parameter declarations (their JSON Schemas are
// the tools' input schemas), the same response schemas as the OpenAPI document (the tools' output schemas), the same
// validation, the same handlers, the same JSON.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type JSONRPCRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { asApiError } from './apiError.js';
import { ApiError, errorObject, type ErrorLinks } from '../errors.js';
import { log } from '../log.js';
import { toolOutputSchema } from './openapi.js';
import { paramSchema, validateParams } from './params.js';
import { RenderedBody } from '../timetables/renderedResponses.js';
import { ROUTES, type RequestContext, type Route } from './routes.js';
import { MCP_PATH } from '../links.js';

export { MCP_PATH };
const SERVER_INFO = { name: 'prayer-times', version: '1.0.0' };

/** The tool list, derived from the route table once. */
export const TOOLS: Tool[] = ROUTES.map((route) => {
  const params = Object.entries(route.params);
  return {
    name: route.operationId,
    title: route.summary,
    description: `${route.summary}. ${route.description}`,
    inputSchema: {
      type: 'object' as const,
      properties: Object.fromEntries(params.map(([name, spec]) => [name, paramSchema(spec)])),
      required: params.filter(([, spec]) => spec.required).map(([name]) => name),
      additionalProperties: false,
    },
    // A client validates structuredContent against it (the SDK's client does by itself), an error result's too.
    outputSchema: toolOutputSchema(route.response),
    annotations: { title: route.summary, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
});

const routesByTool = new Map<string, Route>(ROUTES.map((r) => [r.operationId, r as unknown as Route]));

/**
 * How many tool calls a JSON-RPC message (or batch) holds: each `tools/call` request counts once. A `tools/call`
 * sent as a notification (no id) is never run, and counts nothing.
 */
export function toolCallCount(message: unknown): number {
  const messages = Array.isArray(message) ? message : [message];
  return messages.filter((m) => isObject(m) && m.method === 'tools/call' && 'id' in m).length;
}

export interface McpDependencies {
  context(): RequestContext;
  links: ErrorLinks;
}

/** Runs one tool as the API would run its route; a refused argument or an unknown city is an error result. */
export function callTool(name: string, args: Record<string, unknown> | undefined, deps: McpDependencies): CallToolResult {
  const route = routesByTool.get(name);
  if (!route) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}; the tools are ${[...routesByTool.keys()].join(', ')}.`);
  try {
    // Clients often send null for an argument they leave out.
    const given = new Map(Object.entries(args ?? {}).filter(([, v]) => v !== null && v !== undefined));
    // JSON arguments: a number where the input schema says number ("41" is refused, as lat=north is on the API).
    const answer = route.handle(validateParams(route.params, given, 'json'), deps.context());
    const result = (answer instanceof RenderedBody ? JSON.parse(answer.json) : answer) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    const known = asApiError(error);
    if (!known) throw error;
    const body = { error: errorObject(known.code, known.message, deps.links) };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  }
}

/**
 * The origins a browser may call /mcp from (MCP's Streamable HTTP transport asks servers to check Origin, against DNS
 * rebinding): PUBLIC_BASE_URL's, the loopback origins of the port the server listens on, and MCP_ALLOWED_ORIGINS.
 */
export function allowedOrigins(publicBaseUrl: string, port: number, extra: readonly string[]): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const candidate of [publicBaseUrl, ...['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${port}`), ...extra]) {
    try {
      origins.add(new URL(candidate).origin);
    } catch {
      // A PUBLIC_BASE_URL that is not a URL allows nothing.
    }
  }
  return origins;
}

/** Whether a request's Origin header names an allowed origin ("null", or anything that is not a URL, is not). */
export function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin)) return true;
  try {
    return allowed.has(new URL(origin).origin);
  } catch {
    return false;
  }
}

/** A JSON-RPC 2.0 error response, as text. */
export function jsonRpcErrorBody(id: string | number | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

/** What a JSON value is, in words, for messages. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const MESSAGE_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/** Zod's issues as `params.cursor: expected string, received number`. */
const issueList = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string =>
  issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');

/**
 * Why one element of a body is not a JSON-RPC 2.0 message (undefined when it is one). `inParams` when the message is
 * a well-formed request but for its params (MCP's `_meta` of the wrong type, say): that is Invalid params, −32602.
 */
function messageProblem(message: unknown): { text: string; inParams?: boolean } | undefined {
  // JSON.parse has rounded an integer beyond 2^53 (…993 reads as …992): its answer would carry another id.
  if (isObject(message) && Number.isInteger(message.id) && !Number.isSafeInteger(message.id)) {
    return { text: `has an integer "id" beyond ±${Number.MAX_SAFE_INTEGER} (2^53 − 1), which cannot be echoed exactly as sent: use a string id, or a smaller integer` };
  }
  if (JSONRPCMessageSchema.safeParse(message).success) return undefined;
  if (!isObject(message)) return { text: `is ${kindOf(message)}, not a JSON-RPC 2.0 message object` };
  if (message.jsonrpc !== '2.0') return { text: 'needs "jsonrpc": "2.0"' };
  const { id } = message;
  if ('id' in message && typeof id !== 'string' && !Number.isInteger(id)) return { text: `has an "id" that is ${kindOf(id)}: it must be a string or an integer` };
  if (!('method' in message)) {
    if ('result' in message || 'error' in message) return { text: 'is not a valid JSON-RPC 2.0 response' };
    return { text: 'has no "method": a request or notification names one' };
  }
  if (typeof message.method !== 'string') return { text: `has a "method" that is ${kindOf(message.method)}: it must be a string` };
  if ('params' in message && !isObject(message.params)) return { text: `has "params" that are ${kindOf(message.params)}: MCP takes params as an object` };
  const extra = Object.keys(message).filter((k) => !MESSAGE_MEMBERS.has(k) || k === 'result' || k === 'error');
  if (extra.length) return { text: `has members a JSON-RPC 2.0 request does not take: ${extra.slice(0, 5).join(', ')}` };
  const issues = ('id' in message ? JSONRPCRequestSchema : JSONRPCNotificationSchema).safeParse(message).error?.issues ?? [];
  return { text: issueList(issues) || 'does not fit JSON-RPC 2.0', inParams: 'id' in message && issues.every((i) => i.path[0] === 'params') };
}

/**
 * Whether MCP's protocol version has JSON-RPC batches: 2025-03-26 added them (2024-11-05 took them as JSON-RPC 2.0
 * does), 2025-06-18 removed them. Versions compare as their dates; one the SDK does not support is its to refuse.
 */
const hasBatches = (version: string): boolean => !SUPPORTED_PROTOCOL_VERSIONS.includes(version) || version < '2025-06-18';

/** A usable id of a message (a string or a safe integer), else null. */
const idOf = (message: unknown): string | number | null =>
  isObject(message) && (typeof message.id === 'string' || Number.isSafeInteger(message.id)) ? (message.id as string | number) : null;

/**
 * What to answer a parsed body that is not a well-formed JSON-RPC 2.0 message or batch (undefined when it is one):
 * JSON-RPC 2.0 answers an empty batch, and anything else that parsed as JSON but is not a message, with one −32600
 * (Invalid Request) error; the SDK's transport answers an empty batch 202 and the rest −32700 (a parse error). A batch
 * under a protocol version without batches, an initialize in a batch and a batch over the SDK's bound are −32600 too
 * (the SDK refuses the last two alike; here they are refused before anything is counted).
 */
export function invalidRequest(body: unknown, protocolVersion = ''): { status: number; body: string } | undefined {
  const refuse = (text: string, id: string | number | null = null) => ({ status: 400, body: jsonRpcErrorBody(id, ErrorCode.InvalidRequest, `Invalid Request: ${text}.`) });
  if (Array.isArray(body)) {
    if (!hasBatches(protocolVersion)) {
      return refuse(`MCP protocol version ${protocolVersion} (the MCP-Protocol-Version header) has no JSON-RPC batches; send each message in its own request (batches are taken under 2025-03-26 and 2024-11-05)`);
    }
    if (body.length === 0) return refuse('the batch is empty; send a JSON-RPC 2.0 message, or an array of one or more');
    if (body.length > MAX_BATCH_SIZE) return refuse(`a batch may hold at most ${MAX_BATCH_SIZE} messages; this one holds ${body.length}`);
    for (let i = 0; i < body.length; i++) {
      const problem = messageProblem(body[i]);
      if (problem) return refuse(`element ${i} of the batch ${problem.inParams ? `has invalid params: ${problem.text}` : problem.text}`);
    }
    if (body.length > 1 && body.some(isInitializeRequest)) return refuse('initialize must be sent alone, not in a batch');
    return undefined;
  }
  const problem = messageProblem(body);
  if (!problem) return undefined;
  // A request whose only fault is in its params: answered as the SDK answers its errors, HTTP 200 with its id.
  if (problem.inParams) return { status: 200, body: jsonRpcErrorBody(idOf(body), ErrorCode.InvalidParams, `Invalid params: ${problem.text}.`) };
  return refuse(`the message ${problem.text}`, idOf(body));
}

/** A request's body as the MCP surface reads it, before the key's limits are counted. */
export interface McpBody {
  /** The body parsed, or undefined when it is not JSON (the transport answers −32700). */
  parsed: unknown;
  /** The answer, when the body is refused before the transport sees it (invalidRequest). */
  refused?: { status: number; body: string };
  /**
   * The tool calls it counts against the account's limits: the `tools/call` requests of a message or batch that
   * is not refused as invalid (−32600 or −32700). A refused call's −32602 (Invalid params) counts, as a 400 does on
   * the API; notifications never count.
   */
  toolCalls: number;
}

/** Reads a body of /mcp: parsed, checked (invalidRequest) under the request's MCP-Protocol-Version, its calls counted. */
export function readMcpBody(text: string, protocolVersion: string): McpBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { parsed: undefined, toolCalls: 0 }; // the transport answers with the JSON-RPC parse error
  }
  const refused = invalidRequest(parsed, protocolVersion);
  const counts = refused === undefined || refused.status === 200; // a lone request's −32602 is answered, not refused
  return { parsed, refused, toolCalls: counts ? toolCallCount(parsed) : 0 };
}

/** The SDK's schema of every request this server answers; others get the SDK's −32601 (method not found). */
const REQUEST_SCHEMAS = new Map<string, { safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } } }>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

const TOOL_NAMES = TOOLS.map((t) => t.name).join(', ');

/**
 * Why a request's params do not fit its method's schema, in words (undefined when they fit). Without this the SDK
 * answers such a request −32603 (internal error) with its validator's raw output; JSON-RPC says −32602.
 */
export function invalidParams(request: JSONRPCRequest): string | undefined {
  const schema = REQUEST_SCHEMAS.get(request.method);
  const checked = schema?.safeParse(request);
  if (!checked || checked.success) return undefined;
  const params: unknown = request.params;
  if (request.method === 'tools/call') {
    const example = '{"name": "getQibla", "arguments": {"lat": 41, "lon": 29}}';
    if (!isObject(params)) return `Invalid params: tools/call needs params, an object such as ${example}; they were ${kindOf(params)}.`;
    if (typeof params.name !== 'string') {
      return `Invalid params: params.name must be a string naming the tool (one of ${TOOL_NAMES}); it was ${kindOf(params.name)}.`;
    }
    if (params.arguments !== undefined && !isObject(params.arguments)) {
      const tool = TOOLS.find((t) => t.name === params.name);
      const takes = tool ? `; ${tool.name} takes ${Object.keys(tool.inputSchema.properties ?? {}).join(', ')}` : '';
      return `Invalid params: params.arguments must be an object of the tool's arguments by name, such as {"lat": 41, "lon": 29}, or left out${takes}; it was ${kindOf(params.arguments)}.`;
    }
  }
  return `Invalid params for ${request.method}: ${issueList(checked.error?.issues ?? []) || 'they do not fit its schema'}.`;
}

/** Answers one HTTP request of the MCP transport (stateless: a fresh server and transport each time). */
export async function handleMcp(request: Request, body: McpBody, deps: McpDependencies): Promise<Response> {
  const { parsed: parsedBody, refused } = body;
  if (refused) return new Response(refused.body, { status: refused.status, headers: { 'Content-Type': 'application/json' } });
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(req.params.name, req.params.arguments, deps));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  // Requests whose params do not fit are answered −32602 here, before the SDK's handlers see them.
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) ? invalidParams(message) : undefined;
    if (problem === undefined) return deliver(message, extra);
    const id = (message as JSONRPCRequest).id;
    transport.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: problem } }).catch((error: unknown) => {
      log('error', 'mcp_send_failed', { error: String(error) });
    });
  };
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  } finally {
    void server.close();
  }
}
