/**
 * Stopping the web server without cutting requests short: stop accepting connections, let the requests already
 * running finish (their answers go out, then their connections close), and only then let the caller close the
 * database. Past `deadlineMs` the remaining connections are cut, so a hung request cannot hold the shutdown for ever.
 */
import type { Server } from 'node:http';

/** Resolves once every request in flight has been answered (true), or the deadline cut the rest (false). */
export function drainServer(server: Server, deadlineMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    // Keep-alive connections between requests hold no work: close them now, and as each busy one becomes idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const finish = (drained: boolean) => {
      if (done) return;
      done = true;
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(drained);
    };
    const deadline = setTimeout(() => {
      server.closeAllConnections();
      finish(false);
    }, deadlineMs);
    server.close(() => finish(true));
    server.closeIdleConnections();
  });
}
