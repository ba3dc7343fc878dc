/**
 * Mattermost incoming webhooks: one message attachment (fallback, color, author_name, title + title_link, text,
 * fields, footer). Mattermost notifies on @channel/@here/@all/@user and, on incoming webhooks, turns Slack's
 * <url|text> into links in text, pretext and field values (ParseSlackAttachment) — so review text in those
 * Markdown-rendered parts gets `<` and `&` as entities, a zero-width space after every '@', and Markdown escaped.
 * author_name, footer, fallback (and the title when it has a title_link) are shown as plain text: mentions broken only. A post holds at most 16,383 characters: the attachment's text fields together stay under that.
 */
import type { AlertMessageInput, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView, withCited } from '../format/alertView';
import { summaryFacts, summaryView } from '../format/summaryView';
import { breakMentions, breakPlain, escapeMarkdown, fitRendered, markdownUrl } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { gone, rejected, type AnswerRules } from '../answers';

export const MATTERMOST_LIMITS = { postChars: 16_383, title: 500, author: 250, fieldValue: 1_000, fallback: 300 } as const;

export type MattermostAttachment = {
  fallback: string;
  color: string;
  pretext?: string;
  author_name: string;
  title: string;
  title_link?: string;
  text: string;
  fields: Array<{ short: boolean; title: string; value: string }>;
  footer: string;
};
export type MattermostPayload = { text?: string; attachments: MattermostAttachment[] };

/** Markdown-rendered fields: entities for & and < (Slack-style <!channel> translation), escaped Markdown, broken @. */
export function escapeMattermost(s: string): string {
  return breakMentions(escapeMarkdown(s.replace(/&/g, '&amp;').replace(/</g, '&lt;')));
}
/** Plain fields (author, footer, fallback) are not Markdown: only mentions need breaking. */
const plain = (s: string, max: number) => fitRendered(s, max, breakPlain);
const fit = (raw: string, max: number) => fitRendered(raw, max, escapeMattermost);
const hex = (n: number) => `#${n.toString(16).padStart(6, '0')}`;

/** Characters Mattermost counts for the post: every string the attachment displays. */
export function mattermostLength(p: MattermostPayload): number {
  let n = p.text?.length ?? 0;
  for (const a of p.attachments) {
    n += a.fallback.length + (a.pretext?.length ?? 0) + a.author_name.length + a.title.length + a.text.length + a.footer.length;
    for (const f of a.fields) n += f.title.length + f.value.length;
  }
  return n;
}

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const v = reviewView(input);
  const fields = reviewFacts(v)
    .filter(([label]) => label !== 'Author')
    .map(([title, value]) => ({ short: true, title, value: fit(value, MATTERMOST_LIMITS.fieldValue) }));
  if (v.translation) {
    fields.push({ short: false, title: `Translation (${v.translation.languageName})`, value: '' });
  }
  const attachment: MattermostAttachment = {
    fallback: plain(v.summary, MATTERMOST_LIMITS.fallback),
    color: hex(v.color),
    ...(v.kind === 'updated' ? { pretext: v.previousStars ? `✏️ **Updated review** · was ${v.previousStars}, now ${v.stars}` : '✏️ **Updated review**' } : {}),
    author_name: plain(v.author, MATTERMOST_LIMITS.author),
    // With a title_link Mattermost shows the title as plain text (React-escaped); without one it renders Markdown.
    title: `${v.stars} ${v.title ? (v.link ? plain(v.title, MATTERMOST_LIMITS.title) : fit(v.title, MATTERMOST_LIMITS.title)) : v.heading}`,
    ...(v.link ? { title_link: v.link } : {}),
    text: '',
    fields,
    footer: `ARB · ${v.heading} · ${v.storeName}`,
  };
  const payload: MattermostPayload = { attachments: [attachment] };
  // Body and translation share what the rest leaves of the post limit (the translation at most a third).
  const room = MATTERMOST_LIMITS.postChars - mattermostLength(payload) - 64;
  const translationRoom = v.translation ? Math.floor(room / 3) : 0;
  if (v.translation) fields[fields.length - 1].value = fit(v.translation.text, translationRoom);
  const used = v.translation ? fields[fields.length - 1].value.length : 0;
  attachment.text = v.body ? fit(v.body, room - used) : '_No written review, rating only._';
  return { kind: 'json', body: payload };
}

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  const w = welcomeView(input);
  const manage = w.manageUrl ? `\n[Manage this channel in ARB](${markdownUrl(w.manageUrl)})` : '';
  const payload: MattermostPayload = {
    attachments: [
      {
        fallback: plain(w.summary, MATTERMOST_LIMITS.fallback),
        color: '#1f6feb',
        author_name: 'ARB',
        title: `👋 ${w.heading}`,
        text: fit(w.text, 2_000) + manage,
        fields: [],
        footer: 'ARB',
      },
    ],
  };
  return { kind: 'json', body: payload };
}

