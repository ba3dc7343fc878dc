// "Add to Slack" and "Add to Discord" through the API, against loopback Slack and Discord OAuth endpoints that answer
// in their real formats: start → the platform's approval page redirects back with code + state → the callback trades
// the code for the webhook, stores it with its channel and connects the app. The state is signed and bound to the
// browser that started the install; codes are single-use; settings the platform rejects are named.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SignJWT } from 'jose';
import { env } from '@/server/env';
import { drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { getDb } from '@/server/db/client';
import { call } from '../helpers/request';
import { memberOf, newOwner } from '../helpers/orgs';
import { marker, markersIn, newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;

beforeAll(async () => {
  w = await startConnectWorld();
}, 60_000);

afterAll(async () => {
  await w.close();
});

function configure(extra: Record<string, string> = {}) {
  w.setEnv({
    SLACK_CLIENT_ID: w.slack.clientId,
    SLACK_CLIENT_SECRET: w.slack.clientSecret,
    DISCORD_CLIENT_ID: w.discord.clientId,
    DISCORD_CLIENT_SECRET: w.discord.clientSecret,
    ...extra,
  });
}

type Started = { url: string; cookie: string };

async function start(platform: 'slack' | 'discord', payload: string, token?: string): Promise<Started> {
  const r = await call<{ url: string }>(w.api, 'POST', '/api/v1/oauth/authorize', { platform, payload }, { ip: newIp(), ...(token ? { token } : {}) });
  expect(r.status, r.text).toBe(200);
  const setCookie = r.headers.get('set-cookie') ?? '';
  return { url: r.json.data.url, cookie: setCookie.split(';')[0] };
}

/** The visitor approves on the platform's page, which sends the browser back with code and state. */
async function approve(authorizeUrl: string): Promise<URL> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

type Finished = { destination_id: string; platform: string; label: string | null; app: { title: string } };

function finishSlack(back: URL, cookie: string | null, token?: string) {
  return call<Finished>(w.api, 'POST', '/api/v1/oauth/slack/callback', { code: back.searchParams.get('code'), state: back.searchParams.get('state') }, {
    ip: newIp(),
    headers: cookie ? { Cookie: cookie } : {},
    ...(token ? { token } : {}),
  });
}

const orgOfDestination = async (id: string) => (await (await getDb()).selectFrom('destinations').select('org_id').where('id', '=', id).executeTakeFirstOrThrow()).org_id;
const teamOfDestination = async (id: string) => (await (await getDb()).selectFrom('destinations').select('slack_team_id').where('id', '=', id).executeTakeFirstOrThrow()).slack_team_id;

function appWithReview(title?: string) {
  const app = newIosApp(w, title);
  w.feed.publish(app.appId, 'us', { content: `Great ${marker(1)}`, rating: 5 });
  return app;
}

describe('without client ids', () => {
  test('starting an install answers 404 naming the settings', async () => {
    w.setEnv({});
    const r = await call(w.api, 'POST', '/api/v1/oauth/authorize', { platform: 'slack', payload: payloadFor({ app_id: '123' }) });
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ code: 'oauth_not_configured' });
    expect(r.json.error.message).toMatch(/SLACK_CLIENT_ID/);
  });
});

