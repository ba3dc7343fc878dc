/** The e2e server's METRICS_TOKEN (globalSetup.ts sets it; tests/e2e/metrics.spec.ts reads /metrics with it). */
export const E2E_METRICS_TOKEN = 'e2e-metrics-token-0123456789';
