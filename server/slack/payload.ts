/**
 * What Slack sends to the interactions endpoint and what ARB answers it: the shapes the click and submission handlers
 * (interactions.ts) and the draft (draft.ts) share, in a file of their own so neither handler imports the other.
 */
import type { SlackUser } from './replier';

/**
 * What ARB answers Slack: nothing (200, empty), or errors to show inside the form. `after` is work that follows the
 * answer: Slack wants it within 3 seconds, and a language model can take longer.
 */
export type SlackAnswer = { kind: 'empty'; after?: () => Promise<void> } | { kind: 'form_errors'; errors: Record<string, string> };

type ViewState = { values?: Record<string, Record<string, { value?: string | null }>> };
export type SlackView = { id?: string; hash?: string; callback_id?: string; private_metadata?: string; blocks?: unknown[]; state?: ViewState };
export type SlackInteractionPayload = {
  type?: string;
  team?: { id?: string } | null;
  user?: SlackUser;
  trigger_id?: string;
  response_url?: string;
  container?: { type?: string; channel_id?: string; message_ts?: string; view_id?: string };
  actions?: Array<{ action_id?: string; value?: string }>;
  view?: SlackView;
};
