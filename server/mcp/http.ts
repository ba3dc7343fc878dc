/**
 * POST /api/mcp: the Model Context Protocol over Streamable HTTP, for AI assistants reading an organisation's reviews
 * with its `arb_` key as the bearer. The endpoint is the public API's (auth 'api_key'): the same key check (401), rate
 * (429 with Retry-After), monthly count and plan (402), settled before the body is read. Each call counts as one API
 * call.
 *
 * Stateless, as the SDK documents it: a new server and transport per request (`sessionIdGenerator: undefined`), no
 * session to keep between the processes that may answer; answers are JSON, not an event stream (nothing here streams).
 * GET (a stream of the server's own messages) and DELETE (ending a session) have nothing to serve: 405, which the
 * protocol allows and clients expect of a stateless server.
 */
import { z } from 'zod';
import { endpoint, RAW } from '../http/api';
import { MCP_INSTRUCTIONS, MCP_SERVER_INFO, registerTools } from './tools';

type Sdk = [typeof import('@modelcontextprotocol/sdk/server/mcp.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')];
let sdk: Promise<Sdk> | undefined;
/**
 * The SDK's server side, loaded at the first MCP request: ~20 MB and ~170 ms at start-up (measured on Node 20) that a
 * process nobody asks for MCP does not pay, since the route table loads every route when the server starts.
 */
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

/** A JSON-RPC message, or a batch of them; the transport checks each against the protocol (400 as JSON-RPC). */
const message = z.looseObject({ jsonrpc: z.literal('2.0', 'jsonrpc must be "2.0": send MCP (JSON-RPC 2.0) messages.') });
const mcpBody = z.union([message, z.array(message).min(1).max(100)]).meta({ description: 'A JSON-RPC 2.0 message of the Model Context Protocol (or a batch).' });

export const mcpEndpoint = endpoint({
  summary: "Model Context Protocol (Streamable HTTP, stateless) for AI assistants: the API key's organisation's apps, reviews, ratings, terms and summaries",
  tags: ['public API'],
  auth: 'api_key',
  body: mcpBody,
  maxBodyBytes: 256 * 1024,
  // 202: a notification or a response (nothing to answer); 406: an Accept header without both JSON and event streams.
  statuses: [202, 406],
  handler: async ({ apiKey, body, req, res, requestId, log }) => {
    const [{ McpServer }, { StreamableHTTPServerTransport }] = await loadSdk();
    const server = new McpServer(MCP_SERVER_INFO, { instructions: MCP_INSTRUCTIONS });
    registerTools(server, apiKey!, requestId, log);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = (err) => log.debug('MCP request refused', { message: err.message });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    res.setHeader('Cache-Control', 'no-store');
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    return RAW;
  },
});
