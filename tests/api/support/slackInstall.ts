/**
 * "Add to Slack" through the real OAuth routes against the Slack fake: authorize as `owner`, follow the fake's
 * approval redirect, finish the callback with the state cookie. The channel's incoming webhook is a receiver of the
 * world's chat fake. Used by the tests of Slack's Reply button and of approvals in Slack.
 */
import { expect } from 'vitest';
import { call } from '../../helpers/request';
import type { SignedInUser } from '../../helpers/orgs';
import type { ChatHook } from '../../fakes/chatWebhooks';
import { payloadFor, type ConnectWorld } from './connectWorld';
import { as } from './replyStores';

export type SlackChannel = { hook: ChatHook; destinationId: string; teamId: string; authorizeUrl: URL };

/** `channel`: the channel's name; `channelId`: its id as Slack's install answer gives it (the fake makes one up otherwise). */
export async function addToSlack(w: ConnectWorld, owner: SignedInUser, appId: string, opts: { channel?: string; channelId?: string } = {}): Promise<SlackChannel> {
  let hook: ChatHook | undefined;
  w.slack.webhook = () => {
    hook = w.chat.hook('slack');
    return { url: hook.url, channel: opts.channel ?? '#app-reviews', ...(opts.channelId ? { channelId: opts.channelId } : {}) };
  };
  const started = await call<{ url: string }>(w.api, 'POST', '/api/v1/oauth/authorize', { platform: 'slack', payload: payloadFor({ app_id: appId }) }, as(owner));
  expect(started.status, started.text).toBe(200);
  const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0];
  const back = new URL((await fetch(started.json.data.url, { redirect: 'manual' })).headers.get('location')!);
  const done = await call<{ destination_id: string }>(w.api, 'POST', '/api/v1/oauth/slack/callback', { code: back.searchParams.get('code'), state: back.searchParams.get('state') }, { ...as(owner), headers: { Cookie: cookie } });
  expect(done.status, done.text).toBe(200);
  return { hook: hook!, destinationId: done.json.data.destination_id, teamId: new URL(hook!.url).pathname.split('/')[2], authorizeUrl: new URL(started.json.data.url) };
}
