// The API's operations called by name, for the other surfaces of the process (the site's pages): the same route,
// the same validation and the same handler as an HTTP request, so a page and the API never disagree. Errors are the
// API's (ApiError, with the contract's codes); the caller decides how to show them.
import { asApiError } from './apiError.js';
import { validateParams } from './params.js';
import { ROUTES, type RequestContext } from './routes.js';
import { RenderedBody } from '../timetables/renderedResponses.js';

const ROUTES_BY_OPERATION = new Map(ROUTES.map((r) => [r.operationId as string, r]));

/** The answer body of an operation, as the API would send it, for parameters given as text. */
export function answerOperation(operationId: string, query: Readonly<Record<string, string>>, ctx: RequestContext): Record<string, unknown> {
  const route = ROUTES_BY_OPERATION.get(operationId);
  if (!route) throw new Error(`no operation ${operationId}`);
  try {
    const params = validateParams(route.params, new Map(Object.entries(query)));
    const result = (route.handle as (p: typeof params, c: RequestContext) => object)(params, ctx);
    return (result instanceof RenderedBody ? JSON.parse(result.json) : result) as Record<string, unknown>;
  } catch (error) {
    throw asApiError(error) ?? error;
  }
}
