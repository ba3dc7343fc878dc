/**
 * The connect flow's API (CONTRACT.md): validate → call the service → answer.
 *   GET  v1/public/config               which optional buttons the site shows (OAuth installs configured?)
 *   POST v1/oauth/platform/connect      { platform, payload }          pasted webhook or e-mail address
 *   POST v1/oauth/authorize             { platform, payload }          → { url } of the Slack/Discord approval page
 *   POST v1/oauth/slack/callback        { code, state }                finishes "Add to Slack"
 *   POST v1/oauth/bot/connect           { platform, code, state }      finishes "Add to Discord" (or Slack)
 *   GET  v1/public/destination/{id}     status, last delivery, error in words — no secrets
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { endpoint } from '../http/api';
import { validateWebhookUrl } from '@/shared/webhookUrls';
import { OAUTH_PLATFORMS } from '@/shared/platforms';
import { badGateway, badRequest, notFound, unauthorized } from '../http/errors';
import { requireRole } from '../org/membership';
import { env } from '../env';
import { getDestinationStatus } from '../destinations/records';
import { connectDestination, type ConnectContext, type ConnectResult } from './connect';
import { authorizeUrl, exchangeCode, oauthConfigured } from './oauth';
import { saveSlackWorkspace } from '../slack/data';
import { MAX_PAYLOAD_CHARS, parseConnectionPayload, platformConnectBody } from './payload';
import { claimCookieWith } from './claimCookie';
import { newNonce, nonceCookie, readNonceCookie, signOAuthState, verifyOAuthState, type OAuthPlatform } from './state';

const oauthPlatform = z.enum(OAUTH_PLATFORMS, { error: `must be ${OAUTH_PLATFORMS.join(' or ')}` });

const appSchema = z.object({ app_id: z.string(), app_store: z.string(), title: z.string(), icon: z.string().nullable() });
const connectResponse = z.object({
  destination_id: z.string(),
  platform: z.string(),
  app: appSchema,
  created: z.boolean(),
  label: z.string().nullable(),
  warning: z.string().nullable(),
  status: z.record(z.string(), z.unknown()),
  confirmation: z.object({ sent: z.boolean(), sent_at: z.string().nullable(), resend_after: z.string().nullable(), message: z.string() }).nullable(),
  signing_secret: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'A new Webhook destination: its `whsec_` signing secret (Standard Webhooks), in this answer only.' }),
});

export const publicConfigEndpoint = endpoint({
  summary: 'Which optional connect buttons this server offers',
  tags: ['connect'],
  response: z.object({ slack_oauth: z.boolean(), discord_oauth: z.boolean(), allow_private_webhooks: z.boolean() }),
  handler: () => ({
    slack_oauth: oauthConfigured('slack'),
    discord_oauth: oauthConfigured('discord'),
    // A test-only setting (ALLOW_PRIVATE_WEBHOOKS): the browser's URL check must agree with the server's.
    allow_private_webhooks: env().ALLOW_PRIVATE_WEBHOOKS,
  }),
});

export const platformConnectEndpoint = endpoint({
  statuses: [401, 402, 403, 404, 409, 502, 503],
  summary: 'Connect an app to a chat webhook or an e-mail address (v2 connection payload)',
  tags: ['connect'],
  auth: 'optional',
  body: platformConnectBody,
  response: connectResponse,
  handler: async ({ body, ip, auth, req, setHeader }): Promise<ConnectResult> => {
    const request = parseConnectionPayload(body.platform, body.payload, 'required');
    // A signed-in admin adding their own address has proved that mailbox by signing in: no confirmation e-mail.
    const result = await connectDestination({ ...request, target: request.target! }, { ip, auth, ownAddressConfirmed: true });
    // Without an account: this browser's claim cookie names the new connection, so signing in here claims it.
    if (!auth && result.created) setHeader('Set-Cookie', await claimCookieWith(req, result.destination_id));
    return result;
  },
});

export const oauthAuthorizeEndpoint = endpoint({
  statuses: [403, 404, 503],
  summary: 'Start "Add to Slack" or "Add to Discord": the approval page URL with a signed state',
  tags: ['connect'],
  auth: 'optional',
  body: z.object({ platform: oauthPlatform, payload: z.string().min(1, 'is required').max(MAX_PAYLOAD_CHARS, 'is too long') }),
  response: z.object({ url: z.string() }),
  handler: async ({ body, setHeader, auth }) => {
    // Checked now so a bad app id or country fails here, not after the visitor has approved on the platform.
    parseConnectionPayload(body.platform, body.payload, 'none');
    // With a session (the dashboard's "Add destination"): the organisation's channel, which takes an admin — checked
    // before the visitor goes to approve, and the person is signed into the state so only they can finish it.
    const member = auth?.scope === 'full' ? await requireRole(auth, 'admin', 'add destinations') : null;
    const nonce = newNonce();
    const state = await signOAuthState({ platform: body.platform, payload: body.payload, nonce, ...(member ? { userId: member.userId } : {}) });
    const url = authorizeUrl(body.platform, state);
    setHeader('Set-Cookie', nonceCookie(nonce));
    return { url };
  },
});

const oauthReturn = { code: z.string().trim().min(1, 'is required').max(512, 'is too long'), state: z.string().min(1, 'is required').max(16_384, 'is too long') };

type InstallContext = ConnectContext & { nonce: string | null; req: IncomingMessage; setHeader: (name: string, value: string) => void };

async function finishInstall(platform: OAuthPlatform, code: string, state: string, ctx: InstallContext): Promise<ConnectResult> {
  const started = await verifyOAuthState(state, platform, ctx.nonce);
  if (started.userId && ctx.auth?.userId !== started.userId) {
    throw unauthorized('This install was started from the dashboard: sign in as the person who started it to finish it, or start again.');
  }
  // Started without a session: an anonymous connection, as on the home page, whoever's session finishes it.
  if (!started.userId) ctx = { ...ctx, auth: null };
  const request = parseConnectionPayload(platform, started.payload, 'none');
  const webhook = await exchangeCode(platform, code);
  // Checked like a pasted URL: whatever the platform answered must still be that platform's webhook shape.
  const check = validateWebhookUrl(platform, webhook.url, { allowPrivate: env().ALLOW_PRIVATE_WEBHOOKS });
  if (!check.ok) throw badGateway(`${platform === 'slack' ? 'Slack' : 'Discord'} answered with a webhook ARB cannot use (${check.error}).`);
  // The workspace's bot token lets review messages there carry a Reply button: saved before the destination, which
  // names the workspace from its first message on. Only for an install an admin started from the dashboard: a channel
  // connected without an account (even one claimed later) never offers replying for an organisation from Slack.
  const replies = webhook.slack && started.userId ? webhook.slack : null;
  if (replies) await saveSlackWorkspace(replies);
  const result = await connectDestination(
    { ...request, target: { kind: 'webhook', url: check.url, warning: check.warning ?? null } },
    { ...ctx, label: webhook.label, ...(replies ? { slackTeamId: replies.teamId, ...(webhook.slackChannelId ? { slackChannelId: webhook.slackChannelId } : {}) } : {}) },
  );
  if (!started.userId && result.created) ctx.setHeader('Set-Cookie', await claimCookieWith(ctx.req, result.destination_id));
  return result;
}

export const slackCallbackEndpoint = endpoint({
  statuses: [401, 402, 403, 404, 409, 502, 503],
  summary: 'Finish "Add to Slack": exchange the code, store the webhook and its channel, connect the app',
  tags: ['connect'],
  auth: 'optional',
  body: z.object(oauthReturn),
  response: connectResponse,
  handler: ({ body, req, ip, auth, setHeader }) => finishInstall('slack', body.code, body.state, { ip, auth, nonce: readNonceCookie(req), req, setHeader }),
});

export const botConnectEndpoint = endpoint({
  statuses: [401, 402, 403, 404, 409, 502, 503],
  summary: 'Finish a bot install ("Add to Discord", or Slack): exchange the code, store the webhook, connect the app',
  tags: ['connect'],
  auth: 'optional',
  body: z.object({ platform: oauthPlatform, ...oauthReturn }),
  response: connectResponse,
  handler: ({ body, req, ip, auth, setHeader }) => finishInstall(body.platform, body.code, body.state, { ip, auth, nonce: readNonceCookie(req), req, setHeader }),
});

const DESTINATION_ID = /^dst_[0-9A-Za-z]{24}$/;

export const destinationStatusEndpoint = endpoint({
  statuses: [404],
  summary: "A connection's status: platform, app, channel, last delivery and any error in plain words (no secrets)",
  tags: ['connect'],
  params: z.object({ id: z.string() }),
  response: z.record(z.string(), z.unknown()),
  handler: async ({ params }) => {
    if (!DESTINATION_ID.test(params.id)) throw badRequest('id: not a destination id (dst_ followed by 24 letters and digits).');
    const status = await getDestinationStatus(params.id);
    if (!status) throw notFound('No connection with this id. It may have been removed.');
    return status;
  },
});
