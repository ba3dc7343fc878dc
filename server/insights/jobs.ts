// Background work of the insights (listed in server/jobs.ts): AI summaries whose process stopped before the model's
// part was written are finished here, once their claim expired.
import { periodicJob } from '../periodic';
import { abandonedSummaries } from './data';
import { runSummary } from './summaries';

export const pendingSummariesJob = periodicJob({
  name: 'summaries-pending',
  everyMs: 60_000,
  run: async () => {
    for (const id of await abandonedSummaries(10)) await runSummary(id);
  },
});
