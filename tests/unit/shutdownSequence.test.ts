// server/shutdown.ts: the one shutdown sequence of `npm start` and `npm run worker`. The order is what keeps data:
// workers stop and requests finish before the counts are written, and the database closes only after all of them.
import { expect, test } from 'vitest';
import { shutdownSequence, SHUTDOWN_ORDER } from '@/server/shutdown';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('steps run by order; steps of one order run together; registration order does not matter', async () => {
  const seq = shutdownSequence();
  const events: string[] = [];
  seq.onShutdown('database close', () => void events.push('db closed'), SHUTDOWN_ORDER.closeDatabase);
  seq.onShutdown('counts flush', async () => void events.push('counts written'), SHUTDOWN_ORDER.flushCounts);
  seq.onShutdown('draining', async () => {
    events.push('drain started');
    await tick(60);
    events.push('drained');
  }, SHUTDOWN_ORDER.stopWork);
  seq.onShutdown('workers stop', async () => {
    events.push('workers stopping');
    await tick(20);
    events.push('workers stopped');
  }, SHUTDOWN_ORDER.stopWork);
  await seq.run();
  expect(events).toEqual(['drain started', 'workers stopping', 'workers stopped', 'drained', 'counts written', 'db closed']);
});

test('a failing step does not keep the later ones from running, and the steps run once', async () => {
  const seq = shutdownSequence();
  let closed = 0;
  seq.onShutdown('workers stop', async () => {
    throw new Error('stop threw');
  }, SHUTDOWN_ORDER.stopWork);
  seq.onShutdown('database close', () => void closed++, SHUTDOWN_ORDER.closeDatabase);
  await Promise.all([seq.run(), seq.run()]);
  await seq.run();
  expect(closed).toBe(1);
});
