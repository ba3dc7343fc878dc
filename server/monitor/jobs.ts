/**
 * The engine's two loops (and its minute sweep, below) as background jobs, so `npm start` (server/main.ts) and `npm run worker`
 * (server/worker-main.ts) run them with the same code. Listed in server/jobs.ts.
 */
import type { BackgroundJob } from '../background';
import { getDb } from '../db/client';
import { periodicJob } from '../periodic';
import { engineOptionsFromEnv, startEngine } from './engine';
import { sweepDemand } from './service';

export const reviewPollingJob: BackgroundJob = {
  name: 'review-polling',
  start: async () => {
    const engine = startEngine(await getDb(), engineOptionsFromEnv({ poll: true, deliver: false }));
    return () => engine.stop();
  },
};

export const reviewDeliveryJob: BackgroundJob = {
  name: 'review-delivery',
  start: async () => {
    const engine = startEngine(await getDb(), engineOptionsFromEnv({ poll: false, deliver: true }));
    return () => engine.stop();
  },
};

/**
 * Every minute: anonymous connections whose time is up pause (anonymous.ts); sources nothing needs stop being polled
 * and those needed again restart (sourceDemand.ts). Once per minute across all worker processes (server/periodic.ts).
 */
export const sourceDemandJob = periodicJob({
  name: 'source-demand',
  everyMs: 60_000,
  run: async () => {
    await sweepDemand(await getDb());
  },
});
