/**
 * The Approve / Edit / Reject buttons of a draft posted for approval (server/slack/approvalMessages.ts), and the Edit
 * form's submission. Each click and submission checks again, from the database, that the clicker is a Slack user
 * linked to a member of the organisation that owns the channel (server/slack/replier.ts) — a removed member's link is
 * gone — and that the draft is that organisation's; others get a note only they see (with the one-time link to link
 * their account, when that is what is missing).
 *
 *   Approve → answered at once; then the approval (server/replies/ruleReplies.ts claimApproval), the first attempt
 *             through the outbox, and the message replaced through the click's response_url: who approved, the state
 *   Edit    → views.open: a form with the draft in a text box limited to the store's limit (within Slack's 3,000)
 *             submission → the same checks; the text checked (errors inside the form), approved, the form closed, and
 *             the attempt and the message's update follow
 *   Reject  → (Slack asks to confirm) answered at once; then rejected, and the message replaced: who rejected
 * A draft decided meanwhile (in the dashboard, or by another click) replaces the message with what became of it.
 */
import { env } from '../env';
import { HttpError } from '../http/errors';
import { log } from '../log';
import { attemptReply } from '../replies/service';
import { claimApproval, rejectReply } from '../replies/ruleReplies';
import { listedReplyOfOrg, type ListedReply } from '../replies/ruleData';
import { replyById } from '../replies/data';
import type { ReplyStore } from '@/shared/replies';
import { rememberApprovalMessage } from './approvalData';
import { APPROVE_ACTION_ID, EDIT_APPROVAL_ACTION_ID, REJECT_ACTION_ID, decidedMessage, parseApprovalValue } from './approvalMessages';
import type { SlackAnswer, SlackInteractionPayload as Payload } from './payload';
import { LOST_ACCESS, replierFor } from './replier';
import { SLACK_NOTES, slackReplyMax } from './replyView';
import { SlackApiError, isSlackResponseUrl, openView, postToResponseUrl } from './web';

export const APPROVAL_VIEW_CALLBACK_ID = 'arb_approval_form';
export const APPROVAL_BLOCK_ID = 'approval';
export const APPROVAL_INPUT_ID = 'text';

const EMPTY: SlackAnswer = { kind: 'empty' };

const usableUrl = (url: string | undefined): url is string => !!url && isSlackResponseUrl(url, env().ALLOW_PRIVATE_WEBHOOKS);

function ephemeral(responseUrl: string | undefined, text: string): Promise<boolean> {
  if (!usableUrl(responseUrl)) return Promise.resolve(false);
  return postToResponseUrl(responseUrl, { response_type: 'ephemeral', replace_original: false, text });
}

/** Replaces the message with what became of the draft (read again after the decision). */
async function showDecided(responseUrl: string | undefined, orgId: string, replyId: string): Promise<void> {
  if (!usableUrl(responseUrl)) return;
  const r = await listedReplyOfOrg(orgId, replyId);
  if (!r || r.state === 'awaiting_approval') return;
  const ok = await postToResponseUrl(responseUrl, { replace_original: true, ...decidedMessage(r, r.decided_by_label ?? 'someone') });
  if (!ok) log.warn('slack approval message not updated', { reply: replyId });
}

const NOTES = {
  gone: 'This draft is not among your organisation’s replies in ARB any more.',
  refused: (why: string) => `The reply was not approved: ${why}`,
} as const;

export function isApprovalClick(p: Payload): boolean {
  return p.type === 'block_actions' && !p.view && !!p.actions?.some((a) => a.action_id === APPROVE_ACTION_ID || a.action_id === EDIT_APPROVAL_ACTION_ID || a.action_id === REJECT_ACTION_ID);
}

export const isApprovalSubmit = (p: Payload) => p.type === 'view_submission' && p.view?.callback_id === APPROVAL_VIEW_CALLBACK_ID;

