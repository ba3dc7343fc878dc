/**
 * A rule's draft posted to a Slack channel for approval: the review, the draft and the rule that wrote it, with
 * Approve / Edit / Reject buttons (their clicks: server/slack/approvalInteractions.ts). Posted through the channel's
 * incoming webhook (the one "Add to Slack" made: its messages are the app's, so their buttons reach ARB), as an outbox:
 * queued in the rule's transaction (reply_approval_messages), posted right after it commits and by the job
 * `slack-approval-messages` when that failed (30 s, doubling, 5 tries; a refusal for good — the webhook gone — at
 * once). A draft decided meanwhile is not posted. Pure builders plus the posting.
 */
import { defaultWebhookSender } from '../destinations/send';
import { escapeSlack, fitRendered, singleLine, stars } from '../destinations/format/text';
import { env } from '../env';
import { log } from '../log';
import type { DB } from '../db/client';
import type { Transaction } from 'kysely';
import type { Database } from '../db/types';
import { REPLY_STATE_WORDS, STORE_NAMES, type ReplyStateName, type ReplyStore } from '@/shared/replies';
import { listedReplyOfOrg, type ListedReply } from '../replies/ruleData';
import { claimApprovalMessage, dueApprovalMessages, finishApprovalMessage, insertApprovalMessage } from './approvalData';

export const APPROVE_ACTION_ID = 'arb_approve_reply';
export const EDIT_APPROVAL_ACTION_ID = 'arb_edit_approval';
export const REJECT_ACTION_ID = 'arb_reject_reply';
export const APPROVAL_ACTIONS = [APPROVE_ACTION_ID, EDIT_APPROVAL_ACTION_ID, REJECT_ACTION_ID] as const;

const MAX_TRIES = 5;
/** How long one posting attempt holds the message (the webhook's 10 s timeout, with room). */
const HOLD_SECONDS = 60;

/** The buttons' value: `dst_…:rpl_…`. */
export const approvalValue = (destinationId: string, replyId: string) => `${destinationId}:${replyId}`;

export function parseApprovalValue(value: string | undefined): { destinationId: string; replyId: string } | null {
  const m = /^(dst_[0-9A-Za-z]{24}):(rpl_[0-9A-Za-z]{24})$/.exec(value ?? '');
  return m ? { destinationId: m[1], replyId: m[2] } : null;
}

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });
const quote = (text: string, max: number) =>
  fitRendered(text || ' ', max, escapeSlack)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

function reviewBlocks(r: ListedReply): unknown[] {
  const title = singleLine(r.review_title);
  return [
    { type: 'section', text: mrkdwn(`*${stars(r.rating)}${title ? ` ${escapeSlack(title)}` : ''}*\n${quote(r.review_body || 'No written review, rating only.', 1200)}`) },
    { type: 'context', elements: [mrkdwn(`${escapeSlack(singleLine(r.author_name) || 'Anonymous')} · ${escapeSlack(singleLine(r.app_title))} · ${STORE_NAMES[r.store as ReplyStore]}`)] },
  ];
}

const ruleWords = (r: ListedReply) => `rule “${escapeSlack(singleLine(r.rule_name) || 'a rule')}”`;

/** The message asking for approval: the review, the draft, and the three buttons. */
export function approvalMessage(r: ListedReply, destinationId: string): { text: string; blocks: unknown[] } {
  const value = approvalValue(destinationId, r.id);
  const inbox = `${env().APP_URL}/dashboard/replies`;
  return {
    text: fitRendered(`Reply awaiting approval: ${singleLine(r.app_title)} ${stars(r.rating)}`, 300, escapeSlack),
    blocks: [
      { type: 'header', text: { type: 'plain_text', emoji: true, text: 'A reply awaits your approval' } },
      ...reviewBlocks(r),
      { type: 'section', text: mrkdwn(`*Draft by ${ruleWords(r)}${r.drafted_by === 'model' ? ' (written by the language model from its template)' : ''}:*\n${quote(r.text, 2500)}`) },
      {
        type: 'actions',
        block_id: 'arb_approval',
        elements: [
          { type: 'button', style: 'primary', action_id: APPROVE_ACTION_ID, value, text: { type: 'plain_text', text: 'Approve' } },
          { type: 'button', action_id: EDIT_APPROVAL_ACTION_ID, value, text: { type: 'plain_text', text: 'Edit' } },
          {
            type: 'button',
            style: 'danger',
            action_id: REJECT_ACTION_ID,
            value,
            text: { type: 'plain_text', text: 'Reject' },
            confirm: {
              title: { type: 'plain_text', text: 'Reject this reply?' },
              text: { type: 'plain_text', text: 'It is not sent, and the rule will not draft another one for this review.' },
              confirm: { type: 'plain_text', text: 'Reject' },
              deny: { type: 'plain_text', text: 'Keep it' },
            },
          },
        ],
      },
      { type: 'context', elements: [mrkdwn(`Only members of the organisation linked to their ARB account can decide. <${inbox}|Replies awaiting approval in ARB>`)] },
    ],
  };
}

