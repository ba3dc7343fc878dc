/**
 * A loopback Slack for "Add to Slack" (OAuth v2, scope incoming-webhook), speaking Slack's real formats:
 *   GET  /oauth/v2/authorize?client_id&scope&redirect_uri&state   the approval page; here the visitor approves at once
 *        (302 to redirect_uri?code=…&state=…), or cancels (…?error=access_denied&state=…) when `deny` is set
 *   POST /api/oauth.v2.access   (form: code, redirect_uri; client id/secret as HTTP Basic or form fields)
 *        → 200 { ok: true, access_token, team, incoming_webhook: { channel, channel_id, configuration_url, url } }
 *        → 200 { ok: false, error: 'invalid_code' | 'code_already_used' | 'bad_redirect_uri' | 'invalid_client_id' | 'bad_client_secret' }
 * SLACK_API_BASE_URL = `${fake.url}/api` (so the authorize page is at the same origin, as slack.com has it).
 *
 * And the interactive side, for the Reply button (Slack's real formats, bot tokens from the installs above checked):
 *   GET  /api/users.info?user=U…   → { ok, user: { id, team_id, name, profile: { email } } } | { ok: false, error }
 *   POST /api/views.open { trigger_id, view }  → { ok, view: { id, hash, … } } (a trigger id is good once, for 3 s) | { ok: false, error }
 *   POST /api/views.update { view_id, hash?, view } → { ok, view: { id, hash, … } } | { ok: false, error: not_found | hash_conflict }
 *        Like Slack, an input keeps what the person typed when its block id and action id stay; otherwise it shows the
 *        new initial_value (`typeInto` types, `shownInputs` reads what the person sees, `modalAction` clicks a button
 *        in the form, `submitShown` submits it as it stands)
 *   POST /api/chat.update { channel, ts, text, blocks } → { ok, channel, ts } | { ok: false, error: missing_scope } (a
 *        token whose install did not grant chat:write)
 *   POST /api/chat.postMessage { channel, text, thread_ts? } → { ok, channel, ts } | { ok: false, error: missing_scope }
 *        (recorded in `posted`: the answer to a mention, in its thread)
 *   POST /actions/T…/…/…           an interaction's response_url: records what ARB posts there
 *   POST /commands/T…/…/…          a slash command's response_url: the same
 *   interaction(…)                 a signed request body and headers, as Slack sends a click or a form submission
 *   slashCommand(…), mention(…)    a slash command's form and an app_mention event, as Slack sends them
 *
 *   const slack = await startSlackOAuth({ webhook: () => ({ url: chat.hook('slack').url, channel: '#reviews' }) });
 */
import { createHmac, randomBytes } from 'node:crypto';
import { json, startFakeServer, type FakeHandler, type FakeServer, type RecordedRequest } from './http';

/** `channelId`: the channel's id in Slack's install answer (random when not given). */
export type SlackInstall = { url: string; channel: string; channelId?: string };

export type SlackOAuthOptions = {
  clientId?: string;
  clientSecret?: string;
  /** The incoming webhook each approval creates (called once per approval). */
  webhook?: () => SlackInstall;
};

export type SlackUser = { id: string; teamId: string; name: string; email: string | null };
export type OpenedView = { token: string; triggerId: string; view: Record<string, unknown>; id: string };
/** A form as Slack holds it: its view, hash, and the value each input shows (block id → action id → text). */
export type HeldView = { id: string; team: string; view: Record<string, unknown>; hash: string; values: Record<string, Record<string, string>> };
export type ViewUpdate = { token: string; viewId: string; hash: string | undefined; view: Record<string, unknown>; answer: string; at: number };
export type MessageUpdate = { token: string; channel: string; ts: string; text?: string; blocks?: unknown[] };
export type PostedMessage = { token: string; channel: string; text: string; threadTs: string | null; ts: string; linkNames: unknown };

