/**
 * "Add to Slack" and "Add to Discord": OAuth installs whose only purpose is an incoming webhook.
 *   Slack    scope incoming-webhook → POST {SLACK_API_BASE_URL}/oauth.v2.access →
 *            { ok, incoming_webhook: { url, channel, channel_id, configuration_url } }   (errors: 200 + ok:false)
 *   Discord  scope webhook.incoming → POST {DISCORD_API_BASE_URL}/oauth2/token →
 *            { access_token, webhook: { id, token, url, channel_id, guild_id, name } }    (errors: 4xx + error)
 * Each answer's failure is turned into words for the person who clicked: an expired or reused code is theirs to retry
 * (400), a rejected client id, secret or redirect address is the operator's to fix (502, naming the setting).
 */
import { env } from '../env';
import { log } from '../log';
import { HttpError, badGateway, badRequest } from '../http/errors';
import { OAUTH_PLATFORMS, platformName } from '@/shared/platforms';
import type { OAuthPlatform } from './state';
import type { SlackInstall } from '../slack/data';

const NAMES: Record<OAuthPlatform, string> = Object.fromEntries(OAUTH_PLATFORMS.map((p) => [p, platformName(p)])) as Record<OAuthPlatform, string>;
/**
 * Slack: the webhook, the bot's right to post (update its review messages once a reply is published, answer a mention
 * in its thread), the `/arb` slash command and the mentions of the app (server/slack/README.md "Asking ARB in Slack").
 * Who may reply is proved by linking the Slack account to ARB (server/slack/links.ts), not read from Slack profiles,
 * so no user scopes are asked for.
 */
const SCOPES: Record<OAuthPlatform, string> = { slack: 'incoming-webhook,chat:write,commands,app_mentions:read', discord: 'webhook.incoming' };
const TIMEOUT_MS = 10_000;

type Client = { id: string; secret: string };

function client(platform: OAuthPlatform): Client | null {
  const e = env();
  const [id, secret] = platform === 'slack' ? [e.SLACK_CLIENT_ID, e.SLACK_CLIENT_SECRET] : [e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET];
  return id && secret ? { id, secret } : null;
}

/** Both the client id and secret are set: only then is the button shown. */
export function oauthConfigured(platform: OAuthPlatform): boolean {
  return client(platform) !== null;
}

function requireClient(platform: OAuthPlatform): Client {
  const c = client(platform);
  if (!c) {
    const prefix = platform.toUpperCase();
    throw new HttpError(404, 'oauth_not_configured', `"Add to ${NAMES[platform]}" is not set up on this ARB server (${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET). Paste a webhook URL instead.`);
  }
  return c;
}

/** Where the platform sends the browser back: a page of ours that finishes the install (pages/connect/<platform>.tsx). */
export function redirectUri(platform: OAuthPlatform): string {
  return `${env().APP_URL}/connect/${platform}`;
}

/** The site's origin from the API base: https://slack.com/api → https://slack.com, https://discord.com/api/v10 → https://discord.com. */
function siteOf(apiBase: string): string {
  return apiBase.replace(/\/+$/, '').replace(/\/api(\/v\d+)?$/, '');
}

export function authorizeUrl(platform: OAuthPlatform, state: string): string {
  const c = requireClient(platform);
  const e = env();
  const url =
    platform === 'slack'
      ? new URL(`${siteOf(e.SLACK_API_BASE_URL)}/oauth/v2/authorize`)
      : new URL(`${siteOf(e.DISCORD_API_BASE_URL)}/oauth2/authorize`);
  url.searchParams.set('client_id', c.id);
  url.searchParams.set('scope', SCOPES[platform]);
  url.searchParams.set('redirect_uri', redirectUri(platform));
  url.searchParams.set('state', state);
  if (platform === 'discord') url.searchParams.set('response_type', 'code');
  return url.toString();
}

export type InstalledWebhook = {
  url: string;
  /** '#reviews' for Slack; Discord tells only ids. */
  label: string | null;
  /** Slack: the workspace and the bot token the install gave (for the Reply button). */
  slack?: SlackInstall;
  /** Slack: the channel the webhook posts to (asking ARB there reads the destination's apps). */
  slackChannelId?: string;
};

