// Asking ARB in Slack, through the real routes, a real database (PGlite and PostgreSQL), the loopback Slack (it installs
// ARB with "Add to Slack", signs slash commands and Events API deliveries with its own implementation of Slack's
// scheme, records what ARB posts to a command's response_url and every chat.postMessage) and the loopback model.
// `/arb <question>` in a channel ARB posts to is answered about that channel's apps only (another app of the same
// organisation, and another organisation's reviews in the same channel id of another workspace, are never cited);
// in a DM, a linked member's organisation; unlinked, the words and a one-time link; a channel of two organisations
// answers a linked member of one; the plan's Ask ARB questions apply; a mention is answered in its thread once,
// however often Slack retries it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { env } from '@/server/env';
import { usageMonth } from '@/server/plans/data';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith, type Seed } from '../helpers/seedReviews';
import { startFakeLlm, type ChatBody, type FakeLlm } from '../fakes/llm';
import { addSlackUser, buttonClick, interactionBody, mention, slackJsonSignatureHeaders, slackSignatureHeaders, slashCommand, type SlackUser } from '../fakes/slackOAuth';
import { newIosApp, newIp, startConnectWorld, type ConnectWorld } from './support/connectWorld';
import { addToSlack as installSlack } from './support/slackInstall';

const SIGNING_SECRET = 'e4c1b0aa9f3d4c21b7e5a8d6c2f19034';

let w: ConnectWorld;
let llm: FakeLlm;

const noModel = { LLM_BASE_URL: undefined, LLM_MODEL: undefined };
function configure(extra: Record<string, string | undefined> = {}) {
  w.setEnv({ SLACK_CLIENT_ID: w.slack.clientId, SLACK_CLIENT_SECRET: w.slack.clientSecret, SLACK_SIGNING_SECRET: SIGNING_SECRET, ...noModel, ...extra });
}

beforeAll(async () => {
  llm = await startFakeLlm();
  w = await startConnectWorld();
  configure();
}, 60_000);
afterAll(async () => {
  await w?.close();
  await llm?.close();
});

const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });
let n = 0;
const channelId = () => `C0ASK${Date.now().toString(36).toUpperCase()}${++n}`;

/** "Add to Slack" from the dashboard as `owner`, for a new App Store app, into channel `channel` of a new workspace. */
async function addToSlack(owner: SignedInUser, channel: string): Promise<{ teamId: string; appKey: string; title: string; destinationId: string }> {
  const app = newIosApp(w);
  const installed = await installSlack(w, owner, app.appId, { channelId: channel });
  expect(installed.authorizeUrl.searchParams.get('scope')).toBe('incoming-webhook,chat:write,commands,app_mentions:read');
  const row = await (await getDb()).selectFrom('destinations').select(['slack_team_id', 'slack_channel_id']).where('id', '=', installed.destinationId).executeTakeFirstOrThrow();
  expect(row).toEqual({ slack_team_id: installed.teamId, slack_channel_id: channel });
  return { teamId: installed.teamId, appKey: `apple_app_store__${app.appId}`, title: app.title, destinationId: installed.destinationId };
}

/** Reviews of an app ARB already knows, written straight into the table the engine fills; their ids. */
async function seedReviews(appKey: string, seeds: Seed[]): Promise<string[]> {
  const db = await getDb();
  const rows = seeds.map((s, i) => ({
    app_key: appKey,
    store: 'apple_app_store',
    store_review_id: `slack-ask-${Date.now()}-${++n}-${i}`,
    country: s.country ?? 'us',
    language: 'en',
    author_name: 'Maya',
    title: s.title ?? null,
    body: s.body,
    rating: s.rating ?? 2,
    app_version: '1.0',
    updated_at: new Date(Date.now() - (s.hoursAgo ?? 1) * 3_600_000),
    text_language: null,
    reply_text: null,
    sentiment: null,
    sentiment_score: null,
    written_at: null,
    reply_updated_at: null,
    permalink: null,
  }));
  const inserted = await db.insertInto('reviews').values(rows).returning('id').execute();
  return inserted.map((r) => String(r.id));
}

const reviewIdsOf = async (appKey: string) => (await (await getDb()).selectFrom('reviews').select('id').where('app_key', '=', appKey).execute()).map((r) => String(r.id));

