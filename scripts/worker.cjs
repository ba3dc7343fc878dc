// `npm run worker`: an extra review-engine worker (server/worker-main.ts), started with the server's node flags
// (scripts/server-node-args.cjs) so that it runs in the same memory regime as `npm start`.
require('./server-node-args.cjs').runWithServerFlags('server/worker-main.ts');