/** A spike alert: one red attachment; the facts as text, each cited review a field with its link. */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  const a = alertView(input);
  const facts = [...a.what, a.since, ...(a.concentration ? [a.concentration] : [])].map((line) => fit(line, 500)).join('\n');
  const inbox = a.inboxUrl ? `\n[${a.inboxLabel}](${markdownUrl(a.inboxUrl)})` : '';
  const payload: MattermostPayload = {
    attachments: [
      {
        fallback: plain(a.summary, MATTERMOST_LIMITS.fallback),
        color: hex(a.color),
        author_name: 'ARB',
        title: fit(a.title, MATTERMOST_LIMITS.title),
        text: facts + inbox,
        fields: a.cited.map((r) => ({
          short: false,
          title: plain(`${r.stars} ${r.title ?? r.byline}`, MATTERMOST_LIMITS.title),
          value: `${fit(`${r.excerpt}\n— ${r.byline}`, MATTERMOST_LIMITS.fieldValue)}${r.link ? `\n[Open](${markdownUrl(r.link)})` : ''}`,
        })),
        footer: `ARB · spike alert · ${a.storeName}`,
      },
    ],
  };
  return { kind: 'json', body: payload };
}

/** A weekly summary: one attachment; how it was made, overview and what changed as text, each theme (or quote) a field. */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const s = summaryView(input);
  const text = [`_${fit(s.label, 500)}_`, s.overview ? fit(s.overview, 2_000) : null, `**What changed**\n${summaryFacts(s).map((l) => fit(l, 500)).join('\n')}`, s.inboxUrl ? `[${s.inboxLabel}](${markdownUrl(s.inboxUrl)})` : null]
    .filter(Boolean)
    .join('\n\n');
  const fields = s.items.map((item) => ({
    short: false,
    title: plain(item.heading ?? s.itemsHeading, MATTERMOST_LIMITS.title),
    value: [
      item.text ? fit(item.text, MATTERMOST_LIMITS.fieldValue) : null,
      ...item.quotes.map((q) => `${q.stars} “${fit(q.text, 600)}” _${fit(q.why, 150)}_${q.link ? ` [Open](${markdownUrl(q.link)})` : ''}`),
    ]
      .filter(Boolean)
      .join('\n'),
  }));
  const payloadWith = (n: number): MattermostPayload => ({
    attachments: [
      {
        fallback: plain(s.summary, MATTERMOST_LIMITS.fallback),
        color: hex(s.color),
        author_name: 'ARB',
        title: fit(s.title, MATTERMOST_LIMITS.title),
        text,
        fields: fields.slice(0, n),
        footer: plain(`ARB · weekly summary · ${s.storeName}${s.note ? ` · ${s.note}` : ''}`, 1_000),
      },
    ],
  });
  const payload = withCited(fields.length, payloadWith, (p) => mattermostLength(p) <= MATTERMOST_LIMITS.postChars);
  return { kind: 'json', body: payload };
}

/** A Mattermost 400 names an unknown or disabled incoming webhook (gone) or a message it would not take. */
export const answers: AnswerRules = {
  refusal: (status, body, json) => {
    if (status !== 400) return undefined;
    const id = typeof json?.id === 'string' ? json.id : body;
    if (/incoming_webhook\.(invalid|disabled)|invalid_webhook|webhook\.invalid/i.test(id)) {
      return gone('mattermost', status, body, 'the incoming webhook is unknown or disabled on that Mattermost server');
    }
    return rejected('mattermost', status, body);
  },
};