export type SlackOAuthState = {
  clientId: string;
  clientSecret: string;
  /** Next approvals are cancelled by the visitor. */
  deny: boolean;
  /** Codes handed out: code → the install it stands for and whether it was used. */
  codes: Map<string, { install: SlackInstall; redirectUri: string; used: boolean; scope: string }>;
  webhook: () => SlackInstall;
  /** Bot tokens handed out by installs → their workspace; revoke by deleting. */
  tokens: Map<string, string>;
  users: Map<string, SlackUser>;
  triggers: Map<string, number>;
  opened: OpenedView[];
  /** What ARB posted to each response_url (by path). */
  responses: Map<string, unknown[]>;
  /** The next views.open calls answer this error. */
  viewsOpenError: string | null;
  /** The scopes each bot token was granted. */
  tokenScopes: Map<string, string>;
  /** Open forms by view id. */
  views: Map<string, HeldView>;
  /** Every views.update received, with what Slack answered ('ok' or the error). */
  viewUpdates: ViewUpdate[];
  /** Every chat.update taken. */
  messageUpdates: MessageUpdate[];
  /** The next chat.update calls answer this error. */
  chatUpdateError: string | null;
  /** Every chat.postMessage taken. */
  posted: PostedMessage[];
  /** Each workspace's bot user (the app as a Slack user: what a mention of it names), by team id. */
  botUsers: Map<string, string>;
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
    tokens: new Map(),
    users: new Map(),
    triggers: new Map(),
    opened: [],
    responses: new Map(),
    viewsOpenError: null,
    tokenScopes: new Map(),
    views: new Map(),
    viewUpdates: [],
    messageUpdates: [],
    chatUpdateError: null,
    posted: [],
    botUsers: new Map(),
  };
}

/** A Slack user of workspace `teamId` (their profile's e-mail may be missing, as Slack allows). */
export function addSlackUser(state: SlackOAuthState, teamId: string, email: string | null, name = 'maya'): SlackUser {
  const user = { id: `U${rand(10)}`, teamId, name, email };
  state.users.set(user.id, user);
  return user;
}

function bearerTeam(state: SlackOAuthState, req: RecordedRequest): string | null {
  const auth = req.headers.authorization;
  if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) return null;
  return state.tokens.get(auth.slice(7)) ?? null;
}

/**
 * Slack's signature over a request it sends (v0: HMAC-SHA256 of `v0:{timestamp}:{body}`, hex), written here from the
 * published scheme so ARB's check is tested against an implementation that is not its own.
 */
export function slackSignatureHeaders(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Slack-Request-Timestamp': String(timestamp), 'X-Slack-Signature': signature };
}

const newTriggerId = () => `${rand(13, '0123456789')}.${rand(12, '0123456789')}.${rand(32, '0123456789abcdef')}`;

/** A signed JSON request, as Slack posts Events API deliveries. */
export function slackJsonSignatureHeaders(secret: string, body: string, timestamp?: number): Record<string, string> {
  return { ...slackSignatureHeaders(secret, body, timestamp), 'Content-Type': 'application/json' };
}

