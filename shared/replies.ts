/**
 * Replies to reviews, the parts both sides need: each store's length limit (the composer counts as you type and the
 * server refuses over-long text before anything is sent), how a template's placeholders are filled, and the words for
 * a reply's state. Pure: the dashboard imports it.
 */
export type ReplyStore = 'apple_app_store' | 'google_play_store';

/** The most characters a reply may have: App Store Connect's responseBody limit, and Google Play's reply limit. */
export const REPLY_MAX_CHARS: Record<ReplyStore, number> = { apple_app_store: 5970, google_play_store: 350 };

export const STORE_NAMES: Record<ReplyStore, string> = { apple_app_store: 'App Store', google_play_store: 'Google Play' };

/** Characters as the stores count them (code points: an emoji is one), after trimming. */
export const replyLength = (text: string): number => [...text.trim()].length;

/** awaiting_approval: a rule's draft waiting for a person (Replies → Awaiting approval); rejected: a person said no. */
export type ReplyStateName = 'draft' | 'sending' | 'pending_publish' | 'published' | 'failed' | 'awaiting_approval' | 'rejected';

export const REPLY_STATES = ['draft', 'sending', 'pending_publish', 'published', 'failed', 'awaiting_approval', 'rejected'] as const satisfies readonly ReplyStateName[];

export const REPLY_STATE_WORDS: Record<ReplyStateName, string> = {
  draft: 'Draft',
  sending: 'Sending',
  pending_publish: 'Pending publish',
  published: 'Published',
  failed: 'Failed',
  awaiting_approval: 'Awaiting approval',
  rejected: 'Rejected',
};

/** Automatic replies are never sent to reviews older than this (the review's date as the store shows it). */
export const AUTO_REPLY_MAX_AGE_DAYS = 14;

/** The placeholders a template may use. */
export const TEMPLATE_PLACEHOLDERS = ['{author}', '{app}'] as const;

/** A template's text for one review: {author} → the reviewer's name (or "there"), {app} → the app's title. */
export function fillTemplate(body: string, values: { author: string; app: string }): string {
  const author = values.author.trim() || 'there';
  return body.replace(/\{author\}/g, author).replace(/\{app\}/g, values.app.trim());
}
