// The test helper's Prometheus text parser (tests/helpers/prometheusText.ts) ships no types of its own.
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