/** A slash command `command text` typed by `user` in `channel`, as Slack posts it (a form), with its response_url. */
export function slashCommand(baseUrl: string, user: SlackUser, channel: string, text: string, command = '/arb'): { body: string; responseUrl: string; path: string } {
  const path = `/commands/${user.teamId}/${rand(13, '0123456789')}/${rand(24, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
  const responseUrl = `${baseUrl}${path}`;
  const body = new URLSearchParams({
    token: 'verification-token-deprecated',
    team_id: user.teamId,
    team_domain: 'reviews-team',
    channel_id: channel,
    channel_name: channel.startsWith('D') ? 'directmessage' : 'app-reviews',
    user_id: user.id,
    user_name: user.name,
    command,
    text,
    api_app_id: 'A0KRD7HC3',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: newTriggerId(),
  }).toString();
  return { body, responseUrl, path };
}

/** An app_mention event of the app (its bot user `botUserId`) by `user` in `channel`, as the Events API posts it. */
export function mention(user: SlackUser, botUserId: string, channel: string, text: string, o: { threadTs?: string; botId?: string } = {}): { body: string; eventId: string; ts: string } {
  const eventId = `Ev${rand(10)}`;
  const ts = `${Math.floor(Date.now() / 1000)}.${rand(6, '0123456789')}`;
  const body = JSON.stringify({
    token: 'verification-token-deprecated',
    team_id: user.teamId,
    api_app_id: 'A0KRD7HC3',
    event: {
      type: 'app_mention',
      user: user.id,
      text: `<@${botUserId}> ${text}`,
      ts,
      channel,
      event_ts: ts,
      team: user.teamId,
      ...(o.threadTs ? { thread_ts: o.threadTs } : {}),
      ...(o.botId ? { bot_id: o.botId } : {}),
    },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: user.teamId, user_id: botUserId, is_bot: true }],
  });
  return { body, eventId, ts };
}

/** A click on a message button, as Slack posts it to the app's Interactivity Request URL (form field `payload`). */
export function buttonClick(
  state: SlackOAuthState,
  baseUrl: string,
  user: SlackUser,
  action: { action_id: string; value: string },
  channel = 'C0123456789',
): { payload: Record<string, unknown>; responseUrl: string; triggerId: string } {
  const triggerId = newTriggerId();
  state.triggers.set(triggerId, Date.now() + 3000);
  const responseUrl = `${baseUrl}/actions/${user.teamId}/${rand(13, '0123456789')}/${rand(24, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
  const payload = {
    type: 'block_actions',
    user: { id: user.id, username: user.name, name: user.name, team_id: user.teamId },
    api_app_id: 'A0KRD7HC3',
    token: 'verification-token-deprecated',
    container: { type: 'message', message_ts: '1732460000.000100', channel_id: channel, is_ephemeral: false },
    trigger_id: triggerId,
    team: { id: user.teamId, domain: 'reviews-team' },
    channel: { id: channel, name: 'app-reviews' },
    message: { type: 'message', ts: '1732460000.000100', text: 'review', blocks: [] },
    response_url: responseUrl,
    actions: [{ type: 'button', action_id: action.action_id, block_id: 'b1', text: { type: 'plain_text', text: 'Reply', emoji: true }, value: action.value, action_ts: `${Date.now() / 1000}` }],
  };
  return { payload, responseUrl, triggerId };
}

/** A view_submission of `view` by `user`, as Slack posts it. */
function submission(user: SlackUser, view: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'view_submission',
    team: { id: user.teamId, domain: 'reviews-team' },
    user: { id: user.id, username: user.name, name: user.name, team_id: user.teamId },
    api_app_id: 'A0KRD7HC3',
    trigger_id: newTriggerId(),
    view,
    response_urls: [],
  };
}

/** The submission of a modal ARB opened, with `values` typed in its inputs (block id → action id → text). */
export function viewSubmission(user: SlackUser, opened: OpenedView, values: Record<string, Record<string, string>>): Record<string, unknown> {
  const v = opened.view;
  const state = Object.fromEntries(
    Object.entries(values).map(([block, inputs]) => [block, Object.fromEntries(Object.entries(inputs).map(([id, value]) => [id, { type: 'plain_text_input', value }]))]),
  );
  return submission(user, { id: `V${rand(10)}`, team_id: user.teamId, type: 'modal', callback_id: v.callback_id, private_metadata: v.private_metadata, blocks: v.blocks, state: { values: state }, hash: rand(16) });
}

type InputBlock = { type: string; block_id?: string; element?: { type?: string; action_id?: string; initial_value?: string } };
const inputsOf = (view: Record<string, unknown>) => ((view.blocks as InputBlock[] | undefined) ?? []).filter((b) => b.type === 'input' && b.block_id && b.element?.action_id);
const viewHash = () => `${Math.floor(Date.now() / 1000)}.${rand(8, '0123456789')}`;

/** What each input of a form shows: kept from `before` where its block id and action id are the same, else its initial value. */
function shownValues(view: Record<string, unknown>, before: Record<string, Record<string, string>> = {}): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const b of inputsOf(view)) {
    const kept = before[b.block_id!]?.[b.element!.action_id!];
    out[b.block_id!] = { [b.element!.action_id!]: kept ?? b.element!.initial_value ?? '' };
  }
  return out;
}

/** The person types `text` into the form's input `blockId` (replacing what it showed). */
export function typeInto(state: SlackOAuthState, viewId: string, blockId: string, text: string): void {
  const held = state.views.get(viewId)!;
  const input = inputsOf(held.view).find((b) => b.block_id === blockId);
  if (!input) throw new Error(`no input ${blockId} in the form (${inputsOf(held.view).map((b) => b.block_id).join(', ')})`);
  held.values[blockId] = { [input.element!.action_id!]: text };
}

/** What the person sees in the form's inputs: block id → text. */
export function shownInputs(state: SlackOAuthState, viewId: string): Record<string, string> {
  const held = state.views.get(viewId)!;
  return Object.fromEntries(Object.entries(held.values).map(([block, v]) => [block, Object.values(v)[0] ?? '']));
}

function viewPayload(held: HeldView) {
  const values = Object.fromEntries(
    Object.entries(held.values).map(([block, inputs]) => [block, Object.fromEntries(Object.entries(inputs).map(([id, value]) => [id, { type: 'plain_text_input', value: value === '' ? null : value }]))]),
  );
  const v = held.view;
  return {
    id: held.id,
    team_id: held.team,
    type: 'modal',
    callback_id: v.callback_id,
    private_metadata: v.private_metadata,
    blocks: v.blocks,
    title: v.title,
    submit: v.submit,
    close: v.close,
    state: { values },
    hash: held.hash,
    root_view_id: held.id,
    previous_view_id: null,
    app_id: 'A0KRD7HC3',
    bot_id: 'B0KRD7HC3',
  };
}

