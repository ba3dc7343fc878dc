/**
 * A loopback Discord for "Add to Discord" (OAuth2, scope webhook.incoming), speaking Discord's real formats:
 *   GET  /oauth2/authorize?client_id&response_type=code&scope&redirect_uri&state   the approval page; here the visitor
 *        picks a channel and approves at once (302 to redirect_uri?code=…&state=…&guild_id=…), or cancels
 *        (…?error=access_denied&error_description=…&state=…) when `deny` is set
 *   POST /api/oauth2/token   (form: grant_type=authorization_code, code, redirect_uri; client id/secret as Basic or form)
 *        → 200 { token_type: 'Bearer', access_token, expires_in, refresh_token, scope, webhook: { id, token, url, channel_id, guild_id, … } }
 *        → 400 { error: 'invalid_grant', error_description } · 401 { error: 'invalid_client' }
 * DISCORD_API_BASE_URL = `${fake.url}/api`.
 */
import { randomBytes } from 'node:crypto';
import { json, startFakeServer, type FakeHandler, type FakeServer } from './http';
import { clientCredentials } from './slackOAuth';

export type DiscordInstall = { url: string };

export type DiscordOAuthOptions = { clientId?: string; clientSecret?: string; webhook?: () => DiscordInstall };

export type DiscordOAuthState = {
  clientId: string;
  clientSecret: string;
  deny: boolean;
  codes: Map<string, { install: DiscordInstall; redirectUri: string; used: boolean; guildId: string; channelId: string }>;
  webhook: () => DiscordInstall;
};

const rand = (n: number, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') => Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
const snowflake = () => `1${rand(18, '0123456789')}`;

export function createDiscordOAuthState(options: DiscordOAuthOptions = {}): DiscordOAuthState {
  return {
    clientId: options.clientId ?? snowflake(),
    clientSecret: options.clientSecret ?? 'fake-discord-client-secret',
    deny: false,
    codes: new Map(),
    webhook: options.webhook ?? (() => ({ url: `https://discord.com/api/webhooks/${snowflake()}/${rand(68, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_')}` })),
  };
}

export function discordOAuthRoutes(state: DiscordOAuthState): FakeHandler {
  return (req, res) => {
    if (req.method === 'GET' && req.path === '/oauth2/authorize') {
      if (req.query.get('client_id') !== state.clientId || req.query.get('response_type') !== 'code') {
        json(res, 400, { message: 'Invalid OAuth2 application', code: 50010 });
        return true;
      }
      if (!(req.query.get('scope') ?? '').split(' ').includes('webhook.incoming')) {
        json(res, 400, { message: 'Invalid OAuth2 scope', code: 50011 });
        return true;
      }
      const redirectUri = req.query.get('redirect_uri') ?? '';
      const back = new URL(redirectUri);
      if (state.deny) {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
      } else {
        const code = rand(30);
        const guildId = snowflake();
        state.codes.set(code, { install: state.webhook(), redirectUri, used: false, guildId, channelId: snowflake() });
        back.searchParams.set('code', code);
        back.searchParams.set('guild_id', guildId);
      }
      back.searchParams.set('state', req.query.get('state') ?? '');
      res.writeHead(302, { Location: back.toString() });
      res.end();
      return true;
    }
    if (req.method === 'POST' && req.path === '/api/oauth2/token') {
      const form = new URLSearchParams(req.body);
      const creds = clientCredentials(req, form);
      if (creds.id !== state.clientId || creds.secret !== state.clientSecret) return json(res, 401, { error: 'invalid_client' }), true;
      if (form.get('grant_type') !== 'authorization_code') return json(res, 400, { error: 'unsupported_grant_type' }), true;
      const entry = state.codes.get(form.get('code') ?? '');
      if (!entry || entry.used) return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' }), true;
      if ((form.get('redirect_uri') ?? '') !== entry.redirectUri) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' }), true;
      }
      entry.used = true;
      const parts = new URL(entry.install.url).pathname.split('/').filter(Boolean); // api, webhooks, id, token
      const [id, token] = [parts[parts.length - 2], parts[parts.length - 1]];
      json(res, 200, {
        token_type: 'Bearer',
        access_token: rand(30),
        scope: 'webhook.incoming',
        expires_in: 604800,
        refresh_token: rand(30),
        webhook: {
          application_id: state.clientId,
          name: 'ARB',
          url: entry.install.url,
          channel_id: entry.channelId,
          token,
          type: 1,
          avatar: null,
          guild_id: entry.guildId,
          id,
        },
      });
      return true;
    }
    return false;
  };
}

export type DiscordOAuthFake = DiscordOAuthState & { server: FakeServer; url: string; apiBaseUrl: string; close(): Promise<void> };

export async function startDiscordOAuth(options: DiscordOAuthOptions = {}): Promise<DiscordOAuthFake> {
  const state = createDiscordOAuthState(options);
  const server = await startFakeServer([discordOAuthRoutes(state)]);
  return Object.assign(state, { server, url: server.url, apiBaseUrl: `${server.url}/api`, close: () => server.close() });
}
