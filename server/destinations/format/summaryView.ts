/**
 * What every weekly summary says, whatever the platform: the summary turned into cleaned, labelled, still unescaped
 * strings (the summary's counterpart of view.ts and alertView.ts). Each platform's formatSummary escapes and fits
 * them. The label says how it was made (a language model, or no model at all), so a reader never mistakes one for the
 * other. The model's words are as hostile as review text: they are cleaned here and escaped by each platform.
 */
import type { SummaryMessageInput, SummaryQuote } from '../types';
import { cleanText, safeLink, singleLine, stars, storeName, truncate } from './text';

export type SummaryQuoteView = { stars: string; text: string; why: string; link: string | null };

/** A theme (with a model) or a representative quote (without): what is dropped, last first, when a platform's limit is near. */
export type SummaryItem = { heading: string | null; text: string | null; quotes: SummaryQuoteView[] };

export type SummaryView = {
  /** '📊 Weekly summary of Lumen Notes, 17–23 Nov 2026' */
  title: string;
  appTitle: string;
  storeName: string;
  /** 'AI summary: …' or 'Extractive summary: …' — how it was made, in one sentence. */
  label: string;
  overview: string | null;
  /** 'Themes' or 'Representative reviews'. */
  itemsHeading: string;
  items: SummaryItem[];
  /** The model's words on the change, when it wrote any. */
  changes: string | null;
  /** The server's figures: counts, rating change, terms rising and falling, versions. */
  figures: string[];
  note: string | null;
  inboxUrl: string | null;
  inboxLabel: string;
  /** One line for notifications and previews. */
  summary: string;
  color: number;
};

/** How long one quote, one theme's text, the overview may be before the platform's own limits apply. */
export const SUMMARY_LIMITS = { quote: 280, themeText: 600, overview: 1_200, changes: 600, figure: 400, heading: 200 } as const;

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** '17–23 Nov 2026', '28 Dec 2026 – 3 Jan 2027' */
export function weekLabel(from: string, to: string): string {
  const a = new Date(`${from}T00:00:00Z`);
  const b = new Date(`${to}T00:00:00Z`);
  if (a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth()) return `${a.getUTCDate()}–${dayFormat.format(b)}`;
  return `${dayFormat.format(a)} – ${dayFormat.format(b)}`;
}

const quoteView = (q: SummaryQuote): SummaryQuoteView => ({
  stars: stars(q.rating),
  text: truncate(singleLine(cleanText(q.text)), SUMMARY_LIMITS.quote),
  why: truncate(singleLine(q.why), SUMMARY_LIMITS.heading),
  link: safeLink(q.link),
});

const paragraph = (s: string | null, max: number) => {
  const text = truncate(cleanText(s), max);
  return text || null;
};

export function summaryView(input: SummaryMessageInput): SummaryView {
  const appTitle = singleLine(input.app.title) || input.app.appId;
  const week = weekLabel(input.from, input.to);
  const store = storeName(input.app.store);
  const llm = input.method === 'llm';
  const label = llm
    ? `AI summary: themes written by a language model from ${input.read ?? 0} of the week’s reviews, each citing reviews ARB checked; the figures are counted from all of them.`
    : 'Extractive summary: counts, terms and quotes taken from the reviews; no language model.';
  const items: SummaryItem[] = llm
    ? input.themes.map((t) => ({
        heading: truncate(`${singleLine(t.title)} (${t.reviews} of ${input.read ?? 0} reviews read)`, SUMMARY_LIMITS.heading),
        text: paragraph(t.summary, SUMMARY_LIMITS.themeText),
        quotes: t.quotes.map(quoteView),
      }))
    : input.quotes.map((q) => ({ heading: null, text: null, quotes: [quoteView(q)] }));
  return {
    title: `📊 Weekly summary of ${appTitle}, ${week}`,
    appTitle,
    storeName: store,
    label,
    overview: paragraph(input.overview, SUMMARY_LIMITS.overview),
    itemsHeading: llm ? 'Themes' : 'Representative reviews',
    items,
    changes: paragraph(input.changes, SUMMARY_LIMITS.changes),
    figures: input.figureLines.map((l) => truncate(singleLine(l), SUMMARY_LIMITS.figure)),
    note: paragraph(input.note, SUMMARY_LIMITS.changes),
    inboxUrl: safeLink(input.inboxUrl),
    inboxLabel: 'Read the week’s reviews in ARB',
    summary: `📊 Weekly summary of ${appTitle}, ${week} (${store}, ${llm ? 'AI summary' : 'extractive summary'})`,
    color: 0x1f6feb,
  };
}

/** The parts every text-like platform shows, in order, as plain lines (before the items). */
export function summaryFacts(v: SummaryView): string[] {
  return [...v.figures, ...(v.changes ? [`Since the week before: ${v.changes}`] : [])];
}