/** A click on button `actionId` inside the open form `viewId`, as Slack posts it (a block_actions from a view: no response_url). */
export function modalAction(state: SlackOAuthState, user: SlackUser, viewId: string, actionId: string): Record<string, unknown> {
  const held = state.views.get(viewId)!;
  const block = ((held.view.blocks as Array<{ type: string; block_id?: string; elements?: Array<{ action_id?: string; text?: unknown; value?: string }> }>) ?? []).find((b) =>
    b.elements?.some((e) => e.action_id === actionId),
  );
  if (!block) throw new Error(`no button ${actionId} in the form`);
  const button = block.elements!.find((e) => e.action_id === actionId)!;
  return {
    type: 'block_actions',
    user: { id: user.id, username: user.name, name: user.name, team_id: user.teamId },
    api_app_id: 'A0KRD7HC3',
    token: 'verification-token-deprecated',
    container: { type: 'view', view_id: viewId },
    trigger_id: newTriggerId(),
    team: { id: user.teamId, domain: 'reviews-team' },
    enterprise: null,
    is_enterprise_install: false,
    view: viewPayload(held),
    actions: [{ type: 'button', action_id: actionId, block_id: block.block_id, text: button.text, ...(button.value ? { value: button.value } : {}), action_ts: `${Date.now() / 1000}` }],
  };
}

/** The submission of the open form `viewId` as it stands (what the person sees in its inputs). */
export function submitShown(state: SlackOAuthState, user: SlackUser, viewId: string): Record<string, unknown> {
  return submission(user, viewPayload(state.views.get(viewId)!));
}

