/**
 * One entry point for the delivery engine: the right platform's formatter (server/destinations/platforms/<id>.ts) for a review, a welcome, a spike alert or a weekly summary.
 * All formatters are pure (review in, payload out) and never exceed their platform's limits.
 */
import type { AlertMessageInput, EmailContext, FormattedMessage, Platform, ReviewMessageInput, SummaryMessageInput, WelcomeMessageInput } from '../types';
import { PLATFORM_MODULES } from '../platforms';

export type OutgoingMessage =
  | { type: 'review'; input: ReviewMessageInput }
  | { type: 'welcome'; input: WelcomeMessageInput }
  | { type: 'alert'; input: AlertMessageInput }
  | { type: 'summary'; input: SummaryMessageInput };

/** Each platform's formatter lives in its file (server/destinations/platforms/<id>.ts); e-mail's also takes an EmailContext. */
const { email, ...chat } = PLATFORM_MODULES;

/** Formats a message for `platform`. E-mail needs its EmailContext (the unsubscribe URL); chat platforms ignore it. */
export function formatFor(platform: Platform, message: OutgoingMessage, emailContext?: EmailContext): FormattedMessage {
  if (platform === 'email') {
    if (!emailContext) throw new Error('Formatting an e-mail needs an EmailContext with the unsubscribe URL');
    if (message.type === 'alert') return email.formatAlert(message.input, emailContext);
    if (message.type === 'summary') return email.formatSummary(message.input, emailContext);
    return message.type === 'review' ? email.formatReview(message.input, emailContext) : email.formatWelcome(message.input, emailContext);
  }
  const formatter = chat[platform];
  if (!formatter) throw new Error(`No formatter for platform ${String(platform)}`);
  if (message.type === 'alert') return formatter.formatAlert(message.input);
  if (message.type === 'summary') return formatter.formatSummary(message.input);
  return message.type === 'review' ? formatter.formatReview(message.input) : formatter.formatWelcome(message.input);
}

export const formatReviewFor = (platform: Platform, input: ReviewMessageInput, emailContext?: EmailContext) =>
  formatFor(platform, { type: 'review', input }, emailContext);

export const formatWelcomeFor = (platform: Platform, input: WelcomeMessageInput, emailContext?: EmailContext) =>
  formatFor(platform, { type: 'welcome', input }, emailContext);
