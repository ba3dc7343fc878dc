// A child process that runs the review engine exactly as `npm run worker` does, but also on the embedded database
// (the crash test kills it with SIGKILL and starts it again on the same PGlite directory).
import { runWorkerProcess } from '../../../server/monitor/workerProcess';

void runWorkerProcess({ allowEmbedded: true });
