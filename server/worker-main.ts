/**
 * `npm run worker`: an extra review-engine worker against the shared PostgreSQL in DATABASE_URL (refuses the embedded
 * database, which only `npm start` may open). Run as many as you like; see server/monitor/README.md.
 */
import { runWorkerProcess } from './monitor/workerProcess';

runWorkerProcess({ allowEmbedded: false }).catch((err) => {
  console.error(err);
  process.exit(1);
});
