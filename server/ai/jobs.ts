// Background work of the AI features (listed in server/jobs.ts).
import type { BackgroundJob } from '../background';
import { log } from '../log';
import { enrichReviews } from './enrich';
import { periodicJob } from '../periodic';
import { refineQueuedSentiments } from './enrich/refine';

export const sentimentRefineJob = periodicJob({
  name: 'ai-sentiment-refine',
  everyMs: 60_000,
  run: async () => {
    await refineQueuedSentiments();
  },
});

// The language detector's database takes a few seconds to load: load it as the process starts, not on the first poll
// with news (which would hold its ingest transaction open meanwhile).
export const enrichmentWarmUpJob: BackgroundJob = {
  name: 'ai-enrichment-warm-up',
  start: () => {
    void enrichReviews([{ title: null, body: 'Warm-up review text.', rating: 3 }]).catch((err) => log.error('enrichment warm-up failed', { err }));
    return async () => {};
  },
};
