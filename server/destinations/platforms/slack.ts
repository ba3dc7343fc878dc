/**
 * Slack incoming webhooks, Block Kit: `text` (the notification fallback) + header (plain_text ≤150) · section mrkdwn
 * body (≤3000, verbatim: no auto-linking of review text) · section fields (≤10, each ≤2000) · context with the link.
 * Review text goes through escapeSlack: & < > escaped (kills <!channel>, <@U…>, <url|text>), formatting neutralised.
 */
import type { AlertMessageInput, FormattedMessage, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { alertView } from '../format/alertView';
import { escapeSlack, escapeSlackControl, escapeSlackName, fitRendered, singleLine, truncate } from '../format/text';
import { reviewFacts, reviewView, welcomeView } from '../format/view';
import { summaryFacts, summaryView, type SummaryItem } from '../format/summaryView';
import { rejectsOn, type AnswerRules } from '../answers';

export const SLACK_LIMITS = { header: 150, sectionText: 3000, fields: 10, fieldText: 2000, contextText: 3000, blocks: 50, fallbackText: 3000 } as const;

type TextObject = { type: 'plain_text'; text: string; emoji?: boolean } | { type: 'mrkdwn'; text: string; verbatim?: boolean };
export type SlackBlock =
  | { type: 'header'; text: TextObject }
  | { type: 'section'; text?: TextObject; fields?: TextObject[] }
  | { type: 'context'; elements: TextObject[] }
  | { type: 'actions'; block_id?: string; elements: SlackButton[] }
  | { type: 'divider' };
export type SlackButton = { type: 'button'; text: TextObject; action_id: string; value?: string; url?: string; style?: 'primary' };

/** The Reply button's action id: what server/slack looks for in a click. */
export const REPLY_ACTION_ID = 'arb_reply';
/** A link button still sends its click to the app (Slack wants an answer): its own id, which ARB ignores. */
export const REPLY_LINK_ACTION_ID = 'arb_reply_in_arb';
export type SlackPayload = { text: string; blocks: SlackBlock[]; unfurl_links: false; unfurl_media: false };

const mrkdwn = (text: string): TextObject => ({ type: 'mrkdwn', text, verbatim: true });

/** <url|label> with the URL made safe for Slack's link syntax. */
export function slackLink(url: string, label: string): string {
  return `<${escapeSlackControl(url)}|${escapeSlack(label)}>`;
}

/** Escaped user text that fits in `max` characters after escaping. */
const fit = (raw: string, max: number) => fitRendered(raw, max, escapeSlack);

export function formatReview(input: ReviewMessageInput): FormattedMessage {
  const v = reviewView(input);
  const blocks: SlackBlock[] = [];
  // plain_text is never parsed for mentions or links: no escaping, only the length limit.
  blocks.push({ type: 'header', text: { type: 'plain_text', text: truncate(`${v.stars} ${v.title ?? v.heading}`, SLACK_LIMITS.header), emoji: true } });
  if (v.kind === 'updated') {
    const change = v.previousStars ? ` · was ${v.previousStars}, now ${v.stars}` : '';
    blocks.push({ type: 'context', elements: [mrkdwn(`✏️ *Updated review*${change}`)] });
  }
  blocks.push({ type: 'section', text: mrkdwn(v.body ? fit(v.body, SLACK_LIMITS.sectionText) : '_No written review, rating only._') });
  if (v.translation) {
    const label = `*Translation (${escapeSlack(v.translation.languageName)})*\n`;
    blocks.push({ type: 'section', text: mrkdwn(label + fit(v.translation.text, SLACK_LIMITS.sectionText - label.length)) });
  }
  const fields = reviewFacts(v)
    .slice(0, SLACK_LIMITS.fields)
    // The author's name keeps its underscores (escapeSlackName): "john_doe_99", not a look-alike.
    .map(([label, value]) => mrkdwn(`*${label}*\n${fitRendered(value, SLACK_LIMITS.fieldText - label.length - 3, label === 'Author' ? escapeSlackName : escapeSlack)}`));
  blocks.push({ type: 'section', fields });
  const context = [v.link ? slackLink(v.link, v.linkLabel) : null, escapeSlack(v.heading), escapeSlack(v.storeName)].filter(Boolean);
  blocks.push({ type: 'context', elements: [mrkdwn(context.join(' · '))] });
  if (input.sentReply) {
    const r = input.sentReply;
    const label = `*↩️ Reply by ${escapeSlackName(singleLine(r.by))}* · ${escapeSlack(r.state)}\n`;
    blocks.push({ type: 'section', text: mrkdwn(label + fit(r.text, SLACK_LIMITS.sectionText - label.length)) });
  }
  const action = input.replyAction;
  if (action) {
    const text: TextObject = { type: 'plain_text', text: action.kind === 'link' ? 'Reply in ARB' : input.sentReply ? 'Edit reply' : 'Reply', emoji: true };
    blocks.push({
      type: 'actions',
      elements: [action.kind === 'button' ? { type: 'button', text, action_id: REPLY_ACTION_ID, value: action.value } : { type: 'button', text, action_id: REPLY_LINK_ACTION_ID, url: action.url }],
    });
  }

  const payload: SlackPayload = {
    // Slack scans this fallback for <!channel> too: it gets the same escaping, and stays one short line.
    text: fit(v.summary, 300),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  };
  return { kind: 'json', body: payload };
}

export function formatWelcome(input: WelcomeMessageInput): FormattedMessage {
  const w = welcomeView(input);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(`👋 ${w.heading}`, SLACK_LIMITS.header), emoji: true } },
    { type: 'section', text: mrkdwn(fit(w.text, SLACK_LIMITS.sectionText)) },
  ];
  if (w.manageUrl) blocks.push({ type: 'context', elements: [mrkdwn(slackLink(w.manageUrl, 'Manage this channel in ARB'))] });
  const payload: SlackPayload = { text: fit(w.summary, 300), blocks, unfurl_links: false, unfurl_media: false };
  return { kind: 'json', body: payload };
}

