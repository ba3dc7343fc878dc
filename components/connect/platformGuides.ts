/**
 * What each destination is called and how to get its webhook: the short how-to the webhook step shows. The steps
 * follow each platform's own documentation; Teams uses Workflows, since Office 365
 * connectors are being retired.
 */
import type { Platform } from '@/shared/appStores';

export type PlatformGuide = {
  name: string;
  /** One line under the name in the picker. */
  hint: string;
  /** Label of the address field. */
  fieldLabel: string;
  steps: string[];
  /** The platform's own page about it. */
  docs: { href: string; label: string } | null;
};

export const PLATFORM_GUIDES: Record<Platform, PlatformGuide> = {
  slack: {
    name: 'Slack',
    hint: 'Post to any channel of your workspace',
    fieldLabel: 'Slack webhook URL',
    steps: [
      'Open api.slack.com/apps, choose Create New App → From scratch, name it “ARB” and pick your workspace.',
      'Under Features, open Incoming Webhooks and switch “Activate Incoming Webhooks” on.',
      'Click “Add New Webhook to Workspace”, choose the channel for reviews and click Allow.',
      'Copy the Webhook URL (it starts with https://hooks.slack.com/services/) and paste it here.',
    ],
    docs: { href: 'https://api.slack.com/messaging/webhooks', label: 'Slack’s guide to incoming webhooks' },
  },
  msteams: {
    name: 'Microsoft Teams',
    hint: 'Post to a channel through a Teams workflow',
    fieldLabel: 'Teams workflow URL',
    steps: [
      'In Teams, open the channel for reviews, click ••• (More options) and choose Workflows.',
      'Pick the template “Post to a channel when a webhook request is received”.',
      'Name it “ARB reviews”, check the team and channel, then click Add workflow.',
      'Copy the whole URL Teams shows, including everything after the “?”, and paste it here.',
    ],
    docs: {
      href: 'https://support.microsoft.com/office/create-incoming-webhooks-with-workflows-for-microsoft-teams-8ae491c7-0394-4861-ba59-055e33f75498',
      label: 'Microsoft’s guide to webhooks with Workflows',
    },
  },
  mattermost: {
    name: 'Mattermost',
    hint: 'Post to a channel on your Mattermost server',
    fieldLabel: 'Mattermost webhook URL',
    steps: [
      'In Mattermost, open the product menu → Integrations → Incoming Webhooks (an admin may first need to enable incoming webhooks in the System Console).',
      'Click Add Incoming Webhook, give it a title such as “ARB” and choose the channel.',
      'Save, then copy the URL: it ends in /hooks/ followed by 26 letters and digits.',
    ],
    docs: { href: 'https://developers.mattermost.com/integrate/webhooks/incoming/', label: 'Mattermost’s guide to incoming webhooks' },
  },
  discord: {
    name: 'Discord',
    hint: 'Post to a text channel of your server',
    fieldLabel: 'Discord webhook URL',
    steps: [
      'Open Server Settings → Integrations → Webhooks (you need the Manage Webhooks permission).',
      'Click New Webhook, name it “ARB reviews” and choose the channel.',
      'Click Copy Webhook URL and paste it here.',
    ],
    docs: { href: 'https://support.discord.com/hc/en-us/articles/228383668', label: 'Discord’s guide to webhooks' },
  },
  webex: {
    name: 'Webex',
    hint: 'Post to a Webex space',
    fieldLabel: 'Webex webhook URL',
    steps: [
      'Open the “Incoming Webhooks” integration in the Webex App Hub and click Connect.',
      'Give the webhook a name such as “ARB reviews” and choose the space.',
      'Click Add, then copy the webhook URL (https://webexapis.com/v1/webhooks/incoming/…) and paste it here.',
    ],
    docs: { href: 'https://apphub.webex.com/applications/incoming-webhooks-cisco-systems-38054-23307', label: 'Incoming Webhooks in the Webex App Hub' },
  },
  googlechat: {
    name: 'Google Chat',
    hint: 'Post to a Google Chat space, one thread per app',
    fieldLabel: 'Google Chat webhook URL',
    steps: [
      'In Google Chat, open the space for reviews, click its name at the top and choose Apps & integrations (a Google Workspace account is needed).',
      'Click Add webhooks (or Webhooks → Add another), name it “ARB reviews” and click Save.',
      'Copy the whole URL (it starts with https://chat.googleapis.com/v1/spaces/ and ends with key=…&token=…) and paste it here.',
      'Each app’s reviews arrive in a thread of their own, so the space stays readable.',
    ],
    docs: { href: 'https://developers.google.com/workspace/chat/quickstart/webhooks', label: 'Google’s guide to incoming webhooks in Chat' },
  },
  telegram: {
    name: 'Telegram',
    hint: 'Post to a group, channel or chat through your bot',
    fieldLabel: 'Telegram bot URL',
    steps: [
      'In Telegram, open @BotFather, send /newbot, choose a name such as “ARB reviews” and copy the token it gives you (123456789:AAE…).',
      'Add the bot to the group or channel for reviews (in a channel, as an administrator that may post messages).',
      'Find the chat’s id: send a message in the group, then open https://api.telegram.org/bot<token>/getUpdates in a browser and copy "chat":{"id": … (groups and channels start with -100).',
      'Paste https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat id> here, with your token and chat id in place (add &message_thread_id=<topic id> for one topic of a forum group).',
    ],
    docs: { href: 'https://core.telegram.org/bots/features#botfather', label: 'Telegram’s guide to creating a bot' },
  },
  email: {
    name: 'E-mail',
    hint: 'Each new review in your inbox',
    fieldLabel: 'E-mail address for the reviews',
    steps: [
      'Enter the address that should receive the reviews — yours, or a team list.',
      'A welcome with the latest reviews arrives within a minute, then each new review as it is written.',
      'Every e-mail has a one-click unsubscribe link.',
    ],
    docs: null,
  },
  webhook: {
    name: 'Webhook',
    hint: 'Signed JSON to any HTTPS endpoint (n8n, Zapier, Make, your own service)',
    fieldLabel: 'Endpoint URL (https)',
    steps: [
      'Create an endpoint that accepts POST requests with a JSON body: an n8n or Make webhook trigger, a Zapier catch hook, or your own service.',
      'Paste its https URL here. Each review arrives as JSON in the public API’s review shape.',
      'After connecting, copy the signing secret (whsec_…): it is shown once. Check each request’s webhook-signature with it.',
    ],
    docs: { href: 'https://www.standardwebhooks.com/', label: 'the Standard Webhooks specification' },
  },
};