describe('Add to Slack', () => {
  test('start → approve → callback: the webhook and channel are stored and the welcome arrives there', async () => {
    configure();
    const app = appWithReview('Lantern Notes');
    const started = await start('slack', payloadFor({ app_id: app.appId, user_email: 'lead@example.com' }));
    const url = new URL(started.url);
    expect(url.origin).toBe(w.slack.url);
    expect(url.pathname).toBe('/oauth/v2/authorize');
    expect(url.searchParams.get('scope')).toBe('incoming-webhook,chat:write,commands,app_mentions:read');
    expect(url.searchParams.get('client_id')).toBe(w.slack.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${env().APP_URL}/connect/slack`);
    expect(started.cookie).toMatch(/^arb_oauth_nonce=/);

    const back = await approve(started.url);
    expect(back.pathname).toBe('/connect/slack');
    const r = await finishSlack(back, started.cookie);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ platform: 'slack', label: '#app-reviews', app: { title: 'Lantern Notes' } });

    // The fake created a receiver for this install: it is the webhook ARB now posts to.
    const exchange = w.slack.server.requests.find((q) => q.path === '/api/oauth.v2.access')!;
    expect(exchange.headers.authorization).toMatch(/^Basic /);
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries({ waitForRetries: true });
    const hook = w.chat.all().filter((q) => q.platform === 'slack' && q.raw.includes('Lantern Notes'));
    expect(hook[0].raw).toContain('ARB is connected');
    expect(w.chat.all().some((q) => markersIn(q.raw).includes(marker(1)))).toBe(true);

    const status = await call<Record<string, unknown>>(w.api, 'GET', `/api/v1/public/destination/${r.json.data.destination_id}`);
    expect(status.json.data).toMatchObject({ platform: 'slack', label: '#app-reviews' });
  });

  test('from the dashboard (with a session): an admin’s install is the organisation’s and only they can finish it; a member may not start one; one started without a session stays anonymous', async () => {
    configure();
    const owner = await newOwner('slackorg');
    const app = appWithReview();
    const payload = payloadFor({ app_id: app.appId });

    const started = await start('slack', payload, owner.token);
    const back = await approve(started.url);
    const noSession = await finishSlack(back, started.cookie);
    expect(noSession.status, noSession.text).toBe(401);
    expect(noSession.json.error.message).toContain('sign in as the person who started it');
    const someoneElse = await finishSlack(back, started.cookie, (await newOwner('other')).token);
    expect(someoneElse.status, someoneElse.text).toBe(401);
    const done = await finishSlack(await approve((await start('slack', payload, owner.token)).url), null, owner.token);
    expect(done.status, done.text).toBe(400); // no nonce cookie: still bound to the browser that started it
    const again = await start('slack', payload, owner.token);
    const finished = await finishSlack(await approve(again.url), again.cookie, owner.token);
    expect(finished.status, finished.text).toBe(200);
    expect(await orgOfDestination(finished.json.data.destination_id)).toBe(owner.orgId);
    expect(await teamOfDestination(finished.json.data.destination_id)).not.toBeNull(); // its messages get the Reply button
    expect(finished.headers.get('set-cookie') ?? '').not.toContain('arb_connect_claim'); // the organisation's: nothing to claim

    const member = await memberOf(owner, 'member');
    const refused = await call(w.api, 'POST', '/api/v1/oauth/authorize', { platform: 'slack', payload }, { ip: newIp(), token: member.token });
    expect(refused.status, refused.text).toBe(403);

    // Started on the home page (no session): a session at the return does not make it the organisation's.
    const anonymous = await start('slack', payloadFor({ app_id: appWithReview().appId }));
    const kept = await finishSlack(await approve(anonymous.url), anonymous.cookie, owner.token);
    expect(kept.status, kept.text).toBe(200);
    expect(await orgOfDestination(kept.json.data.destination_id)).toBeNull();
    // No workspace kept: a channel connected without an account never carries the Reply button, even once claimed.
    expect(await teamOfDestination(kept.json.data.destination_id)).toBeNull();
    // The browser that finished it holds the claim cookie naming it (HttpOnly, only for the API).
    const cookie = (kept.headers.get('set-cookie') ?? '').split(', ').find((c) => c.startsWith('arb_connect_claim='));
    expect(cookie).toMatch(/; Path=\/api\/v1; Max-Age=\d+; HttpOnly; SameSite=Lax/);
  });

  test('a code can be used once', async () => {
    configure();
    const app = appWithReview();
    const started = await start('slack', payloadFor({ app_id: app.appId }));
    const back = await approve(started.url);
    expect((await finishSlack(back, started.cookie)).status).toBe(200);
    const again = await finishSlack(back, started.cookie);
    expect(again.status).toBe(400);
    expect(again.json.error).toMatchObject({ code: 'oauth_code_invalid' });
    expect(again.json.error.message).toMatch(/expired or was already used/);
  });

  test('a state that was altered, forged, expired or made for Discord is refused', async () => {
    configure();
    const app = appWithReview();
    const started = await start('slack', payloadFor({ app_id: app.appId }));
    const back = await approve(started.url);
    const state = back.searchParams.get('state')!;
    const code = back.searchParams.get('code')!;
    const tryState = (s: string) => call(w.api, 'POST', '/api/v1/oauth/slack/callback', { code, state: s }, { headers: { Cookie: started.cookie } });

    const [head, body, sig] = state.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const altered = `${head}.${Buffer.from(JSON.stringify({ ...claims, pl: payloadFor({ app_id: '1' }) })).toString('base64url')}.${sig}`;
    expect((await tryState(altered)).json.error).toMatchObject({ code: 'invalid_state' });

    const key = new TextEncoder().encode('x'.repeat(64));
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect((await tryState(forged)).status).toBe(400);

    const realKey = new TextEncoder().encode(env().AUTH_SECRET);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }).setProtectedHeader({ alg: 'HS256' }).sign(realKey);
    const e = await tryState(expired);
    expect(e.status).toBe(400);
    expect(e.json.error.message).toMatch(/expired/);

    const forDiscord = await new SignJWT({ ...claims, plt: 'discord' }).setProtectedHeader({ alg: 'HS256' }).sign(realKey);
    expect((await tryState(forDiscord)).json.error.message).toMatch(/another platform/);

    // The untouched state still works: none of the above used the code up.
    expect((await tryState(state)).status).toBe(200);
  });

  test('a state finished in another browser (no nonce cookie, or someone else’s) is refused', async () => {
    configure();
    const app = appWithReview();
    const mine = await start('slack', payloadFor({ app_id: app.appId }));
    const theirs = await start('slack', payloadFor({ app_id: app.appId }));
    const back = await approve(mine.url);
    const none = await finishSlack(back, null);
    expect(none.status).toBe(400);
    expect(none.json.error.message).toMatch(/another browser/);
    expect((await finishSlack(back, theirs.cookie)).status).toBe(400);
  });

  test('the payload is checked before the visitor is sent to Slack', async () => {
    configure();
    const bad = await call(w.api, 'POST', '/api/v1/oauth/authorize', { platform: 'slack', payload: payloadFor({ app_id: 'not-a-number' }) });
    expect(bad.status).toBe(400);
    const withUrl = await call(w.api, 'POST', '/api/v1/oauth/authorize', {
      platform: 'slack',
      payload: payloadFor({ app_id: '123', webhook_url: 'https://hooks.slack.com/services/T1/B1/x' }),
    });
    expect(withUrl.status).toBe(400);
    expect(withUrl.json.error.message).toMatch(/leave it empty/);
    const teams = await call(w.api, 'POST', '/api/v1/oauth/authorize', { platform: 'msteams', payload: payloadFor({ app_id: '123' }) });
    expect(teams.status).toBe(400);
  });

  test('a client secret Slack rejects → 502 that names the settings to check', async () => {
    configure({ SLACK_CLIENT_SECRET: 'wrong-secret' });
    const app = appWithReview();
    const started = await start('slack', payloadFor({ app_id: app.appId }));
    const r = await finishSlack(await approve(started.url), started.cookie);
    expect(r.status).toBe(502);
    expect(r.json.error.message).toMatch(/SLACK_CLIENT_SECRET/);
  });

  test('a redirect address Slack did not see at approval → 502 that names it', async () => {
    configure();
    const app = appWithReview();
    const started = await start('slack', payloadFor({ app_id: app.appId }));
    const back = await approve(started.url);
    configure({ APP_URL: 'http://elsewhere.test' });
    const r = await finishSlack(back, started.cookie);
    expect(r.status).toBe(502);
    expect(r.json.error.message).toMatch(/http:\/\/elsewhere\.test\/connect\/slack/);
  });
});

describe('Add to Discord (v1/oauth/bot/connect)', () => {
  test('start → approve → bot/connect: the webhook is stored and the welcome arrives in Discord’s format', async () => {
    configure();
    const app = appWithReview('Moss Timer');
    const started = await start('discord', payloadFor({ app_id: app.appId }));
    const url = new URL(started.url);
    expect(url.pathname).toBe('/oauth2/authorize');
    expect(url.searchParams.get('scope')).toBe('webhook.incoming');
    expect(url.searchParams.get('response_type')).toBe('code');
    const back = await approve(started.url);
    expect(back.pathname).toBe('/connect/discord');
    const r = await call<Finished>(
      w.api,
      'POST',
      '/api/v1/oauth/bot/connect',
      { platform: 'discord', code: back.searchParams.get('code'), state: back.searchParams.get('state') },
      { headers: { Cookie: started.cookie }, ip: newIp() },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ platform: 'discord', app: { title: 'Moss Timer' } });
    await pollAppNow({ store: 'apple_app_store', appId: app.appId });
    await drainDeliveries({ waitForRetries: true });
    const got = w.chat.all().filter((q) => q.platform === 'discord' && q.raw.includes('Moss Timer'));
    expect(got[0].body).toMatchObject({ allowed_mentions: { parse: [] }, embeds: expect.any(Array) });
    expect(got[0].query.get('wait')).toBe('true');
  });

  test('a Slack state cannot finish a Discord install, and a used Discord code is refused', async () => {
    configure();
    const app = appWithReview();
    const slack = await start('slack', payloadFor({ app_id: app.appId }));
    const slackBack = await approve(slack.url);
    const cross = await call(w.api, 'POST', '/api/v1/oauth/bot/connect', { platform: 'discord', code: 'x', state: slackBack.searchParams.get('state') }, { headers: { Cookie: slack.cookie } });
    expect(cross.status).toBe(400);
    expect(cross.json.error.message).toMatch(/another platform/);

    const discord = await start('discord', payloadFor({ app_id: app.appId }));
    const back = await approve(discord.url);
    const body = { platform: 'discord', code: back.searchParams.get('code'), state: back.searchParams.get('state') };
    expect((await call(w.api, 'POST', '/api/v1/oauth/bot/connect', body, { headers: { Cookie: discord.cookie } })).status).toBe(200);
    const reused = await call(w.api, 'POST', '/api/v1/oauth/bot/connect', body, { headers: { Cookie: discord.cookie } });
    expect(reused.status).toBe(400);
    expect(reused.json.error.code).toBe('oauth_code_invalid');
  });

  test('missing fields → 400', async () => {
    const r = await call(w.api, 'POST', '/api/v1/oauth/bot/connect', { platform: 'discord', state: 'x' });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/code/);
  });
});
