/**
 * What ARB shows in Slack around a reply: the Reply form (a modal) and the notes only the clicker sees. Pure.
 * Slack's limits: a modal title ≤ 24 characters, private_metadata ≤ 3,000, a plain_text_input's max_length ≤ 3,000.
 */
import { escapeSlack, fitRendered, singleLine, stars } from '../destinations/format/text';
import { REPLY_MAX_CHARS, STORE_NAMES, type ReplyStore } from '@/shared/replies';

export const REPLY_VIEW_CALLBACK_ID = 'arb_reply_form';
/** The reply input's first block id; a draft puts the input under a new one (see `draftInputBlockId`). */
export const REPLY_BLOCK_ID = 'reply';
export const REPLY_INPUT_ID = 'text';
/** The form's "Draft a reply" button, and the block that holds it with its note. */
export const DRAFT_ACTION_ID = 'arb_draft_reply';
export const DRAFT_BLOCK_ID = 'arb_draft';
/** Slack's ceiling for a text input. */
export const SLACK_INPUT_MAX = 3000;

/** What the form carries from the click to the submission (Slack hands it back untouched, signed with the request). */
export type ReplyFormState = { destinationId: string; reviewId: string; responseUrl: string };

export function encodeFormState(s: ReplyFormState): string {
  return JSON.stringify({ d: s.destinationId, r: s.reviewId, u: s.responseUrl });
}

export function decodeFormState(raw: unknown): ReplyFormState | null {
  if (typeof raw !== 'string') return null;
  try {
    const v = JSON.parse(raw) as { d?: unknown; r?: unknown; u?: unknown };
    if (typeof v.d !== 'string' || typeof v.r !== 'string' || typeof v.u !== 'string') return null;
    return { destinationId: v.d, reviewId: v.r, responseUrl: v.u };
  } catch {
    return null;
  }
}

/** The most a reply typed in Slack may have: the store's limit, within Slack's own. */
export const slackReplyMax = (store: ReplyStore) => Math.min(REPLY_MAX_CHARS[store], SLACK_INPUT_MAX);

function limitHint(store: ReplyStore): string {
  const max = REPLY_MAX_CHARS[store];
  const words = `${STORE_NAMES[store]} replies can be ${max.toLocaleString('en-US')} characters at most.`;
  return max > SLACK_INPUT_MAX
    ? `${words} Slack's form takes ${SLACK_INPUT_MAX.toLocaleString('en-US')}: write longer replies in ARB's inbox. The reply is public, under your developer name.`
    : `${words} The reply is public, under your developer name.`;
}

export type ReplyFormReview = { store: ReplyStore; appTitle: string; authorName: string; rating: number; title: string | null; body: string };

/**
 * The "Draft a reply" part of the form: absent; one line saying what to configure (no language model); the button,
 * with a note under it (the last draft's words, or why drafting failed); or "Drafting…" while the model writes.
 */
export type DraftUi = { kind: 'none' } | { kind: 'unavailable' } | { kind: 'ready'; label?: string; note?: string } | { kind: 'working' };

/**
 * Which block holds the reply input, and what it starts with. Slack keeps what the person typed as long as the input's
 * block id stays the same in a views.update; a draft therefore comes under a new block id, with the draft as its
 * initial value.
 */
export type ReplyInput = { blockId: string; initial?: string };

