// The MCP server at /mcp (contract, "MCP server"): Streamable HTTP, stateless, JSON responses. The six tools are the
// six operations of the route table: the same names, descriptions and parameter declarations (their JSON Schemas are
// the tools' input schemas), the same validation, the same handlers, the same JSON.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, errorObject, type ErrorLinks } from './errors.js';
import { paramSchema, validateParams } from './params.js';
import { RenderedBody } from './renderedResponses.js';
import { ROUTES, type RequestContext, type Route } from './routes.js';

export const MCP_PATH = '/mcp';
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
    annotations: { title: route.summary, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
});

const routesByTool = new Map<string, Route>(ROUTES.map((r) => [r.operationId, r as unknown as Route]));

/** How many tool calls a JSON-RPC message (or batch) holds: each is counted once. */
export function toolCallCount(message: unknown): number {
  const messages = Array.isArray(message) ? message : [message];
  return messages.filter((m) => m && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/call').length;
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
    const answer = route.handle(validateParams(route.params, given), deps.context());
    const result = (answer instanceof RenderedBody ? JSON.parse(answer.json) : answer) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const body = { error: errorObject(error.code, error.message, deps.links) };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  }
}

/** Answers one HTTP request of the MCP transport (stateless: a fresh server and transport each time). */
export async function handleMcp(request: Request, parsedBody: unknown, deps: McpDependencies): Promise<Response> {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(req.params.name, req.params.arguments, deps));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  } finally {
    void server.close();
  }
}
