/**
 * Webex incoming webhooks: `{ "markdown": "…" }`. Webex mentions are written `<@all>` / `<@personEmail:…>`, so `<`
 * (with `&` and `>`) becomes an HTML entity — a backslash would not be enough where the client skips Markdown —
 * Markdown is backslash-escaped and '@' broken. The Messages API caps a message at 7439 bytes; ARB stays under 7000.
 */
import type { AlertMessageInput, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView, withCited } from '../format/alertView';
import { breakMentions, escapeMarkdown, fitRendered, markdownUrl, utf8Length } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { summaryFacts, summaryView } from '../format/summaryView';
import { rejectsOn, type AnswerRules } from '../answers';

export const WEBEX_LIMITS = { markdownBytes: 7_000, title: 300, factValue: 300 } as const;

export type WebexPayload = { markdown: string };

export function escapeWebex(s: string): string {
  return breakMentions(escapeMarkdown(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')));
}
const fit = (raw: string, max: number) => fitRendered(raw, max, escapeWebex);
const fitBytes = (raw: string, maxBytes: number) => fitRendered(raw, maxBytes, escapeWebex, utf8Length);

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const v = reviewView(input);
  const head = [`**${v.stars} ${v.title ? fit(v.title, WEBEX_LIMITS.title) : v.heading}**`];
  const change = v.kind === 'updated' && v.previousStars ? ` · was ${v.previousStars}, now ${v.stars}` : '';
  head.push(`${v.kind === 'updated' ? '✏️ ' : ''}${v.heading} of ${fit(v.appTitle, 200)} on ${v.storeName}${change}`);
  const facts = reviewFacts(v)
    .map(([label, value]) => `**${label}:** ${fit(value, WEBEX_LIMITS.factValue)}`)
    .join('  \n');
  const tail = [facts, v.link ? `[${v.linkLabel}](${markdownUrl(v.link)})` : null].filter(Boolean).join('\n\n');

  const assemble = (body: string, translation: string | null) =>
    [
      head.join('  \n'),
      body || '_No written review, rating only._',
      translation != null ? `**Translation (${escapeWebex(v.translation!.languageName)})**  \n${translation}` : null,
      tail,
    ]
      .filter((part) => part != null)
      .join('\n\n');

  const room = WEBEX_LIMITS.markdownBytes - utf8Length(assemble('', v.translation ? '' : null));
  const translation = v.translation ? fitBytes(v.translation.text, Math.floor(room / 3)) : null;
  const body = v.body ? fitBytes(v.body, room - (translation ? utf8Length(translation) : 0)) : '';
  const payload: WebexPayload = { markdown: assemble(body, translation) };
  return { kind: 'json', body: payload };
}

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  const w = welcomeView(input);
  const lines = [`**👋 ${w.heading}**`, fit(w.text, 2_000)];
  if (w.manageUrl) lines.push(`[Manage this space in ARB](${markdownUrl(w.manageUrl)})`);
  const payload: WebexPayload = { markdown: lines.join('\n\n') };
  return { kind: 'json', body: payload };
}

/** A spike alert: bold title, the facts, each cited review quoted with its link; under the byte cap. */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  const a = alertView(input);
  const cited = a.cited.map(
    (r) => `**${r.stars}${r.title ? ` ${fit(r.title, 100)}` : ''}**  \n${fitBytes(r.excerpt, 1_000)}  \n_${fit(r.byline, 150)}_${r.link ? ` · [Open](${markdownUrl(r.link)})` : ''}`,
  );
  const assemble = (reviews: string[]) =>
    [
      `**${fit(a.title, WEBEX_LIMITS.title)}**`,
      [...a.what, a.since, ...(a.concentration ? [a.concentration] : [])].map((line) => fit(line, 200)).join('  \n'),
      ...reviews,
      a.inboxUrl ? `[${a.inboxLabel}](${markdownUrl(a.inboxUrl)})` : null,
    ]
      .filter((part): part is string => part != null)
      .join('\n\n');
  const markdown = withCited(cited.length, (n) => assemble(cited.slice(0, n)), (m) => utf8Length(m) <= WEBEX_LIMITS.markdownBytes);
  const payload: WebexPayload = { markdown };
  return { kind: 'json', body: payload };
}

/** A weekly summary in Markdown, under the byte cap: the fixed parts have byte budgets, the themes (or quotes) the rest. */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const s = summaryView(input);
  const head = [
    `**${fitBytes(s.title, 400)}**`,
    `_${fitBytes(s.label, 500)}_`,
    s.overview ? fitBytes(s.overview, 1_500) : null,
    `**What changed**  \n${fitBytes(summaryFacts(s).join('\n'), 2_500).replace(/\n/g, '  \n')}`,
    s.items.length ? `**${s.itemsHeading}**` : null,
  ];
  const items = s.items.map((item) =>
    [
      item.heading ? `**${fitBytes(item.heading, 300)}**` : null,
      item.text ? fitBytes(item.text, 800) : null,
      ...item.quotes.map((q) => `${q.stars} “${fitBytes(q.text, 500)}” _${fitBytes(q.why, 150)}_${q.link ? ` · [Open](${markdownUrl(q.link)})` : ''}`),
    ]
      .filter(Boolean)
      .join('  \n'),
  );
  const tail = [s.note ? `_${fitBytes(s.note, 400)}_` : null, s.inboxUrl ? `[${fit(s.inboxLabel, 100)}](${markdownUrl(s.inboxUrl)})` : null];
  const assemble = (n: number) => [...head, ...items.slice(0, n), ...tail].filter((part): part is string => part != null).join('\n\n');
  const payload: WebexPayload = { markdown: withCited(items.length, assemble, (m) => utf8Length(m) <= WEBEX_LIMITS.markdownBytes) };
  return { kind: 'json', body: payload };
}

/** Webex: 423 Locked asks to slow down like a 429; a 400, 413 or 415 is about this message. */
export const answers: AnswerRules = { slowDownStatuses: [423], refusal: rejectsOn('webex', [400, 413, 415]) };
