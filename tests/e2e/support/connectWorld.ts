/**
 * The connect flow's part of the end-to-end outside world (composed into outsideWorld.ts): Slack's and Discord's
 * OAuth endpoints (their installs hand out receivers of the chat fake), and control routes so that tests — which run
 * in Playwright worker processes — can add an app of their own to the store catalog, publish reviews in the App Store
 * feed, make chat receivers and read what those received:
 *
 *   POST /__control/connect/app?title=…                      → { app_id, title }   an App Store app only this test uses
 *   POST /__control/connect/publish?app_id=…&country=us     body { title, content, rating, daysAgo?, version? } → { id }
 *   POST /__control/connect/hook?platform=slack             → { id, url }         a new receiver
 *   POST /__control/connect/next-install?platform=slack&hook=<id>   the next "Add to Slack" creates this receiver's URL
 *   GET  /__control/connect/delivered?hook=<id>&count=<n>&timeout=<ms>  → { requests: [{ raw, body }] } once ≥ n
 *
 * And Slack's interactive side (the Reply button), where Slack itself would act: the server runs with
 * SLACK_SIGNING_SECRET = E2E_SLACK_SIGNING_SECRET, and a test signs what "Slack" posts to ARB with it.
 *   POST /__control/connect/slack/user?hook=<id>&email=<e>   → SlackUser   a person in the workspace that installed <id>
 *   POST /__control/connect/slack/click?user=<id>&value=<v>  → { payload, responseUrl, triggerId }   a click on Reply
 *   GET  /__control/connect/slack/opened?count=<n>&timeout=<ms>  → { opened: [{ token, triggerId, view }] } once ≥ n
 *   GET  /__control/connect/slack/responses?path=<response_url path>  → { posts: [...] } what ARB posted there
 */
import { json, type FakeHandler } from '../../fakes/http';
import type { AppStoreFeedStore } from '../../fakes/appStoreFeed';
import { CHAT_PLATFORMS, type ChatHook, type ChatPlatform, type ChatWebhooks } from '../../fakes/chatWebhooks';
import { addSlackUser, buttonClick, startSlackOAuth, type OpenedView, type SlackUser } from '../../fakes/slackOAuth';
import { startDiscordOAuth } from '../../fakes/discordOAuth';
import { itunesApp, type DemoCatalog } from '../../fixtures/catalog';

export type ConnectFakes = {
  /** SLACK_* and DISCORD_* settings for the server. */
  env: Record<string, string>;
  /** The control routes above, for the control server. */
  control: FakeHandler;
  close(): Promise<void>;
};

const MAX_WAIT_MS = 30_000;
/** The Slack app's signing secret the end-to-end server runs with (a test's stand-in for Slack signs with it too). */
export const E2E_SLACK_SIGNING_SECRET = 'e2e0slack0signing0secret0a1b2c3d4';
let nextTrackId = 6_500_000_000;