async function postForm(url: string, form: Record<string, string>, c: Client): Promise<{ status: number; json: Record<string, unknown> | null }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        // Both platforms accept the client credentials as HTTP Basic, which keeps the secret out of the form body.
        Authorization: `Basic ${Buffer.from(`${encodeURIComponent(c.id)}:${encodeURIComponent(c.secret)}`).toString('base64')}`,
      },
      body: new URLSearchParams(form).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    log.warn('oauth token exchange failed', { url: new URL(url).host, err: (err as Error).message });
    return { status: 0, json: null };
  }
  const text = await res.text();
  try {
    const parsed = JSON.parse(text) as unknown;
    return { status: res.status, json: parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null };
  } catch {
    return { status: res.status, json: null };
  }
}

function codeInvalid(platform: OAuthPlatform): HttpError {
  return badRequest(`This ${NAMES[platform]} approval has expired or was already used. Click “Add to ${NAMES[platform]}” again.`, 'oauth_code_invalid');
}

function settingsRejected(platform: OAuthPlatform, what: string): HttpError {
  const prefix = platform.toUpperCase();
  return badGateway(`${NAMES[platform]} rejected this ARB server's ${what}. The administrator should check ${prefix}_CLIENT_ID, ${prefix}_CLIENT_SECRET and that ${redirectUri(platform)} is an allowed redirect URL.`);
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

async function exchangeSlack(code: string): Promise<InstalledWebhook> {
  const c = requireClient('slack');
  const base = env().SLACK_API_BASE_URL.replace(/\/+$/, '');
  const { status, json } = await postForm(`${base}/oauth.v2.access`, { code, redirect_uri: redirectUri('slack') }, c);
  if (!json) throw badGateway(status ? `Slack answered HTTP ${status} instead of the install result. Try again in a minute.` : 'Slack is not answering right now. Try again in a minute.');
  if (json.ok !== true) {
    const error = str(json.error) ?? 'unknown_error';
    if (['invalid_code', 'code_already_used', 'code_expired', 'invalid_grant_type'].includes(error)) throw codeInvalid('slack');
    if (error === 'bad_redirect_uri') throw settingsRejected('slack', 'redirect address');
    if (['invalid_client_id', 'bad_client_secret', 'invalid_client'].includes(error)) throw settingsRejected('slack', 'app credentials');
    throw badGateway(`Slack refused the install (${error}). Try again, or paste an incoming-webhook URL instead.`);
  }
  const hook = json.incoming_webhook as Record<string, unknown> | undefined;
  const url = str(hook?.url);
  if (!url) throw badGateway('Slack did not create a webhook. Choose a channel on the Slack page and approve again.');
  const channel = str(hook?.channel);
  const team = json.team as Record<string, unknown> | undefined;
  const token = str(json.access_token);
  const teamId = str(team?.id);
  return {
    url,
    label: channel ? (/^[#@]/.test(channel) ? channel : `#${channel}`) : null,
    ...(str(hook?.channel_id) ? { slackChannelId: str(hook?.channel_id)! } : {}),
    slack: token && teamId ? { teamId, teamName: str(team?.name), botToken: token, botUserId: str(json.bot_user_id), scopes: str(json.scope) ?? '' } : undefined,
  };
}

async function exchangeDiscord(code: string): Promise<InstalledWebhook> {
  const c = requireClient('discord');
  const base = env().DISCORD_API_BASE_URL.replace(/\/+$/, '');
  const { status, json } = await postForm(`${base}/oauth2/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri('discord') }, c);
  if (!json) throw badGateway(status ? `Discord answered HTTP ${status} instead of the install result. Try again in a minute.` : 'Discord is not answering right now. Try again in a minute.');
  if (status < 200 || status >= 300) {
    const error = str(json.error) ?? `HTTP ${status}`;
    if (error === 'invalid_grant') throw codeInvalid('discord');
    if (error === 'invalid_client' || error === 'unauthorized_client') throw settingsRejected('discord', 'app credentials');
    if (error === 'invalid_request' && /redirect/i.test(str(json.error_description) ?? '')) throw settingsRejected('discord', 'redirect address');
    throw badGateway(`Discord refused the install (${error}). Try again, or paste a webhook URL instead.`);
  }
  const hook = json.webhook as Record<string, unknown> | undefined;
  const url = str(hook?.url) ?? (str(hook?.id) && str(hook?.token) ? `https://discord.com/api/webhooks/${str(hook?.id)}/${str(hook?.token)}` : null);
  if (!url) throw badGateway('Discord did not create a webhook. Choose a channel on the Discord page and approve again.');
  // Discord names neither the server nor the channel here (only their ids), so there is no label to show.
  return { url, label: null };
}

/** Trade the authorisation code for the webhook the install created. */
export function exchangeCode(platform: OAuthPlatform, code: string): Promise<InstalledWebhook> {
  return platform === 'slack' ? exchangeSlack(code) : exchangeDiscord(code);
}
