/**
 * Replying from Slack. A review message in a channel added with "Add to Slack" carries a Reply button
 * (server/destinations/platforms/slack.ts); Slack sends its click here, and then the form's submission:
 *
 *   click (block_actions, arb_reply)   → is the clicker a Slack user linked to a member of the destination's ARB
 *                                        organisation? (server/slack/links.ts) → views.open: the form, with the
 *                                        store's limit; otherwise a note only they see, with a one-time link to link
 *                                        their Slack account (and where the message is, to update it when the reply
 *                                        is published: server/slack/published.ts)
 *   "Draft a reply" (block_actions from the form) → acknowledged at once; the draft follows (server/slack/draft.ts)
 *   submission (view_submission)       → the same check again, then the reply goes out through the replies service
 *                                        (the store API, its retries and states); refusals come back inside the form;
 *                                        the message is updated to show the reply and who sent it
 *
 * Slack wants an answer within 3 seconds: a store that is slow to take the reply gets the form closed anyway, and the
 * message update follows when the reply's first attempt ends.
 */
import { env } from '../env';
import { HttpError } from '../http/errors';
import { log } from '../log';
import { llmConfig } from '../ai/llm/config';
import { replyOf, type ReplyRow } from '../replies/data';
import { sendReply } from '../replies/service';
import { REPLY_ACTION_ID } from '../destinations/platforms/slack';
import { REPLY_MAX_CHARS, replyLength, STORE_NAMES, type ReplyStore } from '@/shared/replies';
import { markPublishedShown, rememberReplyMessage, reviewForSlack } from './data';
import { learnDestinationChannel } from './askData';
import { onDraftClick } from './draft';
import { isApprovalClick, isApprovalSubmit, onApprovalClick, onApprovalSubmit } from './approvalInteractions';
import { LOST_ACCESS, replierFor } from './replier';
import type { SlackAnswer, SlackInteractionPayload as Payload } from './payload';
import { replyMessageBody } from './replyMessage';
import { DRAFT_ACTION_ID, REPLY_VIEW_CALLBACK_ID, SLACK_NOTES, decodeFormState, readReplyInput, replyForm, slackReplyMax } from './replyView';
import { SlackApiError, isSlackResponseUrl, openView, postToResponseUrl } from './web';

/** How long a submission waits for the store before the form closes and the message update follows later. */
const SUBMIT_WAIT_MS = 2_000;

const EMPTY: SlackAnswer = { kind: 'empty' };

function ephemeral(responseUrl: string | undefined, text: string): Promise<boolean> {
  if (!responseUrl || !isSlackResponseUrl(responseUrl, env().ALLOW_PRIVATE_WEBHOOKS)) return Promise.resolve(false);
  return postToResponseUrl(responseUrl, { response_type: 'ephemeral', replace_original: false, text });
}

/** `dst_…:<review id>`, as the Reply button's value carries it. */
function parseButtonValue(value: string | undefined): { destinationId: string; reviewId: string } | null {
  const m = /^(dst_[0-9A-Za-z]{24}):(\d{1,19})$/.exec(value ?? '');
  return m ? { destinationId: m[1], reviewId: m[2] } : null;
}

async function onReplyClick(p: Payload): Promise<SlackAnswer> {
  const action = p.actions?.find((a) => a.action_id === REPLY_ACTION_ID);
  const target = parseButtonValue(action?.value);
  if (!target || !p.trigger_id) {
    log.warn('slack reply click without a usable button value', { team: p.team?.id ?? null });
    return EMPTY;
  }
  const who = await replierFor(target.destinationId, p.team?.id ?? undefined, p.user);
  if ('note' in who) {
    await ephemeral(p.response_url, who.note);
    return EMPTY;
  }
  const review = await reviewForSlack(who.destination.orgId, target.reviewId);
  if (!review) {
    await ephemeral(p.response_url, SLACK_NOTES.reviewGone);
    return EMPTY;
  }
  if (!p.response_url || !isSlackResponseUrl(p.response_url, env().ALLOW_PRIVATE_WEBHOOKS)) {
    log.warn('slack reply click with an unexpected response_url', { destinationId: target.destinationId });
    return EMPTY;
  }
  const current = await replyOf(who.destination.orgId, review.id);
  const form = replyForm(review, { destinationId: target.destinationId, reviewId: review.id, responseUrl: p.response_url }, current && current.state !== 'failed' ? current.text : null, {
    draft: llmConfig() ? { kind: 'ready' } : { kind: 'unavailable' },
  });
  try {
    await openView(who.destination.botToken, p.trigger_id, form);
  } catch (err) {
    const code = err instanceof SlackApiError ? err.code : 'error';
    log.warn('slack views.open failed', { destinationId: target.destinationId, code });
    await ephemeral(p.response_url, LOST_ACCESS.includes(code) ? SLACK_NOTES.reinstall : SLACK_NOTES.slackRefused(code));
    return EMPTY;
  }
  // Where the message is, so it can be updated when a reply to the review is published (its response_url expires).
  const where = p.container?.type === 'message' ? p.container : undefined;
  if (where?.channel_id && where.message_ts) await rememberReplyMessage(target.destinationId, review.id, where.channel_id, where.message_ts, p.response_url);
  // …and which channel the destination is, for installs made before ARB kept it (asking ARB there: askScope.ts).
  if (where?.channel_id) await learnDestinationChannel(target.destinationId, who.destination.teamId!, where.channel_id);
  return EMPTY;
}