/** A block id for the input that Slack has not seen in this form yet (≤ 255 characters, unique in the view). */
export const draftInputBlockId = () => `${REPLY_BLOCK_ID}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export const DRAFT_WORDS = {
  button: 'Draft a reply',
  again: 'Draft again',
  unavailable: 'Draft a reply needs AI answers, which aren’t enabled on this ARB server: its operator can turn them on.',
  working: 'Drafting a reply with the language model… (it appears here in a few seconds; you can keep typing meanwhile, but the draft replaces it)',
  drafted: (language: string, tone: string, trimmed: boolean) =>
    `Drafted by the language model in ${language}, ${tone.toLowerCase()} tone${trimmed ? ", cut to fit the store's limit" : ''}: read and edit it, then send it yourself.`,
  failed: (why: string) => `Could not draft a reply: ${why}`,
} as const;

function draftBlocks(ui: DraftUi): unknown[] {
  if (ui.kind === 'none') return [];
  const note = (text: string) => ({ type: 'context', block_id: `${DRAFT_BLOCK_ID}_note`, elements: [{ type: 'plain_text', emoji: true, text: fitRendered(text, 2000, (t) => t) }] });
  if (ui.kind === 'unavailable') return [note(DRAFT_WORDS.unavailable)];
  if (ui.kind === 'working') return [note(DRAFT_WORDS.working)];
  return [
    { type: 'actions', block_id: DRAFT_BLOCK_ID, elements: [{ type: 'button', action_id: DRAFT_ACTION_ID, text: { type: 'plain_text', text: ui.label ?? DRAFT_WORDS.button } }] },
    ...(ui.note ? [note(ui.note)] : []),
  ];
}

export function replyForm(
  review: ReplyFormReview,
  state: ReplyFormState,
  current: string | null,
  ui: { draft?: DraftUi; input?: ReplyInput } = {},
): Record<string, unknown> {
  const title = singleLine(review.title);
  const quote = fitRendered(review.body || 'No written review, rating only.', 1500, escapeSlack)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  const max = slackReplyMax(review.store);
  const wanted = ui.input ? ui.input.initial : current;
  const initial = wanted && [...wanted].length <= max ? wanted : undefined;
  return {
    type: 'modal',
    callback_id: REPLY_VIEW_CALLBACK_ID,
    title: { type: 'plain_text', text: 'Reply to review' },
    submit: { type: 'plain_text', text: current ? 'Send new reply' : 'Send reply' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: encodeFormState(state),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', verbatim: true, text: `*${stars(review.rating)}${title ? ` ${escapeSlack(title)}` : ''}*\n${quote}` } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', verbatim: true, text: `${escapeSlack(singleLine(review.authorName) || 'Anonymous')} · ${escapeSlack(singleLine(review.appTitle))} · ${STORE_NAMES[review.store]}` }],
      },
      ...draftBlocks(ui.draft ?? { kind: 'none' }),
      {
        type: 'input',
        block_id: ui.input?.blockId ?? REPLY_BLOCK_ID,
        label: { type: 'plain_text', text: current ? 'Your new reply (replaces the one sent)' : 'Your reply' },
        element: { type: 'plain_text_input', action_id: REPLY_INPUT_ID, multiline: true, max_length: max, ...(initial ? { initial_value: initial } : {}) },
        hint: { type: 'plain_text', text: limitHint(review.store) },
      },
    ],
  };
}

type ViewState = { values?: Record<string, Record<string, { value?: string | null }>> };
type ViewBlock = { type?: string; block_id?: string; element?: { action_id?: string } };

/**
 * The reply input as the form holds it now, whatever its block id (a draft moves it): its block id (where errors go)
 * and its text.
 */
export function readReplyInput(view: { blocks?: unknown; state?: ViewState } | undefined): { blockId: string; text: string } {
  const values = view?.state?.values ?? {};
  const blocks = Array.isArray(view?.blocks) ? (view.blocks as ViewBlock[]) : [];
  const fromBlocks = blocks.find((b) => b?.type === 'input' && b.element?.action_id === REPLY_INPUT_ID)?.block_id;
  const blockId = fromBlocks ?? Object.keys(values).find((k) => values[k]?.[REPLY_INPUT_ID]) ?? REPLY_BLOCK_ID;
  return { blockId, text: values[blockId]?.[REPLY_INPUT_ID]?.value ?? '' };
}

/** Notes shown only to the person who clicked (ephemeral). */
export const SLACK_NOTES = {
  notConnected:
    'Replies cannot be sent from this channel: replying from Slack works in channels an admin added with “Add to Slack” from the ARB dashboard. Use the review’s page in ARB, or ask an admin to add this channel from the dashboard.',
  linkFirst: (orgName: string, url: string, linkedElsewhere: boolean) =>
    `${linkedElsewhere ? `Your Slack account is linked to an ARB account that is not a member of ${orgName}.` : `To reply from Slack for ${orgName}, link your Slack account to your ARB account first (once).`} <${url}|Link your Slack account> — sign in to ARB as a member of ${orgName}, confirm, then click Reply again. The link works once, for 15 minutes, and only for you: don’t share it.`,
  notLinked: (orgName: string) =>
    `Your Slack account is not linked to a member of ${orgName} on ARB (any more), so this reply cannot be sent. Close the form and click Reply on the message for a link.`,
  reviewGone: 'This review is not among your organisation’s apps in ARB any more, so it cannot be answered from here.',
  slackRefused: (code: string) => `Slack did not open the reply form (${code}). Click Reply again; if it keeps failing, reconnect the channel with “Add to Slack”.`,
  reinstall: 'ARB lost its access to this Slack workspace. Reconnect the channel with “Add to Slack” in ARB, then click Reply again.',
} as const;
