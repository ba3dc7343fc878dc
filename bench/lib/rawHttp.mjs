// What the throughput benches compare: our server's answer as bytes, and a bare server replaying those bytes (the
// ceiling). Plain ESM so that the .mjs and the .ts benches share it.
import http from 'node:http';

/**
 * One request as the load generator sends it (no Accept-Encoding): status, raw headers as sent, body bytes.
 * @param {string} url
 * @param {{ method?: string, body?: string, headers?: Record<string, string> }} [options] a body is sent as JSON
 * @returns {Promise<{ status: number, rawHeaders: string[], body: Buffer }>}
 */
export function requestRaw(url, { method = 'GET', body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The headers a ceiling replays, flat for res.writeHead: every one as sent (Content-Length included, so that Node does
 * not switch to chunked encoding) but Date, Connection and Keep-Alive, which Node adds to both servers' answers alike.
 * @param {string[]} rawHeaders
 * @returns {string[]}
 */
export function replayedHeaders(rawHeaders) {
  const skip = new Set(['date', 'connection', 'keep-alive']);
  const headers = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (!skip.has(rawHeaders[i].toLowerCase())) headers.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  return headers;
}
