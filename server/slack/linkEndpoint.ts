/**
 * POST v1/slack/link — the "Link your Slack account" page's button (pages/slack/link.tsx): the signed-in member
 * becomes who the Slack user of the link's token is, when replying from that organisation's channels.
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { linkSlackAccount } from './links';

export const slackLinkEndpoint = endpoint({
  statuses: [404, 409],
  summary: 'Link the Slack user of a one-time link (from a Reply click) to the signed-in member, to reply from Slack',
  tags: ['slack'],
  auth: 'user',
  body: z.object({ token: z.string('token must be a string.').min(1, 'token is missing.').max(4096, 'token is too long.') }),
  response: z.object({
    slack_user: z.string().meta({ description: 'The Slack user now linked, as @name when Slack told it.' }),
  }),
  handler: ({ body, auth }) => linkSlackAccount(auth, body.token),
});
