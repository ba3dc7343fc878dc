/**
 * Registers the engine's two loops as background jobs, so `npm start` (server/main.ts) and `npm run worker`
 * (server/worker-main.ts) run them with the same code. Imported from server/jobs.ts.
 */
import { registerBackgroundJob } from '../background';
import { getDb } from '../db/client';
import { engineOptionsFromEnv, startEngine } from './engine';

registerBackgroundJob({
  name: 'review-polling',
  start: async () => {
    const engine = startEngine(await getDb(), engineOptionsFromEnv({ poll: true, deliver: false }));
    return () => engine.stop();
  },
});

registerBackgroundJob({
  name: 'review-delivery',
  start: async () => {
    const engine = startEngine(await getDb(), engineOptionsFromEnv({ poll: false, deliver: true }));
    return () => engine.stop();
  },
});
