/**
 * The `npm start` process serves /metrics ahead of the API and the pages (server/main.ts) when METRICS_TOKEN is set:
 * read from the e2e run's real server with the bearer, Prometheus's text parser accepts it and it carries the
 * process's own metrics, the database gauges and this very run's API requests by route; without the bearer it is 401.
 * (Every figure's code path: tests/api/metrics.test.ts; a worker process's own listener: tests/worker/metrics.test.ts.)
 */
import { expect, test } from './fixtures';
import { E2E_METRICS_TOKEN } from './support/metricsToken';
import { countOf, parseMetrics, valueOf } from '../helpers/prometheusText';

test('GET /metrics from the running server, as Prometheus reads it', async ({ request }) => {
  expect((await request.get('/api/health')).status()).toBe(200);
  const denied = await request.get('/metrics');
  expect(denied.status()).toBe(401);
  const res = await request.get('/metrics', { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  const families = parseMetrics(await res.text());
  expect(countOf(families, 'arb_http_request_duration_seconds', { route: '/api/health', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(families, 'arb_delivery_queue_depth')).toBeGreaterThanOrEqual(0);
  expect(valueOf(families, 'arb_sources_due')).toBeGreaterThanOrEqual(0);
  expect(valueOf(families, 'arb_process_process_resident_memory_bytes')).toBeGreaterThan(0);
  // The engine runs in this process (WORKER=on): its families are here too, counted or not yet.
  for (const name of ['arb_polls_total', 'arb_poll_errors_total', 'arb_deliveries_total', 'arb_review_to_chat_seconds', 'arb_model_tokens_total']) {
    expect(families.has(name), name).toBe(true);
  }
});
