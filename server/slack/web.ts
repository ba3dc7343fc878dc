/**
 * The few Slack Web API calls the Reply button and Ask ARB need, with the workspace's bot token:
 *   POST {SLACK_API_BASE_URL}/views.open  { trigger_id, view }  → { ok, view }   (the trigger id lives 3 seconds)
 *   POST {SLACK_API_BASE_URL}/views.update { view_id, hash, view } → { ok, view: { id, hash } }   (hash_conflict when
 *        the form changed since the hash was read; not_found once it is closed)
 *   POST {SLACK_API_BASE_URL}/chat.update { channel, ts, text, blocks } → { ok, channel, ts }   (chat:write; the app's own
 *        messages, those of its incoming webhook included)
 *   POST {SLACK_API_BASE_URL}/chat.postMessage { channel, text, thread_ts? } → { ok, channel, ts }   (chat:write; the
 *        answer to a mention, in its thread)
 * and the interaction's response_url (a message update or an ephemeral note; no token, the URL is the credential).
 * Slack answers HTTP 200 with `ok: false` and an error code for refusals; those become SlackApiError.
 */
import { env } from '../env';
import { log } from '../log';

const TIMEOUT_MS = 2_500; // inside Slack's 3 s for an interaction's answer

export class SlackApiError extends Error {
  constructor(
    readonly method: string,
    readonly code: string,
  ) {
    super(`Slack ${method} failed: ${code}`);
  }
}

const base = () => env().SLACK_API_BASE_URL.replace(/\/+$/, '');

async function slackJson(method: string, res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: reported below
  }
  if (!json || typeof json !== 'object') throw new SlackApiError(method, `http_${res.status}`);
  const body = json as Record<string, unknown>;
  if (body.ok !== true) throw new SlackApiError(method, typeof body.error === 'string' ? body.error : `http_${res.status}`);
  return body;
}

async function call(method: string, init: RequestInit): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(`${base()}/${method}`, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    log.warn('slack api call failed', { method, err: (err as Error).message });
    throw new SlackApiError(method, 'no_answer');
  }
  return slackJson(method, res);
}

const jsonPost = (botToken: string, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { Authorization: `Bearer ${botToken}`, 'Content-Type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

export async function openView(botToken: string, triggerId: string, view: unknown): Promise<void> {
  await call('views.open', jsonPost(botToken, { trigger_id: triggerId, view }));
}

/**
 * Replaces the open form `viewId` with `view`, unless it changed since `hash` was read (SlackApiError hash_conflict).
 * Resolves with the new view's id and hash, for the next update.
 */
export async function updateView(botToken: string, viewId: string, hash: string | undefined, view: unknown): Promise<{ id: string; hash: string | undefined }> {
  const body = await call('views.update', jsonPost(botToken, { view_id: viewId, ...(hash ? { hash } : {}), view }));
  const next = body.view as { id?: unknown; hash?: unknown } | undefined;
  return { id: typeof next?.id === 'string' ? next.id : viewId, hash: typeof next?.hash === 'string' ? next.hash : undefined };
}

/** Replaces the app's message `ts` in `channel` (its blocks and notification text). */
export async function updateMessage(botToken: string, channel: string, ts: string, message: { text?: string; blocks?: unknown }): Promise<void> {
  await call('chat.update', jsonPost(botToken, { channel, ts, ...message }));
}

/**
 * A response_url is where Slack lets the app update the message: only Slack's own hooks host (a loopback host passes
 * too where ALLOW_PRIVATE_WEBHOOKS lets test fakes stand in for Slack). An interaction's is under /actions/, a slash
 * command's under /commands/.
 */
export function isSlackResponseUrl(raw: string, allowPrivate: boolean, kind: 'actions' | 'commands' = 'actions'): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (!url.pathname.startsWith(`/${kind}/`) || url.username || url.password) return false;
  if (url.protocol === 'https:' && (url.hostname === 'hooks.slack.com' || url.hostname === 'hooks.slack-gov.com') && !url.port) return true;
  return allowPrivate && (url.protocol === 'http:' || url.protocol === 'https:');
}

/**
 * Posts to an interaction's response_url: `{ replace_original: true, …message }` updates the message the button was
 * on, `{ response_type: 'ephemeral', text }` shows a note only the clicker sees. Slack answers 200 "ok" (not JSON).
 */
export async function postToResponseUrl(responseUrl: string, payload: unknown): Promise<boolean> {
  try {
    const res = await fetch(responseUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(payload),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS * 2),
    });
    await res.text();
    if (!res.ok) log.warn('slack response_url refused', { status: res.status });
    return res.ok;
  } catch (err) {
    log.warn('slack response_url failed', { err: (err as Error).message });
    return false;
  }
}

/**
 * Posts a message as the app in `channel` (scope chat:write), in the thread of `threadTs` when given. Mentions and
 * links in the text are left as written (`link_names` off; the text is escaped by its maker), and nothing unfurls.
 */
export async function postMessage(botToken: string, message: { channel: string; text: string; threadTs?: string }): Promise<void> {
  await call(
    'chat.postMessage',
    jsonPost(botToken, { channel: message.channel, text: message.text, ...(message.threadTs ? { thread_ts: message.threadTs } : {}), link_names: false, unfurl_links: false, unfurl_media: false }),
  );
}
