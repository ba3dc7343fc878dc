/**
 * The API's OpenAPI 3.1 document, built from the route table (server/http/routes.ts) and the same zod schemas that
 * validate requests — the description cannot drift from what the handlers accept.
 */
import { z, type ZodType } from 'zod';
import { env } from '../env';
import { RAW, apiRoute, endpoint, sendJson, type ApiRouteEntry, type AuthMode, type Endpoint, type Method } from './api';
import { STATUS_WORDS, type DeclaredStatus } from './statuses';

type JsonSchema = Record<string, unknown>;

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable machine-readable code, e.g. invalid_request, rate_limited.' },
        message: { type: 'string', description: 'What went wrong, in words a person understands.' },
      },
    },
  },
};

/** The request side of a schema (what a client sends), as JSON Schema 2020-12 (OpenAPI 3.1's dialect). */
function requestSchema(schema: ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function responseSchema(schema: ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** /api/v1/apps/[id] → /api/v1/apps/{id}; catch-all [...slug] → {slug}. */
export function openApiPath(nextPath: string): string {
  return nextPath.replace(/\[\[?(?:\.\.\.)?(\w+)\]?\]/g, '{$1}');
}

function parametersFrom(schema: ZodType | undefined, where: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const json = requestSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}

/** The response headers a client acts on, each described once and referenced from the responses that carry it. */
const HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': { description: 'The id of this request (every answer has one): name it when asking for help.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer', minimum: 1 } },
  ETag: { description: 'The answer’s validator: sent back in If-None-Match, it gets 304 with no body while the answer is unchanged.', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests this API key may make in a minute.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests this API key has left in the current minute.', schema: { type: 'integer' } },
  Location: { description: 'Where the client is sent.', schema: { type: 'string' } },
};

const headerRefs = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** The headers of one of `ep`'s answers with `status`. */
function headerNames(status: number, ep: Endpoint): string[] {
  const names = ['X-Request-Id'];
  if (status === 429 || status === 503) names.push('Retry-After');
  if ((status === 200 || status === 304) && ep.statuses?.includes(304)) names.push('ETag');
  // The key's rate is counted before anything else is decided: every answer but the refused key's says where it stands.
  if (ep.auth === 'api_key' && status !== 401) names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining');
  if (status === 302 || status === 303) names.push('Location');
  return names;
}

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** A declared status's response: the success body again for 201/202, nothing for 204 and 3xx, else the error body. */
function declaredResponse(status: DeclaredStatus, success: JsonSchema): JsonSchema {
  const description = STATUS_WORDS[status];
  if (status === 201 || status === 202) return { ...success, description };
  if (status < 400) return { description };
  return errorRef(description);
}

function security(auth: AuthMode): JsonSchema[] | undefined {
  if (auth === 'user') return [{ bearerAuth: [] }];
  if (auth === 'billing') return [{ bearerAuth: [] }, { billingToken: [] }];
  if (auth === 'optional') return [{}, { bearerAuth: [] }];
  if (auth === 'api_key') return [{ apiKey: [] }];
  return undefined;
}

function operation(path: string, method: Method, ep: Endpoint): JsonSchema {
  const auth: AuthMode = ep.auth ?? 'none';
  const responses: Record<string, JsonSchema> = {
    200: {
      description: 'Success',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ep.paged ? ['data', 'has_more'] : ['data'],
            properties: {
              data: ep.response ? responseSchema(ep.response) : {},
              ...(ep.paged
                ? {
                    has_more: { type: 'boolean', description: 'More entries follow: ask again with the last id as the cursor.' },
                    next_cursor: { type: ['string', 'null'], description: 'Lists whose cursor is not an id (the review inbox): the cursor of the next page.' },
                    total: { type: 'integer', description: 'Lists that count their results (the review inbox): how many match, exact up to a cap.' },
                    total_is_estimate: { type: 'boolean', description: 'With total: true when it is beyond the cap and so an estimate.' },
                  }
                : {}),
            },
          },
        },
      },
    },
    400: errorRef('Invalid request: the message names the field'),
    405: errorRef('Method not allowed (see the Allow header)'),
    429: errorRef('Rate limited (see the Retry-After header)'),
    500: errorRef('A failure on our side (the message names the request id)'),
  };
  // An endpoint without a body schema that takes other media types reads the body itself, under the same limit.
  if (ep.body || ep.contentTypes) responses[413] = errorRef('Request body too large');
  if (method !== 'GET') {
    const types = ['application/json', ...(ep.contentTypes ?? [])].join(', ');
    responses[415] = errorRef(`Content-Type is not ${types} (required even for an empty body)`);
  }
  if (auth === 'user' || auth === 'billing') {
    responses[401] = errorRef('Missing, expired or invalid token');
    responses[403] = errorRef('Token not allowed here (a billing-only token outside billing)');
  }
  if (auth === 'api_key') {
    responses[401] = errorRef('Missing, revoked or mistyped API key');
    responses[429] = errorRef("Past the key's rate (Retry-After says when to try again)");
    responses[402] = errorRef('The plan does not include the API, or its calls this month are used up (code plan_limit)');
  }
  for (const status of ep.statuses ?? []) responses[status] ??= declaredResponse(status, responses[200]);
  for (const [status, response] of Object.entries(responses)) response.headers = headerRefs(headerNames(Number(status), ep));
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: ep.summary,
    ...(ep.tags?.length ? { tags: ep.tags } : {}),
    ...(security(auth) ? { security: security(auth) } : {}),
    parameters: [...parametersFrom(ep.params, 'path'), ...parametersFrom(ep.query, 'query')],
    ...(ep.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: requestSchema(ep.body) } } } }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(routes: readonly ApiRouteEntry[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { path, route } of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const item: Record<string, unknown> = {};
    for (const [method, ep] of Object.entries(route.endpoints) as Array<[Method, Endpoint]>) {
      item[method.toLowerCase()] = operation(path, method, ep);
    }
    paths[openApiPath(path)] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ARB API',
      version: '1',
      description:
        'Success answers are `{ "data": … }`; failures are `{ "error": { "code", "message" } }` with a 4xx/5xx status. ' +
        'Every answer carries an X-Request-Id header.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Auth token from /v1/auth/token/exchange.' },
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'arb_…', description: 'An API key of the organisation (arb_ and 40 letters and digits), made in the dashboard under API keys.' },
        billingToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Billing-only token from /v1/auth/token/crm-exchange.' },
      },
    },
  };
}

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The route table plus `GET /api/openapi.json`, which describes every route of that table and itself. The document's
 * route is made here from the table it is given, so nothing imports the table back (no import cycle).
 */
export function withOpenApiDocument(routes: readonly ApiRouteEntry[]): ApiRouteEntry[] {
  let document: JsonSchema | undefined; // built on first request: the schemas do not change while the process runs
  const all: ApiRouteEntry[] = [...routes];
  const route = apiRoute({
    GET: endpoint({
      summary: 'This description of the API (OpenAPI 3.1)',
      tags: ['meta'],
      handler: ({ res }) => {
        document ??= buildOpenApiDocument(all, env().APP_URL);
        // The document itself, not wrapped in { data }: OpenAPI tools read it as is.
        sendJson(res, 200, document, { 'Cache-Control': 'public, max-age=300' });
        return RAW;
      },
    }),
  });
  all.push({ path: OPENAPI_PATH, route });
  return all;
}
