/**
 * The statuses an endpoint may answer beyond those every endpoint of its kind answers (200; 400, 405, 429 and 500;
 * 401/403 with a token, 401/402 with an API key; 413/415 with a body), and what each means to a client.
 * `endpoint({ statuses: [404, 409] })` lists them; the OpenAPI document describes each (server/http/openapi.ts), and
 * under NODE_ENV=test an answer whose status its operation does not list fails the test that made the call
 * (server/http/answeredStatuses.ts).
 */
export const STATUS_WORDS = {
  201: 'Created',
  202: 'Accepted: the work goes on after the answer (its state is in the data)',
  204: 'No content',
  302: 'Redirect (see the Location header)',
  303: 'Redirect to a page (see the Location header)',
  304: 'Not modified: If-None-Match named the current ETag (no body)',
  401: 'Missing, expired or invalid credentials',
  402: 'Past a limit of the plan, or not in the plan (code plan_limit; the message names the plan that lifts it)',
  403: 'Not allowed for this caller (the message names the role or what is missing)',
  404: 'Not found (or not this organisation’s)',
  406: 'Not acceptable: the Accept header lacks a type this answers with (MCP: application/json and text/event-stream)',
  409: 'Conflicts with the current state (the message says what to do)',
  410: 'No longer available',
  413: 'Request body too large (an endpoint that reads its body itself)',
  422: 'Understood but refused (the message says why)',
  502: 'An outside service (a store, a chat platform, Stripe, a language model) failed or refused',
  503: 'Not available now: a service this needs is not configured, busy or down (Retry-After when known)',
  504: 'An outside service did not answer in time',
} as const;

export type DeclaredStatus = keyof typeof STATUS_WORDS;