/** The form body Slack posts: `payload=<JSON>`. */
export const interactionBody = (payload: unknown) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

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
        state.codes.set(code, { install: state.webhook(), redirectUri, used: false, scope: scopes.join(',') });
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', st);
      redirect(res, back.toString());
      return true;
    }
    if (req.method === 'GET' && req.path === '/api/users.info') {
      const team = bearerTeam(state, req);
      if (!team) return json(res, 200, { ok: false, error: 'invalid_auth' }), true;
      const user = state.users.get(req.query.get('user') ?? '');
      if (!user || user.teamId !== team) return json(res, 200, { ok: false, error: 'user_not_found' }), true;
      json(res, 200, { ok: true, user: { id: user.id, team_id: user.teamId, name: user.name, deleted: false, is_bot: false, profile: { real_name: user.name, display_name: user.name, ...(user.email ? { email: user.email } : {}) } } });
      return true;
    }
    if (req.method === 'POST' && req.path === '/api/views.open') {
      const team = bearerTeam(state, req);
      if (!team) return json(res, 200, { ok: false, error: 'invalid_auth' }), true;
      if (state.viewsOpenError) return json(res, 200, { ok: false, error: state.viewsOpenError }), true;
      let body: { trigger_id?: string; view?: Record<string, unknown> };
      try {
        body = JSON.parse(req.body) as typeof body;
      } catch {
        return json(res, 200, { ok: false, error: 'invalid_json' }), true;
      }
      const expires = state.triggers.get(body.trigger_id ?? '');
      if (!expires || expires < Date.now()) return json(res, 200, { ok: false, error: expires ? 'expired_trigger_id' : 'invalid_trigger_id' }), true;
      state.triggers.delete(body.trigger_id!);
      if (!body.view || body.view.type !== 'modal') return json(res, 200, { ok: false, error: 'invalid_arguments' }), true;
      const id = `V${rand(10)}`;
      const held: HeldView = { id, team, view: body.view, hash: viewHash(), values: shownValues(body.view) };
      state.views.set(id, held);
      state.opened.push({ token: req.headers.authorization!.slice(7), triggerId: body.trigger_id!, view: body.view, id });
      json(res, 200, { ok: true, view: viewPayload(held) });
      return true;
    }
    if (req.method === 'POST' && req.path === '/api/views.update') {
      const team = bearerTeam(state, req);
      if (!team) return json(res, 200, { ok: false, error: 'invalid_auth' }), true;
      let body: { view_id?: string; hash?: string; view?: Record<string, unknown> | string };
      try {
        body = JSON.parse(req.body) as typeof body;
      } catch {
        return json(res, 200, { ok: false, error: 'invalid_json' }), true;
      }
      const view = typeof body.view === 'string' ? (JSON.parse(body.view) as Record<string, unknown>) : body.view;
      const record = (answer: string) => state.viewUpdates.push({ token: req.headers.authorization!.slice(7), viewId: body.view_id ?? '', hash: body.hash, view: view ?? {}, answer, at: Date.now() });
      const held = state.views.get(body.view_id ?? '');
      if (!held || held.team !== team) return record('not_found'), json(res, 200, { ok: false, error: 'not_found' }), true;
      if (body.hash !== undefined && body.hash !== held.hash) return record('hash_conflict'), json(res, 200, { ok: false, error: 'hash_conflict' }), true;
      if (!view || view.type !== 'modal') return record('invalid_arguments'), json(res, 200, { ok: false, error: 'invalid_arguments' }), true;
      record('ok');
      held.values = shownValues(view, held.values);
      held.view = view;
      held.hash = viewHash();
      json(res, 200, { ok: true, view: viewPayload(held) });
      return true;
    }
    if (req.method === 'POST' && req.path === '/api/chat.update') {
      const team = bearerTeam(state, req);
      if (!team) return json(res, 200, { ok: false, error: 'invalid_auth' }), true;
      const token = req.headers.authorization!.slice(7);
      const granted = (state.tokenScopes.get(token) ?? '').split(',');
      if (!granted.includes('chat:write')) return json(res, 200, { ok: false, error: 'missing_scope', needed: 'chat:write', provided: granted.join(',') }), true;
      if (state.chatUpdateError) return json(res, 200, { ok: false, error: state.chatUpdateError }), true;
      const body = JSON.parse(req.body) as { channel?: string; ts?: string; text?: string; blocks?: unknown[] };
      if (!body.channel || !body.ts) return json(res, 200, { ok: false, error: body.channel ? 'message_not_found' : 'channel_not_found' }), true;
      state.messageUpdates.push({ token, channel: body.channel, ts: body.ts, text: body.text, blocks: body.blocks });
      json(res, 200, { ok: true, channel: body.channel, ts: body.ts, text: body.text ?? '' });
      return true;
    }
    if (req.method === 'POST' && req.path === '/api/chat.postMessage') {
      const team = bearerTeam(state, req);
      if (!team) return json(res, 200, { ok: false, error: 'invalid_auth' }), true;
      const token = req.headers.authorization!.slice(7);
      const granted = (state.tokenScopes.get(token) ?? '').split(',');
      if (!granted.includes('chat:write')) return json(res, 200, { ok: false, error: 'missing_scope', needed: 'chat:write', provided: granted.join(',') }), true;
      const body = JSON.parse(req.body) as { channel?: string; text?: string; thread_ts?: string; link_names?: unknown };
      if (!body.channel) return json(res, 200, { ok: false, error: 'channel_not_found' }), true;
      if (!body.text) return json(res, 200, { ok: false, error: 'no_text' }), true;
      const ts = `${Math.floor(Date.now() / 1000)}.${rand(6, '0123456789')}`;
      state.posted.push({ token, channel: body.channel, text: body.text, threadTs: body.thread_ts ?? null, ts, linkNames: body.link_names });
      json(res, 200, { ok: true, channel: body.channel, ts, message: { type: 'message', text: body.text, ts, ...(body.thread_ts ? { thread_ts: body.thread_ts } : {}) } });
      return true;
    }
    if (req.method === 'POST' && (req.path.startsWith('/actions/') || req.path.startsWith('/commands/'))) {
      const list = state.responses.get(req.path) ?? [];
      list.push(JSON.parse(req.body) as unknown);
      state.responses.set(req.path, list);
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('ok');
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
      const teamId = hookPath[2] ?? `T${rand(9)}`;
      const token = `xoxb-${rand(11, '0123456789')}-${rand(12, '0123456789')}-${rand(24, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
      state.tokens.set(token, teamId);
      state.tokenScopes.set(token, entry.scope);
      // One app user per workspace, as in Slack: a reinstall keeps it.
      const botUserId = state.botUsers.get(teamId) ?? `U${rand(10)}`;
      state.botUsers.set(teamId, botUserId);
      json(res, 200, {
        ok: true,
        app_id: 'A0KRD7HC3',
        authed_user: { id: `U${rand(10)}` },
        scope: entry.scope,
        token_type: 'bot',
        access_token: token,
        bot_user_id: botUserId,
        team: { name: 'Reviews Team', id: teamId },
        enterprise: null,
        is_enterprise_install: false,
        incoming_webhook: {
          channel: entry.install.channel,
          channel_id: entry.install.channelId ?? `C${rand(10)}`,
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
