/**
 * Under NODE_ENV=test, the status of every answer the API router gives is looked up in the OpenAPI document built from
 * the same route table (server/http/openapi.ts): an operation that answers a status its document does not list (an
 * endpoint missing a `statuses` entry, server/http/statuses.ts) is kept in `takeUndocumentedStatuses` until the test's
 * afterEach hook (tests/helpers/statusCheckSetup.ts) takes it and fails the test that made the call. So the document
 * lists every status the tests see, whichever file they are in, and a status added to a handler without its entry
 * fails the first test that reaches it.
 *
 * Checked when the answer has been written (its `finish`), so answers a handler writes itself (redirects, streams)
 * count too. Outside tests the router does not call this: no cost in production.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRouteEntry } from './api';
import { buildOpenApiDocument, openApiPath } from './openapi';

type Operations = Record<string, Record<string, { responses?: Record<string, unknown> }> | undefined>;

// On globalThis: the router's module and a test's setup file may be loaded as different module instances.
const g = globalThis as unknown as { __arbUndocumentedStatuses?: string[] };

/** The undocumented statuses answered since the last call, emptied (tests' afterEach). */
export function takeUndocumentedStatuses(): string[] {
  const found = g.__arbUndocumentedStatuses ?? [];
  g.__arbUndocumentedStatuses = [];
  return found;
}

/**
 * A function the router calls with each request it gives to a route of `routes` (the table with the OpenAPI route,
 * as the router has it): when the answer is written, its status must be one of the operation's documented responses.
 * OPTIONS and methods the route does not serve (405) have no operation, and are not checked.
 */
export function documentedStatusCheck(routes: readonly ApiRouteEntry[]): (path: string, req: IncomingMessage, res: ServerResponse) => void {
  let paths: Operations | undefined; // built at the first request: every route is loaded by then
  return (path, req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    res.once('finish', () => {
      const found = (g.__arbUndocumentedStatuses ??= []);
      try {
        paths ??= buildOpenApiDocument(routes, 'http://localhost').paths as Operations;
      } catch (err) {
        found.push(`the OpenAPI document could not be built: ${(err as Error).message}`);
        return;
      }
      const responses = paths[openApiPath(path)]?.[method.toLowerCase()]?.responses;
      if (!responses || String(res.statusCode) in responses) return;
      found.push(
        `${method} ${path} answered ${res.statusCode}, which its OpenAPI operation does not list (documented: ${Object.keys(responses).join(', ')}): add it to the endpoint's \`statuses\` (server/http/statuses.ts)`,
      );
    });
  };
}
