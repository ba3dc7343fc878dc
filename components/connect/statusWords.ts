/**
 * A connection's problem in words its owner can act on. The engine already records errors in words ("Slack refused
 * the webhook: … (HTTP 410, channel_is_archived) …"); for the failures people meet most, the platform's own error code
 * is turned into what happened and what to do. Anything else is shown as the engine wrote it.
 */
import type { Platform } from '@/shared/appStores';
import { describeDeliveryError } from '@/shared/deliveryErrors';

type Rule = { platform?: Platform; test: RegExp; words: string };

const RULES: Rule[] = [
  { platform: 'slack', test: /channel_is_archived/, words: 'Slack says this channel was archived. Reconnect to a new channel.' },
  { platform: 'slack', test: /channel_not_found|no_service|HTTP 404/, words: 'Slack says this webhook no longer exists — the channel was deleted or the app was removed. Reconnect to a channel.' },
  { platform: 'slack', test: /action_prohibited|HTTP 403/, words: 'Slack says posting to this channel is no longer allowed (a workspace admin restricted it). Reconnect to another channel.' },
  { platform: 'discord', test: /10015|Unknown Webhook|HTTP 404/, words: 'Discord says this webhook was deleted. Create a new one and reconnect.' },
  { platform: 'discord', test: /50027|HTTP 401/, words: 'Discord says this webhook’s token is no longer valid. Create a new webhook and reconnect.' },
  { platform: 'mattermost', test: /incoming_webhook|webhook is unknown or disabled/, words: 'Mattermost says this incoming webhook is unknown or disabled. Create a new one and reconnect.' },
  { platform: 'msteams', test: /HTTP 404|WorkflowNotFound/, words: 'Microsoft Teams says this workflow no longer exists. Create a new workflow and reconnect.' },
  { platform: 'webex', test: /HTTP 40[14]|HTTP 410/, words: 'Webex says this webhook no longer exists. Create a new one and reconnect.' },
  { platform: 'googlechat', test: /HTTP 40[134]/, words: 'Google Chat says this webhook no longer works — it was deleted from the space, or the space is gone. Create a new webhook in the space and reconnect.' },
  { platform: 'telegram', test: /blocked by the user/, words: 'Telegram says the person this bot writes to has blocked it. Unblock the bot in Telegram (open its chat, press Restart), then reconnect.' },
  { platform: 'telegram', test: /bot was kicked|not a member/, words: 'Telegram says the bot is no longer in this group or channel. Add the bot to the chat again, then reconnect.' },
  { platform: 'telegram', test: /HTTP 40[14]\b/, words: 'Telegram says this bot token is no longer valid — it was revoked or replaced in @BotFather. Paste the URL with the new token to reconnect.' },
  { platform: 'telegram', test: /chat not found/, words: 'Telegram could not find this chat: the chat id is wrong or the bot was never added to it. Check the chat_id and reconnect.' },
  { test: /asked to slow down/, words: 'The platform asked ARB to slow down for a moment. The next messages follow automatically.' },
  { test: /temporary problem/, words: 'The platform had a temporary problem. ARB tries again automatically.' },
  { platform: 'email', test: /unsubscribed/i, words: 'This address unsubscribed, so no more reviews are sent to it.' },
];

/** A network's or TLS library's own code in a recorded error ("(ECONNREFUSED)", "UND_ERR_SOCKET"): never shown as such. */
const RAW_CODE = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+|ERR_[A-Z_]+|[A-Z]+_CERT[A-Z_]*|CERT_[A-Z_]+)\b/;

export function plainProblem(platform: Platform, text: string | null | undefined): string | null {
  if (!text) return null;
  const rule = RULES.find((r) => (!r.platform || r.platform === platform) && r.test.test(text));
  if (rule) return rule.words;
  if (!RAW_CODE.test(text)) return text;
  const { reason, check } = describeDeliveryError(text, platform);
  return `The last message could not be delivered: ${reason} — check ${check}.`;
}

export function connectedHeading(platform: Platform, label: string | null, target: string): string {
  if (label) return `Connected to ${label}`;
  switch (platform) {
    case 'slack':
      return 'Connected to your Slack channel';
    case 'msteams':
      return 'Connected to your Microsoft Teams channel';
    case 'mattermost':
      return 'Connected to your Mattermost channel';
    case 'discord':
      return 'Connected to your Discord channel';
    case 'webex':
      return 'Connected to your Webex space';
    case 'googlechat':
      return 'Connected to your Google Chat space';
    case 'telegram':
      return 'Connected to your Telegram chat';
    case 'email':
      return `Sending reviews to ${target}`;
    case 'webhook':
      return `Sending signed reviews to ${target}`;
  }
}

/** "just now", "12 seconds ago", "3 minutes ago", "2 hours ago", or the date. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} seconds ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
