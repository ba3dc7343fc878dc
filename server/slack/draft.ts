/**
 * "Draft a reply" inside the Slack reply form: the language model writes a draft (server/ai/drafts.ts: the app's tone,
 * the review's language, the store's limit, the organisation's token budget; plan feature `replies`) and the form is
 * updated with it as the reply input's value. The person reads it, edits it and sends it — nothing is sent here.
 *
 *   click (block_actions from the form)  → acknowledged at once (Slack wants an answer within 3 s; a model takes longer)
 *   then                                 → the same membership check as a Reply click → views.update "Drafting…"
 *                                          → the draft → views.update: the input under a new block id with the draft
 *                                            as its initial value (Slack keeps a typed value while the block id stays)
 *   refusals (plan, budget, no model, the model failing) → the form again, the typed text kept, with the reason in words
 *
 * Every views.update carries the hash of the view it replaces, so a form that changed meanwhile (another draft, a
 * newer update) is left alone (hash_conflict), and a closed one (not_found) is simply not updated.
 */
import { log } from '../log';
import { aiHttpError } from '../ai/endpoints';
import { orgReview } from '../ai/data';
import { draftReply, fitToLimit, toneOf } from '../ai/drafts';
import { llmConfig } from '../ai/llm/config';
import { HttpError } from '../http/errors';
import { assertFeature } from '../plans/features';
import { replyOf } from '../replies/data';
import { languageName, REPLY_TONE_LABELS } from '@/shared/ai';
import { replyLength, type ReplyStore } from '@/shared/replies';
import { reviewForSlack } from './data';
import type { SlackAnswer, SlackInteractionPayload, SlackView } from './payload';
import { replierFor } from './replier';
import { DRAFT_WORDS, decodeFormState, draftInputBlockId, readReplyInput, replyForm, slackReplyMax, type DraftUi, type ReplyFormState, type ReplyInput } from './replyView';
import { SlackApiError, updateView } from './web';

/** Acknowledges the click now; the draft follows (see `draftIntoForm`). */
export function onDraftClick(p: SlackInteractionPayload): SlackAnswer {
  const view = p.view;
  const state = decodeFormState(view?.private_metadata);
  if (!view?.id || !state) {
    log.warn('slack draft click without a usable form', { team: p.team?.id ?? null });
    return { kind: 'empty' };
  }
  return { kind: 'empty', after: () => draftIntoForm(p, view as SlackView & { id: string }, state) };
}

/** Why a draft could not be written, in words for the form. */
function refusalWords(err: unknown, context: Record<string, unknown>): string {
  const e = aiHttpError(err, context);
  if (e instanceof HttpError) return e.message;
  log.error('slack draft failed', { ...context, err: (err as Error).message });
  return 'something went wrong on the ARB server. Try again, or write the reply yourself.';
}

async function draftIntoForm(p: SlackInteractionPayload, view: SlackView & { id: string }, state: ReplyFormState): Promise<void> {
  const context = { destinationId: state.destinationId, reviewId: state.reviewId };
  const who = await replierFor(state.destinationId, p.team?.id ?? undefined, p.user);
  if ('note' in who) {
    log.info('slack draft click refused', { ...context, note: who.note.slice(0, 60) });
    return;
  }
  const { orgId, botToken } = who.destination;
  const review = await reviewForSlack(orgId, state.reviewId);
  const forModel = review && (await orgReview(orgId, review.id));
  if (!review || !forModel) return;
  const current = await replyOf(orgId, review.id);
  const sent = current && current.state !== 'failed' ? current.text : null;
  // What the person typed stays: same block id (Slack keeps the entry), and the same text as its initial value.
  const typed = readReplyInput(view);
  const keep: ReplyInput = { blockId: typed.blockId, initial: typed.text || undefined };

  let hash = view.hash;
  /** Replaces the form; false when it is closed or changed meanwhile (nothing more to do). */
  const show = async (draft: DraftUi, input: ReplyInput): Promise<boolean> => {
    try {
      hash = (await updateView(botToken, view.id, hash, replyForm(review, state, sent, { draft, input }))).hash;
      return true;
    } catch (err) {
      const code = err instanceof SlackApiError ? err.code : 'error';
      log[code === 'hash_conflict' || code === 'not_found' ? 'info' : 'warn']('slack reply form not updated with a draft', { ...context, code });
      return false;
    }
  };
  const refuse = (words: string) => show({ kind: 'ready', note: DRAFT_WORDS.failed(words) }, keep);

  if (!llmConfig()) {
    await show({ kind: 'unavailable' }, keep);
    return;
  }
  try {
    await assertFeature(orgId, 'replies');
  } catch (err) {
    await refuse(refusalWords(err, context));
    return;
  }
  if (!(await show({ kind: 'working' }, keep))) return;
  try {
    const draft = await draftReply(orgId, forModel, toneOf(forModel));
    // Slack's input takes 3,000 characters: an App Store draft longer than that is cut to fit it.
    const max = slackReplyMax(review.store as ReplyStore);
    const text = replyLength(draft.text) > max ? fitToLimit(draft.text, max) : draft.text;
    await show(
      { kind: 'ready', label: DRAFT_WORDS.again, note: DRAFT_WORDS.drafted(languageName(draft.language), REPLY_TONE_LABELS[draft.tone], draft.trimmed || text !== draft.text) },
      { blockId: draftInputBlockId(), initial: text },
    );
  } catch (err) {
    await refuse(refusalWords(err, context));
  }
}