function command(user: SlackUser, channel: string, text: string, headers?: (body: string) => Record<string, string>) {
  const c = slashCommand(w.slack.url, user, channel, text);
  const r = call<never>(w.api, 'POST', '/api/v1/slack/commands', undefined, { rawBody: c.body, headers: headers ? headers(c.body) : slackSignatureHeaders(SIGNING_SECRET, c.body) });
  return { ...c, r };
}

type Posted = { response_type: string; text: string; replace_original?: boolean };

/** What ARB posted to a command's response_url, once it has (the answer follows the acknowledgement). */
async function posted(path: string, count = 1, ms = 15_000): Promise<Posted[]> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const got = w.slack.responses.get(path) ?? [];
    if (got.length >= count) return got as Posted[];
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nothing posted to ${path} within ${ms} ms`);
}

/** The review ids an answer links to, as `<APP_URL/dashboard/reviews?review=ID|[n]>`. */
function citedIds(text: string): string[] {
  const base = `${env().APP_URL}/dashboard/reviews?review=`.replace(/[.?/]/g, '\\$&');
  return [...new Set([...text.matchAll(new RegExp(`<${base}(\\d+)\\|\\[\\d+\\]>`, 'g'))].map((m) => m[1]))];
}

/** The one-time "Link your Slack account" link in a note. */
function linkToken(text: string): string {
  const m = /<https?:[^|>]+\/slack\/link#([^|>]+)\|Link your Slack account>/.exec(text);
  if (!m) throw new Error(`no link in: ${text}`);
  return m[1];
}

describe('asking ARB in Slack', () => {
  let owner: SignedInUser;
  let other: SignedInUser;
  let channel: string;
  let a: Awaited<ReturnType<typeof addToSlack>>;
  let b: Awaited<ReturnType<typeof addToSlack>>;
  let aIds: string[];
  let hostile: string;
  let notInChannel: string[];
  let bIds: string[];
  let asker: SlackUser;
  /** The owner of A's Slack user, linked to A by the DM test. */
  let me: SlackUser;

  beforeAll(async () => {
    configure();
    owner = await newOwner('slackask');
    other = await newOwner('slackaskother');
    channel = channelId();
    a = await addToSlack(owner, channel);
    // Organisation B: the same channel id, in its own workspace.
    b = await addToSlack(other, channel);
    aIds = await seedReviews(a.appKey, [
      { title: 'Login broken', body: 'The login fails every time since the update.', rating: 1 },
      { title: 'Cannot log in', body: 'Login screen freezes after the password.', rating: 2, hoursAgo: 3 },
      // Written by a stranger to make ARB's message mention, link or break out of its formatting.
      { title: 'Login <!channel>', body: 'Login & `everything` > broken, tell @here <@U0BOSS>', rating: 1, hoursAgo: 4 },
    ]);
    hostile = aIds[2];
    bIds = await seedReviews(b.appKey, [{ title: 'Login of B', body: 'Login of the other organisation never works.', rating: 1 }]);
    // Another app of organisation A that the channel does not get.
    const elsewhere = await appWith(owner, 'google_play_store', [{ title: 'Login elsewhere', body: 'Login in the other app is broken too.', rating: 1, hoursAgo: 2 }]);
    notInChannel = await reviewIdsOf(elsewhere);
    asker = addSlackUser(w.slack, a.teamId, null, 'nora');
  }, 90_000);

  test('unsigned, mis-signed and stale requests are refused with 401 and answer nothing', async () => {
    const bad = command(asker, channel, 'how many reviews?', (body) => slackSignatureHeaders('not-the-signing-secret-0000000000', body));
    expect((await bad.r).status).toBe(401);
    const stale = command(asker, channel, 'how many reviews?', (body) => slackSignatureHeaders(SIGNING_SECRET, body, Math.floor(Date.now() / 1000) - 6 * 60));
    const staleR = await stale.r;
    expect(staleR.status).toBe(401);
    expect(staleR.json.error.message).toMatch(/more than five minutes/);
    const unsigned = command(asker, channel, 'how many reviews?', () => ({ 'Content-Type': 'application/x-www-form-urlencoded' }));
    expect((await unsigned.r).status).toBe(401);
    const event = mention(asker, w.slack.botUsers.get(a.teamId)!, channel, 'how many reviews?');
    const badEvent = await call(w.api, 'POST', '/api/v1/slack/events', undefined, { rawBody: event.body, headers: slackJsonSignatureHeaders('not-the-signing-secret-0000000000', event.body) });
    expect(badEvent.status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    for (const c of [bad, stale, unsigned]) expect(w.slack.responses.get(c.path)).toBeUndefined();
    expect(w.slack.posted.filter((p) => p.channel === channel)).toHaveLength(0);
  });

  test('/arb help and /arb apps answer at once, to the asker alone; apps are the channel’s only', async () => {
    const help = await command(asker, channel, 'help').r;
    expect(help.status).toBe(200);
    const helpBody = JSON.parse(help.text) as Posted;
    expect(helpBody.response_type).toBe('ephemeral');
    expect(helpBody.text).toMatch(/`\/arb apps`/);
    expect(JSON.parse((await command(asker, channel, '').r).text)).toEqual(helpBody);

    const apps = JSON.parse((await command(asker, channel, 'apps').r).text) as Posted;
    expect(apps.response_type).toBe('ephemeral');
    expect(apps.text).toContain(`• ${a.title} (App Store)`);
    expect(apps.text).not.toContain(b.title);
    expect(apps.text).not.toMatch(/Google Play/);
  });

  test('a question: “Thinking…” at once, then the answer in the channel citing that channel’s reviews only', async () => {
    const c = command(asker, channel, 'What do people say about the login?');
    const r = await c.r;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ response_type: 'ephemeral', text: 'Thinking about “What do people say about the login?”…' });
    const [answer] = await posted(c.path);
    expect(answer.response_type).toBe('in_channel');
    expect(answer.text).toMatch(new RegExp(`^<@${asker.id}> asked:\n>What do people say about the login\\?`));
    const cited = citedIds(answer.text);
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((id) => aIds.includes(id))).toBe(true);
    for (const id of [...bIds, ...notInChannel]) expect(answer.text).not.toContain(`review=${id}|`);
    expect(answer.text).toContain('*Reviews cited*');
    // Counted as a dashboard question is.
    const usage = await (await getDb()).selectFrom('org_usage_months').select('ask_arb_questions').where('org_id', '=', owner.orgId).where('month', '=', usageMonth(new Date())).executeTakeFirst();
    expect(usage?.ask_arb_questions).toBeGreaterThanOrEqual(1);
  });

  test('with a language model: its grounded answer, citations renumbered and linked, review text escaped', async () => {
    configure({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_MAX_RETRIES: '0', LLM_MONTHLY_TOKENS_PER_ORG: '0' });
    try {
      const toolIds = (body: ChatBody) => [...new Set(body.messages.filter((m) => m.role === 'tool').flatMap((m) => [...(m.content ?? '').matchAll(/"id":"(\d+)"/g)].map((x) => x[1])))];
      llm.respondWith((body) => {
        const ids = toolIds(body);
        return { text: `People cannot log in [review:${ids[0]}] & more <soon> [review:${bIds[0]}] [review:${hostile}].` };
      });
      const c = command(asker, channel, 'What do people say about the login?');
      expect((await c.r).status).toBe(200);
      const [answer] = await posted(c.path);
      expect(answer.response_type).toBe('in_channel');
      // Organisation B's review was never returned by a tool here: its marker is dropped, not linked.
      expect(answer.text).not.toContain(`review=${bIds[0]}`);
      expect(citedIds(answer.text).every((id) => aIds.includes(id))).toBe(true);
      expect(citedIds(answer.text)).toContain(hostile);
      expect(answer.text).toMatch(/People cannot log in <[^>]+\|\[1\]> &amp; more &lt;soon&gt;/);
      // The hostile review as a source: nothing in it mentions, links or opens code.
      const source = answer.text.split('\n').find((l) => l.includes('<!channel') || l.includes('&lt;!channel&gt;'))!;
      expect(source).toContain('Login &lt;!channel&gt; — Login &amp; ˋeverythingˋ &gt; broken, tell @\u200bhere &lt;@U0BOSS&gt;');
      expect(answer.text).not.toContain('<!channel>');
      expect(answer.text).not.toContain('<@U0BOSS>');
      expect(answer.text).not.toContain('`');
    } finally {
      configure();
    }
  });

  test('a channel ARB does not post to is told how to get answers there; nothing is counted', async () => {
    const c = command(asker, channelId(), 'How many reviews this week?');
    expect((await c.r).status).toBe(200);
    const [note] = await posted(c.path);
    expect(note.response_type).toBe('ephemeral');
    expect(note.text).toMatch(/ARB does not post reviews to this channel/);
    expect(note.text).toMatch(/Add to Slack/);
  });

  test('a DM: unlinked, the words and a one-time link; linked, the organisation’s apps, to the asker alone', async () => {
    const dm = `D0ASK${++n}X`;
    me = addSlackUser(w.slack, a.teamId, owner.email, 'olga');
    const first = command(me, dm, 'What do people say about the login?');
    expect((await first.r).status).toBe(200);
    const [note] = await posted(first.path);
    expect(note.response_type).toBe('ephemeral');
    expect(note.text).toMatch(/link your Slack account to your ARB account first/);
    // The member of organisation B cannot use it; the owner of A can, once.
    const refused = await call(w.api, 'POST', '/api/v1/slack/link', { token: linkToken(note.text) }, as(other));
    expect(refused.status).toBe(403);
    const linked = await call(w.api, 'POST', '/api/v1/slack/link', { token: linkToken(note.text) }, as(owner));
    expect(linked.status, linked.text).toBe(200);

    const apps = JSON.parse((await command(me, dm, 'apps').r).text) as Posted;
    expect(apps.text).toContain(a.title);
    expect(apps.text).toMatch(/Google Play/); // the organisation's other app too
    const again = command(me, dm, 'What do people say about the login?');
    const [answer] = await posted(again.path);
    expect(answer.response_type).toBe('ephemeral');
    const cited = citedIds(answer.text);
    expect(cited.some((id) => notInChannel.includes(id))).toBe(true);
    expect(cited.every((id) => aIds.includes(id) || notInChannel.includes(id))).toBe(true);
    for (const id of bIds) expect(cited).not.toContain(id);

    // An install whose channel ARB did not keep learns it from a Reply click on one of its messages there.
    const db = await getDb();
    await db.updateTable('destinations').set({ slack_channel_id: null }).where('id', '=', a.destinationId).execute();
    const lostChannel = command(me, channel, 'apps');
    expect(JSON.parse((await lostChannel.r).text).text).toMatch(/ARB does not post reviews to this channel/);
    const click = buttonClick(w.slack, w.slack.url, me, { action_id: 'arb_reply', value: `${a.destinationId}:${aIds[0]}` }, channel);
    const clickBody = interactionBody(click.payload);
    const clicked = await call(w.api, 'POST', '/api/v1/slack/interactions', undefined, { rawBody: clickBody, headers: slackSignatureHeaders(SIGNING_SECRET, clickBody) });
    expect(clicked.status, clicked.text).toBe(200);
    expect((await db.selectFrom('destinations').select('slack_channel_id').where('id', '=', a.destinationId).executeTakeFirstOrThrow()).slack_channel_id).toBe(channel);
    expect(JSON.parse((await command(me, channel, 'apps').r).text).text).toContain(a.title);

    // A Slack user of a workspace with no ARB channel of one organisation only gets the words, no link.
    const stranger = addSlackUser(w.slack, 'T0NOWHERE1', null, 'ines');
    const lost = command(stranger, 'D0NOWHERE1', 'how many reviews?');
    const [words] = await posted(lost.path);
    expect(words.text).toMatch(/click \*Reply\* on a review message/);
    expect(words.text).not.toMatch(/slack\/link/);
  });

  test('a channel that gets reviews of two organisations answers only a member of one, about that one’s apps', async () => {
    // Organisation B's destination moved into A's workspace and channel, as if B had installed ARB there too.
    const db = await getDb();
    await db.updateTable('destinations').set({ slack_team_id: a.teamId }).where('id', '=', b.destinationId).execute();
    try {
      const apps = JSON.parse((await command(asker, channel, 'apps').r).text) as Posted;
      expect(apps.text).toMatch(/more than one ARB organisation/);
      const unlinked = command(asker, channel, 'What do people say about the login?');
      const [note] = await posted(unlinked.path);
      expect(note.response_type).toBe('ephemeral');
      expect(note.text).toMatch(/more than one ARB organisation/);
      const linked = command(me, channel, 'What do people say about the login?');
      const [answer] = await posted(linked.path);
      expect(answer.response_type).toBe('in_channel');
      expect(citedIds(answer.text).length).toBeGreaterThan(0);
      expect(citedIds(answer.text).every((id) => aIds.includes(id))).toBe(true);
    } finally {
      await db.updateTable('destinations').set({ slack_team_id: b.teamId }).where('id', '=', b.destinationId).execute();
    }
  });

  test('the plan’s Ask ARB questions: refused in words when not included or used up', async () => {
    configure({ SELF_HOSTED_PLAN: 'free' });
    try {
      const c = command(asker, channel, 'How many reviews this week?');
      const [note] = await posted(c.path);
      expect(note.response_type).toBe('ephemeral');
      expect(note.text).toMatch(/^Your Free plan does not include Ask ARB questions\..* This question was not answered\.$/);
      configure({ SELF_HOSTED_PLAN: 'startup' });
      const db = await getDb();
      await db
        .insertInto('org_usage_months')
        .values({ org_id: owner.orgId, month: usageMonth(new Date()), ask_arb_questions: 100 })
        .onConflict((oc) => oc.columns(['org_id', 'month']).doUpdateSet({ ask_arb_questions: 100 }))
        .execute();
      const over = command(asker, channel, 'How many reviews this week?');
      const [used] = await posted(over.path);
      expect(used.text).toMatch(/^Your Startup plan allows 100 Ask ARB questions a month\./);
    } finally {
      configure();
      await (await getDb()).updateTable('org_usage_months').set({ ask_arb_questions: 0 }).where('org_id', '=', owner.orgId).execute();
    }
  });

  test('a mention is answered in its thread, once, even when Slack retries it; bots are ignored', async () => {
    const bot = w.slack.botUsers.get(a.teamId)!;
    const ev = mention(asker, bot, channel, 'what do people say about the login?');
    const send = (retry?: number) =>
      call(w.api, 'POST', '/api/v1/slack/events', undefined, { rawBody: ev.body, headers: { ...slackJsonSignatureHeaders(SIGNING_SECRET, ev.body), ...(retry ? { 'X-Slack-Retry-Num': String(retry), 'X-Slack-Retry-Reason': 'http_timeout' } : {}) } });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.text).toBe('');
    expect((await send(1)).status).toBe(200);
    expect((await send(2)).status).toBe(200);
    const end = Date.now() + 15_000;
    while (!w.slack.posted.some((p) => p.threadTs === ev.ts) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 300));
    const answers = w.slack.posted.filter((p) => p.threadTs === ev.ts);
    expect(answers).toHaveLength(1);
    expect(answers[0].channel).toBe(channel);
    expect(w.slack.tokens.get(answers[0].token)).toBe(a.teamId);
    expect(answers[0].linkNames).toBe(false);
    expect(citedIds(answers[0].text).length).toBeGreaterThan(0);
    expect(citedIds(answers[0].text).every((id) => aIds.includes(id))).toBe(true);

    // Help by mention, in the thread of a message already in a thread: the thread's parent.
    const help = mention(asker, bot, channel, 'help', { threadTs: '1732460000.000100' });
    expect((await call(w.api, 'POST', '/api/v1/slack/events', undefined, { rawBody: help.body, headers: slackJsonSignatureHeaders(SIGNING_SECRET, help.body) })).status).toBe(200);
    const helpEnd = Date.now() + 10_000;
    while (!w.slack.posted.some((p) => p.threadTs === '1732460000.000100') && Date.now() < helpEnd) await new Promise((r) => setTimeout(r, 25));
    expect(w.slack.posted.find((p) => p.threadTs === '1732460000.000100')?.text).toMatch(/`@ARB apps`/);

    const byBot = mention(asker, bot, channel, 'what do people say about the login?', { botId: 'B0OTHERBOT' });
    expect((await call(w.api, 'POST', '/api/v1/slack/events', undefined, { rawBody: byBot.body, headers: slackJsonSignatureHeaders(SIGNING_SECRET, byBot.body) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(w.slack.posted.filter((p) => p.threadTs === byBot.ts)).toHaveLength(0);
  });

  test('url_verification: the challenge is echoed', async () => {
    const body = JSON.stringify({ token: 'verification-token-deprecated', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' });
    const r = await call<never>(w.api, 'POST', '/api/v1/slack/events', undefined, { rawBody: body, headers: slackJsonSignatureHeaders(SIGNING_SECRET, body) });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
  });
});