/** The message once decided: the review, the reply (or the draft), what became of it and who decided; no buttons. */
export function decidedMessage(r: Pick<ListedReply, 'rating' | 'review_title' | 'review_body' | 'author_name' | 'app_title' | 'store' | 'rule_name' | 'text' | 'failure'> & { state: ReplyStateName }, by: string): { text: string; blocks: unknown[] } {
  const rejected = r.state === 'rejected';
  const state = r.state === 'failed' && r.failure ? `${REPLY_STATE_WORDS.failed}: ${r.failure}` : REPLY_STATE_WORDS[r.state];
  const head = rejected ? `*Rejected by ${escapeSlack(by)}* — not sent.` : `*Approved by ${escapeSlack(by)}* · ${escapeSlack(state)}`;
  return {
    text: fitRendered(`${rejected ? 'Reply rejected' : 'Reply approved'}: ${singleLine(r.app_title)} ${stars(r.rating)}`, 300, escapeSlack),
    blocks: [
      ...reviewBlocks(r as ListedReply),
      { type: 'section', text: mrkdwn(`${head}\n${quote(r.text, 2500)}`) },
      { type: 'context', elements: [mrkdwn(`Drafted by ${ruleWords(r as ListedReply)}.`)] },
    ],
  };
}

/** Queues the draft's Slack message in the rule's transaction; false (logged) when the destination cannot take it. */
export async function queueApprovalMessage(replyId: string, destinationId: string, orgId: string, db?: DB | Transaction<Database>): Promise<boolean> {
  const queued = await insertApprovalMessage(replyId, destinationId, orgId, db);
  if (!queued) log.warn('approval destination is not a Slack channel added with "Add to Slack" of this organisation: draft not posted', { reply: replyId, destinationId });
  return queued;
}

/** One attempt at posting the draft's message; true when posted. */
export async function postApprovalMessage(replyId: string): Promise<boolean> {
  const m = await claimApprovalMessage(replyId, HOLD_SECONDS);
  if (!m) return false;
  const reply = await listedReplyOfOrg(m.orgId, m.replyId);
  if (!reply || reply.state !== 'awaiting_approval') {
    await finishApprovalMessage(m.replyId, { state: 'failed', error: 'decided before it was posted' });
    return false;
  }
  const sent = await defaultWebhookSender().postJson(m.webhookUrl, { ...approvalMessage(reply, m.destinationId), unfurl_links: false, unfurl_media: false });
  if (sent.ok) {
    await finishApprovalMessage(m.replyId, { state: 'posted' });
    return true;
  }
  const error = sent.error ?? `Slack answered ${sent.status}`;
  const forGood = sent.status === 404 || sent.status === 410 || sent.status === 403 || sent.failure === 'blocked_address' || sent.failure === 'redirect';
  if (forGood || m.attempts >= MAX_TRIES) {
    log.warn('slack approval message given up', { reply: m.replyId, destinationId: m.destinationId, status: sent.status });
    await finishApprovalMessage(m.replyId, { state: 'failed', error });
  } else {
    await finishApprovalMessage(m.replyId, { state: 'retry', error, afterSeconds: sent.retryAfter ?? 30 * 2 ** (m.attempts - 1) });
  }
  return false;
}

/** The job's run: every message due (not posted yet, its wait over). */
export async function postDueApprovalMessages(limit = 50): Promise<number> {
  let posted = 0;
  for (const id of await dueApprovalMessages(limit)) if (await postApprovalMessage(id)) posted++;
  return posted;
}
