// Background work of the AI features (imported by server/jobs.ts).
import { registerBackgroundJob } from '../background';
import { periodicJob } from '../periodic';
import { refineQueuedSentiments } from './enrich/refine';

registerBackgroundJob(
  periodicJob({
    name: 'ai-sentiment-refine',
    everyMs: 60_000,
    run: async () => {
      await refineQueuedSentiments();
    },
  }),
);