/** A spike alert: header, what and how much, since when, where it concentrates, a few cited reviews with links. */
export function formatAlert(input: AlertMessageInput): FormattedMessage {
  const a = alertView(input);
  const facts = [...a.what, a.since, ...(a.concentration ? [a.concentration] : [])];
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(a.title, SLACK_LIMITS.header), emoji: true } },
    { type: 'section', text: mrkdwn(fit(facts.join('\n'), SLACK_LIMITS.sectionText)) },
  ];
  for (const r of a.cited) {
    const head = `${r.stars}${r.title ? ` *${fit(r.title, 300)}*` : ''}\n`;
    const tail = `\n_${fit(r.byline, 300)}_${r.link ? ` · ${slackLink(r.link, 'Open')}` : ''}`;
    blocks.push({ type: 'section', text: mrkdwn(head + fit(r.excerpt, SLACK_LIMITS.sectionText - head.length - tail.length) + tail) });
  }
  const context = [a.inboxUrl ? slackLink(a.inboxUrl, a.inboxLabel) : null, escapeSlack(a.storeName)].filter(Boolean);
  blocks.push({ type: 'context', elements: [mrkdwn(context.join(' · '))] });
  const payload: SlackPayload = { text: fit(a.summary, 300), blocks, unfurl_links: false, unfurl_media: false };
  return { kind: 'json', body: payload };
}

/** One theme (or representative review) as a section: bounded pieces, so it stays under a section's 3000 characters. */
function summaryItemText(item: SummaryItem): string {
  const lines: string[] = [];
  if (item.heading) lines.push(`*${fit(item.heading, 300)}*`);
  if (item.text) lines.push(fit(item.text, 900));
  for (const q of item.quotes) lines.push(`> ${q.stars} “${fit(q.text, 400)}” _${fit(q.why, 120)}_${q.link ? ` · ${slackLink(q.link, 'Open')}` : ''}`);
  return lines.join('\n');
}

/** A weekly summary: header, how it was made, the overview, what changed, the themes (or quotes) with their links. */
export function formatSummary(input: SummaryMessageInput): FormattedMessage {
  const s = summaryView(input);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(s.title, SLACK_LIMITS.header), emoji: true } },
    { type: 'context', elements: [mrkdwn(`_${fit(s.label, 500)}_`)] },
  ];
  if (s.overview) blocks.push({ type: 'section', text: mrkdwn(fit(s.overview, SLACK_LIMITS.sectionText)) });
  blocks.push({ type: 'section', text: mrkdwn(`*What changed*\n${fit(summaryFacts(s).join('\n'), SLACK_LIMITS.sectionText - 20)}`) });
  if (s.items.length) blocks.push({ type: 'section', text: mrkdwn(`*${s.itemsHeading}*`) });
  for (const item of s.items) blocks.push({ type: 'section', text: mrkdwn(summaryItemText(item)) });
  const context = [s.note ? fit(s.note, 600) : null, s.inboxUrl ? slackLink(s.inboxUrl, s.inboxLabel) : null, escapeSlack(s.storeName)].filter(Boolean);
  blocks.push({ type: 'context', elements: [mrkdwn(context.join(' · '))] });
  const payload: SlackPayload = { text: fit(s.summary, 300), blocks: blocks.slice(0, SLACK_LIMITS.blocks), unfurl_links: false, unfurl_media: false };
  return { kind: 'json', body: payload };
}

/** Slack's only success is 200 "ok"; a 400 (invalid_payload & co.) is about this message (our bug), never the webhook. */
export const answers: AnswerRules = {
  success: (res) => (res.status !== 200 ? { type: 'transient', status: res.status, error: `Slack answered ${res.status} instead of 200.` } : undefined),
  refusal: rejectsOn('slack', [400]),
};
