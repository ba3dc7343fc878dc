/**
 * Reads a /metrics answer with a Prometheus text-format parser (parse-prometheus-text-format, not ARB's code; it throws
 * on a line Prometheus would refuse), and finds one series' value by name and labels.
 * One gap of that parser: a histogram with labels besides `le` comes back as one series (its flattenMetrics keys the
 * buckets by `le` alone and drops the labelled _count and _sum), so countOf reads a histogram's `_count` sample line
 * itself, from the text the parser accepted.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export type Family = {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string }>;
};

export type Scrape = Map<string, Family> & { text: string };

export function parseMetrics(text: string): Scrape {
  const families = new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f])) as Scrape;
  families.text = text;
  return families;
}

const matches = (labels: Record<string, string> | undefined, want: Record<string, string>) =>
  Object.entries(want).every(([k, v]) => labels?.[k] === v);

/** A counter's or gauge's value for the series with these labels (undefined when there is none). */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const m = families.get(name)?.metrics.find((x) => matches(x.labels, labels));
  return m?.value === undefined ? undefined : Number(m.value);
}

/** A histogram's observation count for the series with these labels (undefined when there is none). */
export function countOf(families: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  if (families.get(name)?.type !== 'HISTOGRAM') return undefined;
  for (const line of families.text.split('\n')) {
    const m = new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (!m) continue;
    const have = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (matches(have, labels)) return Number(m[2]);
  }
  return undefined;
}

/** Whether any series of `name` has a label whose value passes `test` (for checking what a label never holds). */
export function someLabel(families: Scrape, name: string, label: string, test: (value: string) => boolean): boolean {
  return families.text.split('\n').some((line) => {
    if (!line.startsWith(name)) return false;
    const v = new RegExp(`[{,]${label}="([^"]*)"`).exec(line)?.[1];
    return v !== undefined && test(v);
  });
}