export async function startConnectFakes(world: { catalog: DemoCatalog; feed: AppStoreFeedStore; chat: ChatWebhooks }): Promise<ConnectFakes> {
  const hooks = new Map<string, ChatHook>();
  const nextInstall: Record<'slack' | 'discord', ChatHook[]> = { slack: [], discord: [] };
  const install = (platform: 'slack' | 'discord') => {
    const hook = nextInstall[platform].shift() ?? world.chat.hook(platform);
    hooks.set(hook.id, hook);
    return hook;
  };
  const slack = await startSlackOAuth({ webhook: () => ({ url: install('slack').url, channel: '#app-reviews' }) });
  const discord = await startDiscordOAuth({ webhook: () => ({ url: install('discord').url }) });

  const control: FakeHandler = async (req, res) => {
    if (!req.path.startsWith('/__control/connect/')) return false;
    const what = req.path.slice('/__control/connect/'.length);
    if (req.method === 'POST' && what === 'app') {
      const trackId = nextTrackId++;
      const title = req.query.get('title') ?? `E2E App ${trackId}`;
      world.catalog.itunes.push(itunesApp({ trackId, trackName: title, artistName: 'E2E Studio' }));
      return json(res, 200, { app_id: String(trackId), title }), true;
    }
    if (req.method === 'POST' && what === 'publish') {
      const body = JSON.parse(req.body || '{}') as { title?: string; content?: string; rating?: number; author?: string; daysAgo?: number; version?: string };
      const review = world.feed.publish(req.query.get('app_id') ?? '', req.query.get('country') ?? 'us', {
        title: body.title,
        content: body.content,
        rating: body.rating,
        author: body.author,
        ...(body.version ? { version: body.version } : {}),
        ...(body.daysAgo !== undefined ? { updated: new Date(Date.now() - body.daysAgo * 86_400_000) } : {}),
      });
      return json(res, 200, { id: review.id }), true;
    }
    if (req.method === 'POST' && what === 'hook') {
      const platform = req.query.get('platform') as ChatPlatform;
      if (!CHAT_PLATFORMS.includes(platform)) return json(res, 400, { error: `platform= must be one of ${CHAT_PLATFORMS.join(', ')}` }), true;
      const hook = world.chat.hook(platform);
      hooks.set(hook.id, hook);
      return json(res, 200, { id: hook.id, url: hook.url }), true;
    }
    if (req.method === 'POST' && what === 'next-install') {
      const platform = req.query.get('platform');
      const hook = hooks.get(req.query.get('hook') ?? '');
      if ((platform !== 'slack' && platform !== 'discord') || !hook || hook.platform !== platform) return json(res, 400, { error: 'platform= slack|discord and hook= of that platform are required' }), true;
      nextInstall[platform].push(hook);
      return json(res, 200, { ok: true }), true;
    }
    if (req.method === 'GET' && what === 'delivered') {
      const hook = hooks.get(req.query.get('hook') ?? '');
      if (!hook) return json(res, 404, { error: 'no such hook' }), true;
      const count = Number(req.query.get('count') ?? 0);
      try {
        await hook.waitForDelivered(count, Math.min(Number(req.query.get('timeout') ?? 15_000), MAX_WAIT_MS));
      } catch {
        return json(res, 408, { error: `expected ${count} delivered messages, got ${hook.delivered().length}` }), true;
      }
      return json(res, 200, { requests: hook.delivered().map((r) => ({ raw: r.raw, body: r.body })) }), true;
    }
    if (req.method === 'POST' && what === 'slack/user') {
      const hook = hooks.get(req.query.get('hook') ?? '');
      if (!hook || hook.platform !== 'slack') return json(res, 400, { error: 'hook= of a Slack receiver is required' }), true;
      // The chat fake's Slack URLs are /services/T…/B…/…, as Slack's are: the workspace is the first part.
      return json(res, 200, addSlackUser(slack, new URL(hook.url).pathname.split('/')[2], req.query.get('email'))), true;
    }
    if (req.method === 'POST' && what === 'slack/click') {
      const user = slack.users.get(req.query.get('user') ?? '');
      if (!user) return json(res, 400, { error: 'user= of a Slack user made by slack/user is required' }), true;
      return json(res, 200, buttonClick(slack, slack.url, user, { action_id: 'arb_reply', value: req.query.get('value') ?? '' })), true;
    }
    if (req.method === 'GET' && what === 'slack/opened') {
      const count = Number(req.query.get('count') ?? 0);
      const deadline = Date.now() + Math.min(Number(req.query.get('timeout') ?? 15_000), MAX_WAIT_MS);
      while (slack.opened.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (slack.opened.length < count) return json(res, 408, { error: `expected ${count} opened forms, got ${slack.opened.length}` }), true;
      return json(res, 200, { opened: slack.opened }), true;
    }
    if (req.method === 'GET' && what === 'slack/responses') {
      return json(res, 200, { posts: slack.responses.get(req.query.get('path') ?? '') ?? [] }), true;
    }
    return json(res, 404, { error: `no control route ${req.method} ${req.path}` }), true;
  };

  return {
    env: {
      SLACK_SIGNING_SECRET: E2E_SLACK_SIGNING_SECRET,
      SLACK_API_BASE_URL: slack.apiBaseUrl,
      SLACK_CLIENT_ID: slack.clientId,
      SLACK_CLIENT_SECRET: slack.clientSecret,
      DISCORD_API_BASE_URL: discord.apiBaseUrl,
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
    },
    control,
    close: async () => {
      await Promise.all([slack.close(), discord.close()]);
    },
  };
}

export type Delivered = { raw: string; body: unknown };

/** The tests' side of the routes above. */
export class ConnectControl {
  constructor(private readonly url: string) {}

  private async send<T>(method: 'GET' | 'POST', path: string, params: Record<string, string | number>, body?: unknown): Promise<T> {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const res = await fetch(`${this.url}/__control/connect/${path}?${qs}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`control connect/${path}: ${json.error ?? res.status}`);
    return json;
  }

  newApp(title: string): Promise<{ app_id: string; title: string }> {
    return this.send('POST', 'app', { title });
  }

  publish(appId: string, review: { title?: string; content: string; rating?: number; daysAgo?: number; version?: string }, country = 'us'): Promise<{ id: string }> {
    return this.send('POST', 'publish', { app_id: appId, country }, review);
  }

  newHook(platform: ChatPlatform): Promise<{ id: string; url: string }> {
    return this.send('POST', 'hook', { platform });
  }

  nextInstall(platform: 'slack' | 'discord', hookId: string): Promise<{ ok: true }> {
    return this.send('POST', 'next-install', { platform, hook: hookId });
  }

  async delivered(hookId: string, count: number, timeoutMs = 20_000): Promise<Delivered[]> {
    return (await this.send<{ requests: Delivered[] }>('GET', 'delivered', { hook: hookId, count, timeout: timeoutMs })).requests;
  }

  slackUser(hookId: string, email: string): Promise<SlackUser> {
    return this.send('POST', 'slack/user', { hook: hookId, email });
  }

  slackClick(userId: string, value: string): Promise<{ payload: Record<string, unknown>; responseUrl: string; triggerId: string }> {
    return this.send('POST', 'slack/click', { user: userId, value });
  }

  async slackOpened(count: number, timeoutMs = 20_000): Promise<OpenedView[]> {
    return (await this.send<{ opened: OpenedView[] }>('GET', 'slack/opened', { count, timeout: timeoutMs })).opened;
  }

  async slackResponses(responseUrl: string): Promise<unknown[]> {
    return (await this.send<{ posts: unknown[] }>('GET', 'slack/responses', { path: new URL(responseUrl).pathname })).posts;
  }
}
