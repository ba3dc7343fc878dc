// Background work of the insights (imported by server/jobs.ts): AI summaries whose process stopped before the model's
// part was written are finished here, once their claim expired.
import { registerBackgroundJob } from '../background';
import { periodicJob } from '../periodic';
import { abandonedSummaries } from './data';
import { runSummary } from './summaries';

registerBackgroundJob(
  periodicJob({
    name: 'summaries-pending',
    everyMs: 60_000,
    run: async () => {
      for (const id of await abandonedSummaries(10)) await runSummary(id);
    },
  }),
);