/** The Slack message again, through the click's response_url, now showing the reply and who sent it. */
async function showReplyInMessage(responseUrl: string, destinationId: string, reviewId: string, reply: ReplyRow, by: string): Promise<void> {
  const body = await replyMessageBody(destinationId, reviewId, reply, by);
  if (!body) return;
  const ok = await postToResponseUrl(responseUrl, { replace_original: true, ...body });
  if (!ok) log.warn('slack message not updated after a reply', { destinationId, reviewId });
  else if (reply.state === 'published' && reply.published_at) await markPublishedShown(destinationId, reviewId, reply.published_at);
}

async function onReplySubmit(p: Payload): Promise<SlackAnswer> {
  // A draft puts the input under a new block id: the text is read, and errors shown, wherever it is now.
  const { blockId: inputBlock, text } = readReplyInput(p.view);
  const state = decodeFormState(p.view?.private_metadata);
  if (!state) return { kind: 'form_errors', errors: { [inputBlock]: 'This form could not be read. Close it and click Reply on the message again.' } };
  const who = await replierFor(state.destinationId, p.team?.id ?? undefined, p.user);
  if ('note' in who) return { kind: 'form_errors', errors: { [inputBlock]: who.formNote ?? who.note } };
  const review = await reviewForSlack(who.destination.orgId, state.reviewId);
  if (!review) return { kind: 'form_errors', errors: { [inputBlock]: SLACK_NOTES.reviewGone } };
  const store = review.store as ReplyStore;
  const n = replyLength(text);
  if (n === 0) return { kind: 'form_errors', errors: { [inputBlock]: 'Write the reply first: it cannot be empty.' } };
  if (n > slackReplyMax(store)) {
    return { kind: 'form_errors', errors: { [inputBlock]: `${STORE_NAMES[store]} replies can be ${REPLY_MAX_CHARS[store].toLocaleString('en-US')} characters at most; this one has ${n.toLocaleString('en-US')}.` } };
  }
  const by = who.member.name ?? who.member.email;
  const sending = sendReply({ orgId: who.destination.orgId, userId: who.member.userId, label: `${who.member.email} (from Slack)`, audit: { userId: who.member.userId, email: who.member.email } }, review.id, text);
  const showWhenDone = (row: ReplyRow) => showReplyInMessage(state.responseUrl, state.destinationId, review.id, row, by);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    sending.then(
      (row) => ({ row }),
      (err: unknown) => ({ err }),
    ),
    new Promise<null>((r) => (timer = setTimeout(() => r(null), SUBMIT_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (settled === null) {
    // The store is slow: the form closes now, the message shows the reply once its first attempt ends.
    sending.then(showWhenDone, (err: unknown) => log.warn('slack reply failed after the form closed', { reviewId: review.id, err: (err as Error).message }));
    return EMPTY;
  }
  if ('err' in settled) {
    if (settled.err instanceof HttpError) return { kind: 'form_errors', errors: { [inputBlock]: settled.err.message.replace(/^text: /, '') } };
    throw settled.err;
  }
  if (settled.row.state === 'failed') return { kind: 'form_errors', errors: { [inputBlock]: settled.row.failure ?? 'The store refused the reply.' } };
  await showWhenDone(settled.row);
  return EMPTY;
}

/** One verified interaction payload → what to answer Slack. Anything ARB did not ask for is acknowledged and ignored. */
export async function handleInteraction(payload: Payload): Promise<SlackAnswer> {
  // A rule's draft posted for approval: Approve / Edit / Reject, and the Edit form (server/slack/approvalInteractions.ts).
  if (isApprovalClick(payload)) return onApprovalClick(payload);
  if (isApprovalSubmit(payload)) return onApprovalSubmit(payload);
  if (payload.type === 'block_actions' && payload.actions?.some((a) => a.action_id === REPLY_ACTION_ID)) return onReplyClick(payload);
  if (payload.type === 'block_actions' && payload.view?.callback_id === REPLY_VIEW_CALLBACK_ID && payload.actions?.some((a) => a.action_id === DRAFT_ACTION_ID)) {
    return onDraftClick(payload);
  }
  if (payload.type === 'view_submission' && payload.view?.callback_id === REPLY_VIEW_CALLBACK_ID) return onReplySubmit(payload);
  return EMPTY;
}
