/**
 * What every spike alert says, whatever the platform: the alert turned into cleaned, labelled, still unescaped strings
 * (the alert's counterpart of view.ts). Each platform's formatAlert escapes and fits them, with the same helpers as
 * its review messages. Cited review text is hostile like any review text.
 */
import type { AlertMessageInput, AlertSignal } from '../types';
import { cleanText, countryLabel, safeLink, singleLine, stars, storeName, truncate } from './text';

export type AlertCitation = { stars: string; title: string | null; excerpt: string; byline: string; link: string | null };

export type AlertView = {
  /** '⚠️ Spike in 1–2★ reviews of Lumen Notes in 🇺🇸 United States', '⚠️ Average rating of Lumen Notes dropped', '⚠️ “crashes” rising in 1–2★ reviews of Lumen Notes' */
  title: string;
  appTitle: string;
  storeName: string;
  /** 'the whole app', '🇺🇸 United States', 'version 3.2.0' */
  scope: string;
  /** One line per signal: what and how much. */
  what: string[];
  /** 'Since 24 Nov 2026, 09:14 UTC' */
  since: string;
  /** 'Most of them: 🇺🇸 United States (15), version 3.2.0 (12)', or null. */
  concentration: string | null;
  cited: AlertCitation[];
  inboxUrl: string | null;
  inboxLabel: string;
  /** One line for notifications and previews. */
  summary: string;
  color: number;
};

/** How long a cited review's excerpt may be before the platform's own limits apply. */
export const ALERT_EXCERPT_CHARS = 280;

const percent = (x: number) => `${Math.round(x * 100)} %`;
const rating = (x: number) => `${x.toFixed(1)}★`;
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

const times = (x: number) => `${x >= 10 ? Math.round(x) : x.toFixed(1).replace(/\.0$/, '')}×`;

/** '“crashes” in 10 reviews in the last 24 h, 5× its usual rate' */
function topicLine(s: Extract<AlertSignal, { metric: 'topic' }>): string {
  const usual = s.ratio === null ? `not in the ${s.baselineDays} days before` : `${times(s.ratio)} its usual rate`;
  return `“${singleLine(s.term)}” in ${s.reviews} review${s.reviews === 1 ? '' : 's'} in the last 24 h, ${usual}`;
}

export function signalLine(s: AlertSignal): string {
  if (s.metric === 'topic') return topicLine(s);
  if (s.metric === 'low_share') return `1–2★ reviews: ${s.low} of the last ${s.reviews} (${percent(s.share)}), usually ${percent(s.usualShare)}`;
  return `Average rating: ${rating(s.average)} over the last ${s.reviews} reviews, usually ${rating(s.usualAverage)} (−${(s.usualAverage - s.average).toFixed(1)})`;
}

function scopeLabel(kind: 'app' | 'country' | 'version' | 'topic', value: string): string {
  if (kind === 'country') return countryLabel(value) ?? value.toUpperCase();
  if (kind === 'topic') return `the topic “${singleLine(value)}”`;
  if (kind === 'version') return `version ${singleLine(value)}`;
  return 'the whole app';
}

export function alertView(input: AlertMessageInput): AlertView {
  const appTitle = singleLine(input.app.title) || input.app.appId;
  const metrics = new Set(input.signals.map((s) => s.metric));
  const both = metrics.has('low_share') && metrics.has('rating_drop');
  const topic = input.signals.find((s) => s.metric === 'topic');
  const sentence = input.scope.kind === 'topic' && topic
    ? `“${singleLine(topic.term)}” rising in 1–2★ reviews of ${appTitle}`
    : both
    ? `Spike in 1–2★ reviews of ${appTitle}, and its average rating dropped`
    : metrics.has('low_share')
      ? `Spike in 1–2★ reviews of ${appTitle}`
      : `Average rating of ${appTitle} dropped`;
  const scope = input.scope.kind === 'topic' && topic ? scopeLabel('topic', topic.term) : scopeLabel(input.scope.kind, input.scope.value);
  const where = input.scope.kind === 'app' || input.scope.kind === 'topic' ? '' : ` in ${scope}`;
  const concentration = input.concentration.length
    ? `Most of them: ${input.concentration.map((c) => `${scopeLabel(c.kind, c.value)} (${c.low})`).join(', ')}`
    : null;
  const store = storeName(input.app.store);
  return {
    title: `⚠️ ${sentence}${where}`,
    appTitle,
    storeName: store,
    scope,
    what: input.signals.map(signalLine),
    since: `Since ${dateFormat.format(input.since)} UTC`,
    concentration,
    cited: input.cited.map((r) => ({
      stars: stars(r.rating),
      title: singleLine(r.title) || null,
      excerpt: truncate(singleLine(cleanText(r.body)), ALERT_EXCERPT_CHARS),
      byline: [singleLine(r.author) || 'Anonymous', countryLabel(r.country), r.version ? `version ${singleLine(r.version)}` : null].filter(Boolean).join(' · '),
      link: safeLink(r.link),
    })),
    inboxUrl: safeLink(input.inboxUrl),
    inboxLabel: input.scope.kind === 'topic' ? 'See these reviews in ARB' : 'See the low reviews in ARB',
    summary: `⚠️ ${sentence}${where} (${store})`,
    color: 0xd93025,
  };
}

/**
 * The message with as many cited reviews as fit: `build(n)` makes it with the first n, and the last ones are left out
 * until `fits` says yes (with none, the facts alone always fit).
 */
export function withCited<T>(count: number, build: (n: number) => T, fits: (message: T) => boolean): T {
  let n = count;
  let message = build(n);
  while (n > 0 && !fits(message)) message = build(--n);
  return message;
}
