/**
 * A loopback Slack for "Add to Slack" (OAuth v2, scope incoming-webhook), speaking Slack's real formats:
 *   GET  /oauth/v2/authorize?client_id&scope&redirect_uri&state   the approval page; here the visitor approves at once
 *        (302 to redirect_uri?code=…&state=…), or cancels (…?error=access_denied&state=…) when `deny` is set
 *   POST /api/oauth.v2.access   (form: code, redirect_uri; client id/secret as HTTP Basic or form fields)
 *        → 200 { ok: true, access_token, team, incoming_webhook: { channel, channel_id, configuration_url, url } }
 *        → 200 { ok: false, error: 'invalid_code' | 'code_already_used' | 'bad_redirect_uri' | 'invalid_client_id' | 'bad_client_secret' }
 * SLACK_API_BASE_URL = `${fake.url}/api` (so the authorize page is at the same origin, as slack.com has it).
 *
 *   const slack = await startSlackOAuth({ webhook: () => ({ url: chat.hook('slack').url, channel: '#reviews' }) });
 */
import { randomBytes } from 'node:crypto';
import { json, startFakeServer, type FakeHandler, type FakeServer, type RecordedRequest } from './http';

export type SlackInstall = { url: string; channel: string };

export type SlackOAuthOptions = {
  clientId?: string;
  clientSecret?: string;
  /** The incoming webhook each approval creates (called once per approval). */
  webhook?: () => SlackInstall;
};

export type SlackOAuthState = {
  clientId: string;
  clientSecret: string;
  /** Next approvals are cancelled by the visitor. */
  deny: boolean;
  /** Codes handed out: code → the install it stands for and whether it was used. */
  codes: Map<string, { install: SlackInstall; redirectUri: string; used: boolean }>;
  webhook: () => SlackInstall;
};

const rand = (n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') => Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');

export function createSlackOAuthState(options: SlackOAuthOptions = {}): SlackOAuthState {
  return {
    clientId: options.clientId ?? '1234567890.1234567890',
    clientSecret: options.clientSecret ?? 'fake-slack-client-secret',
    deny: false,
    codes: new Map(),
    webhook:
      options.webhook ??
      (() => ({ url: `https://hooks.slack.com/services/T${rand(9)}/B${rand(11)}/${rand(24, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`, channel: '#app-reviews' })),
  };
}

/** Client credentials from HTTP Basic (what Slack recommends) or the form. */
export function clientCredentials(req: RecordedRequest, form: URLSearchParams): { id: string | null; secret: string | null } {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':').map(decodeURIComponent);
    return { id: id ?? null, secret: secret ?? null };
  }
  return { id: form.get('client_id'), secret: form.get('client_secret') };
}

function redirect(res: Parameters<FakeHandler>[1], location: string) {
  res.writeHead(302, { Location: location });
  res.end();
}

export function slackOAuthRoutes(state: SlackOAuthState): FakeHandler {
  return (req, res) => {
    if (req.method === 'GET' && req.path === '/oauth/v2/authorize') {
      const redirectUri = req.query.get('redirect_uri') ?? '';
      const st = req.query.get('state') ?? '';
      if (req.query.get('client_id') !== state.clientId) {
        res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Slack</title><h1>Something went wrong when authorizing this app.</h1><p>Error details: invalid_client_id</p>');
        return true;
      }
      const scopes = (req.query.get('scope') ?? '').split(',');
      if (!scopes.includes('incoming-webhook')) {
        res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Slack</title><h1>Something went wrong when authorizing this app.</h1><p>Error details: invalid_scope</p>');
        return true;
      }
      const back = new URL(redirectUri);
      if (state.deny) {
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = `${rand(11, '0123456789')}.${rand(12, '0123456789')}.${rand(32, '0123456789abcdef')}`;
        state.codes.set(code, { install: state.webhook(), redirectUri, used: false });
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', st);
      redirect(res, back.toString());
      return true;
    }
    if (req.method === 'POST' && req.path === '/api/oauth.v2.access') {
      const form = new URLSearchParams(req.body);
      const creds = clientCredentials(req, form);
      // Slack answers HTTP 200 with ok:false for every one of these.
      if (creds.id !== state.clientId) return json(res, 200, { ok: false, error: 'invalid_client_id' }), true;
      if (creds.secret !== state.clientSecret) return json(res, 200, { ok: false, error: 'bad_client_secret' }), true;
      const entry = state.codes.get(form.get('code') ?? '');
      if (!entry) return json(res, 200, { ok: false, error: 'invalid_code' }), true;
      if (entry.used) return json(res, 200, { ok: false, error: 'code_already_used' }), true;
      if ((form.get('redirect_uri') ?? '') !== entry.redirectUri) return json(res, 200, { ok: false, error: 'bad_redirect_uri' }), true;
      entry.used = true;
      const hookPath = new URL(entry.install.url).pathname.split('/');
      json(res, 200, {
        ok: true,
        app_id: 'A0KRD7HC3',
        authed_user: { id: `U${rand(10)}` },
        scope: 'incoming-webhook',
        token_type: 'bot',
        access_token: `xoxb-${rand(11, '0123456789')}-${rand(12, '0123456789')}-${rand(24, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
        bot_user_id: `U${rand(10)}`,
        team: { name: 'Reviews Team', id: hookPath[2] ?? `T${rand(9)}` },
        enterprise: null,
        is_enterprise_install: false,
        incoming_webhook: {
          channel: entry.install.channel,
          channel_id: `C${rand(10)}`,
          configuration_url: `https://reviews-team.slack.com/services/${hookPath[3] ?? `B${rand(10)}`}`,
          url: entry.install.url,
        },
      });
      return true;
    }
    return false;
  };
}

export type SlackOAuthFake = SlackOAuthState & { server: FakeServer; url: string; apiBaseUrl: string; close(): Promise<void> };

export async function startSlackOAuth(options: SlackOAuthOptions = {}): Promise<SlackOAuthFake> {
  const state = createSlackOAuthState(options);
  const server = await startFakeServer([slackOAuthRoutes(state)]);
  return Object.assign(state, { server, url: server.url, apiBaseUrl: `${server.url}/api`, close: () => server.close() });
}
