/**
 * The server keeps an idle keep-alive connection longer than clients keep theirs (server/main.ts): a client that sends
 * its next request on a connection idle for 6 s — past Node's 5 s default, which clients like Node's own agent also
 * use — reuses that connection instead of racing the server's close (an ECONNRESET when it loses).
 */
import http from 'node:http';
import { expect, test } from './fixtures';

function get(url: string, agent: http.Agent): Promise<{ status: number; localPort: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      const localPort = res.socket.localPort!;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, localPort }));
    });
    req.on('error', reject);
  });
}

test('a connection idle for 6 s is still open for the next request', async ({ baseURL }) => {
  // The agent keeps its idle socket for 10 s, so only the server's close could end it before the second request.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: 10_000 });
  try {
    const first = await get(`${baseURL}/api/health`, agent);
    await new Promise((r) => setTimeout(r, 6_000));
    const second = await get(`${baseURL}/api/health`, agent);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.localPort).toBe(first.localPort);
  } finally {
    agent.destroy();
  }
});
