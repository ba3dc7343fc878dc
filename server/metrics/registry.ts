/**
 * This process's Prometheus metrics (prom-client): one registry, kept on globalThis because `npm start` loads the
 * engine through tsx and parts of the app through Next's bundle (two module instances, one process: as counters.ts).
 * The functions below are what the rest of the server calls; nothing else imports prom-client. Labels are bounded sets
 * (stores, platforms, outcomes, route patterns, AI features), never ids or user input.
 */
import client from 'prom-client';
import { registerDatabaseGauges } from './gauges';

export type DeliveryOutcomeLabel = 'delivered' | 'retry' | 'rate_limited' | 'rejected' | 'gone' | 'failed' | 'parked';

type Metrics = {
  registry: client.Registry;
  polls: client.Counter<'store'>;
  pollErrors: client.Counter<'store'>;
  deliveries: client.Counter<'platform' | 'outcome'>;
  latency: client.Histogram<'platform'>;
  http: client.Histogram<'route' | 'method' | 'status'>;
  tokens: client.Counter<'feature'>;
};

const g = globalThis as unknown as { __arbMetrics?: Metrics };

function create(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'arb_process_' });
  registerDatabaseGauges(registry);
  const registers = [registry];
  return {
    registry,
    polls: new client.Counter({ name: 'arb_polls_total', help: 'Store polls this process finished, by store (a failed poll counts here and in arb_poll_errors_total).', labelNames: ['store'], registers }),
    pollErrors: new client.Counter({ name: 'arb_poll_errors_total', help: 'Store polls that failed, by store.', labelNames: ['store'], registers }),
    deliveries: new client.Counter({
      name: 'arb_deliveries_total',
      help: 'Messages this process sent or set aside, by destination platform and outcome (retry: a 5xx or network error that will be tried again; failed: out of tries).',
      labelNames: ['platform', 'outcome'],
      registers,
    }),
    latency: new client.Histogram({
      name: 'arb_review_to_chat_seconds',
      help: 'From a new review being stored (its message queued in the same transaction) to the destination accepting it, by platform.',
      labelNames: ['platform'],
      buckets: [1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
      registers,
    }),
    http: new client.Histogram({
      name: 'arb_http_request_duration_seconds',
      help: 'API requests answered by this process, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    tokens: new client.Counter({ name: 'arb_model_tokens_total', help: 'Language-model tokens used (as the model reported, or estimated), by feature.', labelNames: ['feature'], registers }),
  };
}

export function metrics(): Metrics {
  g.__arbMetrics ??= create();
  return g.__arbMetrics;
}

export function recordPoll(store: string, ok: boolean): void {
  const m = metrics();
  m.polls.inc({ store });
  if (!ok) m.pollErrors.inc({ store });
}

export function recordDelivery(platform: string, outcome: DeliveryOutcomeLabel, by = 1): void {
  if (by > 0) metrics().deliveries.inc({ platform, outcome }, by);
}

export function recordReviewToChat(platform: string, seconds: number): void {
  if (Number.isFinite(seconds) && seconds >= 0) metrics().latency.observe({ platform }, seconds);
}

export function recordHttpRequest(route: string, method: string, status: number, seconds: number): void {
  metrics().http.observe({ route, method, status: String(status) }, seconds);
}

export function recordModelTokens(feature: string, tokens: number): void {
  if (tokens > 0) metrics().tokens.inc({ feature }, tokens);
}
