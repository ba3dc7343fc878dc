// The MCP server over stdio, for assistants that start a local command instead of calling a URL: each message read on
// stdin goes to POST /api/mcp of an ARB server (server/mcp/http.ts) with the API key as the bearer, and each answer
// comes back on stdout, so the client sees the same tools, limits and errors as over HTTP. Logs go to stderr (stdout
// carries only protocol messages).
//
//   ARB_URL=https://arb.example.com ARB_API_KEY=arb_… npm run mcp
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

function setting(name: string, example: string): string {
  const value = process.env[name]?.trim();
  if (value) return value;
  process.stderr.write(`mcp-stdio: set ${name} (e.g. ${example}).\n`);
  process.exit(2);
}

const base = setting('ARB_URL', 'https://arb.example.com');
const key = setting('ARB_API_KEY', 'arb_… from the dashboard, API keys');

/** The error message of ARB's answer (`{ error: { message } }`) inside the transport's error, else the error's own. */
function refusal(err: unknown): { code: number | undefined; message: string } {
  const code = err instanceof StreamableHTTPError ? err.code : undefined;
  const text = err instanceof Error ? err.message : String(err);
  const json = /\{[\s\S]*\}$/.exec(text)?.[0];
  try {
    const parsed = json ? (JSON.parse(json) as { error?: { message?: unknown } | string }) : null;
    const message = typeof parsed?.error === 'object' ? parsed.error.message : undefined;
    if (typeof message === 'string') return { code, message: code ? `ARB answered ${code}: ${message}` : message };
  } catch {
    // Not ARB's JSON (a proxy's page): the transport's words stand.
  }
  return { code, message: text };
}

const local = new StdioServerTransport();
const remote = new StreamableHTTPClientTransport(new URL('/api/mcp', base), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });

remote.onmessage = (message) => {
  // The protocol version agreed at initialize goes on every later request, as the SDK's own client does.
  const result = 'result' in message ? (message.result as { protocolVersion?: unknown }) : undefined;
  if (typeof result?.protocolVersion === 'string') remote.setProtocolVersion(result.protocolVersion);
  void local.send(message);
};
remote.onerror = (err) => process.stderr.write(`mcp-stdio: ${refusal(err).message}\n`);

local.onmessage = (message: JSONRPCMessage) => {
  remote.send(message).catch((err: unknown) => {
    const { code, message: text } = refusal(err);
    process.stderr.write(`mcp-stdio: ${text}\n`);
    // A request refused by the server (401, 402, 429…) gets its answer, so the client does not wait for one.
    if (isJSONRPCRequest(message)) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: text, data: code ? { status: code } : undefined } });
  });
};

const stop = () => {
  void remote.close();
  void local.close();
};
local.onclose = stop;
process.stdin.on('end', stop);

void (async () => {
  await remote.start();
  await local.start();
})();
