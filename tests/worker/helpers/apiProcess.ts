// A child process that serves the API exactly as `npm start` routes it (the generated route table, the same router),
// without Next and without the background workers, on DATABASE_URL; it prints `listening <port>` once it accepts
// requests. The multi-process API tests start two and send each its share of a race.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getDb } from '../../../server/db/client';
import { createApiRouter } from '../../../server/http/router';
import { withOpenApiDocument } from '../../../server/http/openapi';
import { apiRoutes } from '../../../server/http/routes';

async function main() {
  await getDb();
  const route = createApiRouter(withOpenApiDocument(apiRoutes));
  const server = http.createServer((req, res) => {
    if (route(req, res)) return;
    res.statusCode = 404;
    res.end();
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

void main();