export async function onApprovalClick(p: Payload): Promise<SlackAnswer> {
  const action = p.actions!.find((a) => a.action_id === APPROVE_ACTION_ID || a.action_id === EDIT_APPROVAL_ACTION_ID || a.action_id === REJECT_ACTION_ID)!;
  const target = parseApprovalValue(action.value);
  if (!target) {
    log.warn('slack approval click without a usable button value', { team: p.team?.id ?? null });
    return EMPTY;
  }
  const who = await replierFor(target.destinationId, p.team?.id ?? undefined, p.user);
  if ('note' in who) {
    await ephemeral(p.response_url, who.note);
    return EMPTY;
  }
  const orgId = who.destination.orgId;
  const draft = await listedReplyOfOrg(orgId, target.replyId);
  if (!draft) {
    await ephemeral(p.response_url, NOTES.gone);
    return EMPTY;
  }
  if (usableUrl(p.response_url)) {
    const where = p.container?.type === 'message' ? p.container : undefined;
    await rememberApprovalMessage(draft.id, target.destinationId, { channelId: where?.channel_id ?? null, messageTs: where?.message_ts ?? null, responseUrl: p.response_url });
  }
  if (draft.state !== 'awaiting_approval') {
    await showDecided(p.response_url, orgId, draft.id);
    return EMPTY;
  }
  const approver = { orgId, userId: who.member.userId, email: who.member.email };

  if (action.action_id === EDIT_APPROVAL_ACTION_ID) {
    if (!p.trigger_id || !usableUrl(p.response_url)) return EMPTY;
    try {
      await openView(who.destination.botToken, p.trigger_id, approvalForm(draft, { destinationId: target.destinationId, replyId: draft.id, responseUrl: p.response_url }));
    } catch (err) {
      const code = err instanceof SlackApiError ? err.code : 'error';
      log.warn('slack views.open failed for an approval', { destinationId: target.destinationId, code });
      await ephemeral(p.response_url, LOST_ACCESS.includes(code) ? SLACK_NOTES.reinstall : SLACK_NOTES.slackRefused(code));
    }
    return EMPTY;
  }

  // Approve and Reject: Slack gets its answer now; the decision (and the store, for an approval) follows.
  const responseUrl = p.response_url;
  const decide = async () => {
    try {
      if (action.action_id === APPROVE_ACTION_ID) {
        const { row } = await claimApproval(approver, draft.id);
        await attemptReply(row.id);
      } else {
        await rejectReply(approver, draft.id);
      }
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      if (err.code === 'not_awaiting_approval') await showDecided(responseUrl, orgId, draft.id);
      else await ephemeral(responseUrl, NOTES.refused(err.message));
      return;
    }
    await showDecided(responseUrl, orgId, draft.id);
  };
  return { kind: 'empty', after: decide };
}

type FormState = { destinationId: string; replyId: string; responseUrl: string };

function encodeState(s: FormState): string {
  return JSON.stringify({ d: s.destinationId, r: s.replyId, u: s.responseUrl });
}

function decodeState(raw: unknown): FormState | null {
  if (typeof raw !== 'string') return null;
  try {
    const v = JSON.parse(raw) as { d?: unknown; r?: unknown; u?: unknown };
    if (typeof v.d !== 'string' || typeof v.r !== 'string' || typeof v.u !== 'string') return null;
    return { destinationId: v.d, replyId: v.r, responseUrl: v.u };
  } catch {
    return null;
  }
}

/** The Edit form: the review in short, the draft in a text box (the store's limit, within Slack's), "Approve and send". */
export function approvalForm(draft: ListedReply, state: FormState): Record<string, unknown> {
  const max = slackReplyMax(draft.store as ReplyStore);
  const initial = [...draft.text].length <= max ? draft.text : undefined;
  return {
    type: 'modal',
    callback_id: APPROVAL_VIEW_CALLBACK_ID,
    title: { type: 'plain_text', text: 'Edit and approve' },
    submit: { type: 'plain_text', text: 'Approve and send' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: encodeState(state),
    blocks: [
      ...decidedMessage({ ...draft, state: 'awaiting_approval' }, '').blocks.slice(0, 2),
      {
        type: 'input',
        block_id: APPROVAL_BLOCK_ID,
        label: { type: 'plain_text', text: 'The reply (public, under your developer name)' },
        element: { type: 'plain_text_input', action_id: APPROVAL_INPUT_ID, multiline: true, max_length: max, ...(initial ? { initial_value: initial } : {}) },
      },
    ],
  };
}

export async function onApprovalSubmit(p: Payload): Promise<SlackAnswer> {
  const state = decodeState(p.view?.private_metadata);
  const text = p.view?.state?.values?.[APPROVAL_BLOCK_ID]?.[APPROVAL_INPUT_ID]?.value ?? '';
  const errors = (message: string): SlackAnswer => ({ kind: 'form_errors', errors: { [APPROVAL_BLOCK_ID]: message } });
  if (!state || !parseApprovalValue(`${state.destinationId}:${state.replyId}`)) return errors('This form could not be read. Close it and click Edit on the message again.');
  const who = await replierFor(state.destinationId, p.team?.id ?? undefined, p.user);
  if ('note' in who) return errors(who.formNote ?? who.note);
  const orgId = who.destination.orgId;
  try {
    const { row } = await claimApproval({ orgId, userId: who.member.userId, email: who.member.email }, state.replyId, text);
    return {
      kind: 'empty',
      after: async () => {
        await attemptReply(row.id);
        await showDecided(state.responseUrl, orgId, row.id);
      },
    };
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    if (err.code === 'not_awaiting_approval') {
      const now = await replyById(state.replyId);
      if (now?.org_id === orgId) await showDecided(state.responseUrl, orgId, state.replyId);
    }
    return errors(err.message.replace(/^text: /, '').replace(/^./, (c) => c.toUpperCase()));
  }
}
