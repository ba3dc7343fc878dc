// A rule's draft posted to a Slack channel for approval (server/slack/approvalMessages.ts, approvalInteractions.ts),
// through the real routes, a real database (PGlite and PostgreSQL), the loopback Slack (OAuth install, views.open,
// response_url), the chat-webhook fake that receives the channel's messages, and a loopback App Store Connect: the
// message carries Approve / Edit / Reject; only Slack users linked to a member of the organisation may act (checked on
// each click); Approve sends the draft through the store and replaces the message with who approved; Edit opens a form
// with the draft and sends the edited text; Reject keeps it unsent; a removed member's click is refused.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { pollAppNow } from '@/server/monitor/service';
import { queueRuleReply } from '@/server/replies/ruleReplies';
import { call } from '../helpers/request';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { startFakeServer, type FakeServer } from '../fakes/http';
import type { ChatHook } from '../fakes/chatWebhooks';
import { appStoreConnectRoutes, createAppStoreConnect, createAppStoreConnectKey, type AppStoreConnectFake } from '../fakes/appStoreConnect';
import { addSlackUser, buttonClick, interactionBody, slackSignatureHeaders, viewSubmission, type SlackUser } from '../fakes/slackOAuth';
import { newIosApp, newIp, startConnectWorld, type ConnectWorld } from './support/connectWorld';
import { addToSlack } from './support/slackInstall';

const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

let w: ConnectWorld;
let stores: FakeServer;
let asc: AppStoreConnectFake;

beforeAll(async () => {
  asc = createAppStoreConnect([]);
  stores = await startFakeServer([appStoreConnectRoutes(asc)]);
  w = await startConnectWorld({ APPSTORE_CONNECT_BASE_URL: stores.url });
  w.setEnv({ APPSTORE_CONNECT_BASE_URL: stores.url, SLACK_CLIENT_ID: w.slack.clientId, SLACK_CLIENT_SECRET: w.slack.clientSecret, SLACK_SIGNING_SECRET: SIGNING_SECRET });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await stores?.close();
});

const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });
type Block = { type: string; block_id?: string; elements?: Array<{ action_id?: string; value?: string; text?: { text: string } }>; text?: { text: string } };

async function iosApp(owner: SignedInUser, bodies: string[]) {
  const key = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
  asc.keys.push(key);
  const ios = newIosApp(w);
  const added = await call<{ key: string }>(w.api, 'POST', '/api/v1/org/apps', { app_id: ios.appId, app_store: 'apple_app_store' }, as(owner));
  expect(added.status, added.text).toBe(201);
  asc.addApp(ios.appId);
  const storeReviews = bodies.map((body) => asc.publish(ios.appId, { body, reviewerNickname: 'Maya K', rating: 1 }));
  const saved = await call(w.api, 'PUT', `/api/v1/org/apps/${encodeURIComponent(added.json.data.key)}/credentials`, { kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem }, as(owner));
  expect(saved.status, saved.text).toBe(200);
  await pollAppNow({ store: 'apple_app_store', appId: ios.appId });
  const db = await getDb();
  const ids: string[] = [];
  for (const body of bodies) ids.push(String((await db.selectFrom('reviews').select('id').where('app_key', '=', added.json.data.key).where('body', '=', body).executeTakeFirstOrThrow()).id));
  const tpl = await call<{ id: string }>(w.api, 'POST', '/api/v1/org/reply-templates', { app_key: added.json.data.key, name: 'Refund', body: 'Sorry {author}, write to refunds@example.com.' }, as(owner));
  expect(tpl.status, tpl.text).toBe(201);
  return { app: ios, appKey: added.json.data.key, ids, storeReviews, templateId: tpl.json.data.id };
}

function post(payload: unknown) {
  const body = interactionBody(payload);
  return call(w.api, 'POST', '/api/v1/slack/interactions', undefined, { rawBody: body, headers: slackSignatureHeaders(SIGNING_SECRET, body) });
}

async function click(user: SlackUser, actionId: string, value: string) {
  const c = buttonClick(w.slack, w.slack.url, user, { action_id: actionId, value });
  const r = await post(c.payload);
  expect(r.status, r.text).toBe(200);
  return { ...c, path: new URL(c.responseUrl).pathname };
}

type Posted = { replace_original?: boolean; response_type?: string; text: string; blocks?: Block[] };
const lastAt = (path: string) => w.slack.responses.get(path)?.at(-1) as Posted | undefined;
const waitFor = <T>(fn: () => T | undefined) =>
  vi.waitFor(
    () => {
      const v = fn();
      if (!v) throw new Error('not yet');
      return v;
    },
    { timeout: 10_000, interval: 50 },
  );

/** The approval message the channel received for a draft, and its buttons. */
function approvalMessageIn(hook: ChatHook, body: string) {
  const m = hook.delivered().map((r) => r.body as { blocks: Block[] }).find((x) => JSON.stringify(x).includes(body) && JSON.stringify(x).includes('arb_approve_reply'));
  if (!m) throw new Error(`no approval message about "${body}"`);
  return { message: m, buttons: m.blocks.find((b) => b.type === 'actions')!.elements! };
}

const state = async (reviewId: string) => (await (await getDb()).selectFrom('replies').selectAll().where('review_id', '=', Number(reviewId)).executeTakeFirstOrThrow());

describe('drafts for approval in a Slack channel', () => {
  test('Approve, Edit and Reject by a linked member; an unlinked user gets the link; a removed member is refused', async () => {
    const owner = await newOwner('slack-approval');
    const member = await memberOf(owner, 'member');
    const bodies = [`Refund please ${Date.now()}`, `Refund now ${Date.now()}`, `Refund later ${Date.now()}`];
    const app = await iosApp(owner, bodies);
    const channel = await addToSlack(w, owner, app.app.appId, { channel: '#approvals' });
    const queue = (i: number) =>
      queueRuleReply({ orgId: owner.orgId, reviewId: app.ids[i], ruleId: 'rul_refunds', ruleName: 'Refunds', templateId: app.templateId, mode: 'approval', dailyCap: 10, approvalDestinationId: channel.destinationId });
    for (const i of [0, 1, 2]) expect((await queue(i)).outcome).toBe('awaiting_approval');

    const first = approvalMessageIn(channel.hook, bodies[0]);
    expect(first.buttons.map((b) => [b.action_id, b.text?.text])).toEqual([['arb_approve_reply', 'Approve'], ['arb_edit_approval', 'Edit'], ['arb_reject_reply', 'Reject']]);
    const text = JSON.stringify(first.message);
    expect(text).toContain('Sorry Maya K, write to refunds@'); // the @ broken by escapeSlack (no mentions)
    expect(text).toContain('Refunds');
    const value = first.buttons[0].value!;
    expect(value).toMatch(new RegExp(`^${channel.destinationId}:rpl_`));
    const posted = await (await getDb()).selectFrom('reply_approval_messages').select(['state']).where('destination_id', '=', channel.destinationId).execute();
    expect(posted.map((p) => p.state)).toEqual(['posted', 'posted', 'posted']);

    // Not linked: a note with the one-time link, nothing decided.
    const slackUser = addSlackUser(w.slack, channel.teamId, member.email, 'jonas');
    const unlinked = await click(slackUser, 'arb_approve_reply', value);
    const note = await waitFor(() => lastAt(unlinked.path));
    expect(note.response_type).toBe('ephemeral');
    const token = /\/slack\/link#([^|>]+)\|Link your Slack account>/.exec(note.text)![1];
    expect((await state(app.ids[0])).state).toBe('awaiting_approval');
    const linked = await call(w.api, 'POST', '/api/v1/slack/link', { token }, as(member));
    expect(linked.status, linked.text).toBe(200);

    // Approve: one POST to App Store Connect, the message replaced with who approved.
    const posts = asc.responsePosts.length;
    const approved = await click(slackUser, 'arb_approve_reply', value);
    const shown = await waitFor(() => (lastAt(approved.path)?.replace_original ? lastAt(approved.path) : undefined));
    expect(JSON.stringify(shown.blocks)).toContain(`Approved by ${member.email.split('@')[0]}@`);
    expect(JSON.stringify(shown.blocks)).not.toContain('arb_approve_reply');
    expect(asc.responsePosts.slice(posts)).toEqual([{ reviewId: app.storeReviews[0].id, responseBody: 'Sorry Maya K, write to refunds@example.com.' }]);
    expect(await state(app.ids[0])).toMatchObject({ state: 'pending_publish', decided_by: member.userId });
    // A second click on the decided draft: the message shows the decision; nothing is sent again.
    const again = await click(slackUser, 'arb_approve_reply', value);
    await waitFor(() => lastAt(again.path));
    expect(asc.responsePosts.length).toBe(posts + 1);

    // Edit: the form with the draft; the edited text goes to the store.
    const second = approvalMessageIn(channel.hook, bodies[1]);
    const edit = await click(slackUser, 'arb_edit_approval', second.buttons[1].value!);
    const form = w.slack.opened.at(-1)!;
    expect(form.triggerId).toBe(edit.triggerId);
    expect(JSON.stringify(form.view.blocks)).toContain('"initial_value":"Sorry Maya K, write to refunds@example.com."');
    const blank = await post(viewSubmission(slackUser, form, { approval: { text: '   ' } }));
    expect((blank.json as unknown as { errors: Record<string, string> }).errors.approval).toMatch(/^Write the reply first/);
    const sent = await post(viewSubmission(slackUser, form, { approval: { text: 'Maya, your refund is on its way.' } }));
    expect(sent.status, sent.text).toBe(200);
    expect(sent.text).toBe('');
    await waitFor(() => (asc.responsePosts.length === posts + 2 ? true : undefined));
    expect(asc.responsePosts.at(-1)).toEqual({ reviewId: app.storeReviews[1].id, responseBody: 'Maya, your refund is on its way.' });
    await waitFor(() => (lastAt(edit.path)?.replace_original ? true : undefined));

    // A removed member's link is gone: Reject is refused, the draft stays.
    const third = approvalMessageIn(channel.hook, bodies[2]);
    expect((await call(w.api, 'DELETE', `/api/v1/org/members/${member.userId}`, undefined, as(owner))).status).toBe(200);
    const refused = await click(slackUser, 'arb_reject_reply', third.buttons[2].value!);
    expect((await waitFor(() => lastAt(refused.path))).response_type).toBe('ephemeral');
    expect((await state(app.ids[2])).state).toBe('awaiting_approval');

    // The owner, linked, rejects it: never sent.
    const ownerSlack = addSlackUser(w.slack, channel.teamId, owner.email, 'lead');
    const firstClick = await click(ownerSlack, 'arb_reject_reply', third.buttons[2].value!);
    const ownerToken = /\/slack\/link#([^|>]+)\|Link your Slack account>/.exec((await waitFor(() => lastAt(firstClick.path))).text)![1];
    expect((await call(w.api, 'POST', '/api/v1/slack/link', { token: ownerToken }, as(owner))).status).toBe(200);
    const rejected = await click(ownerSlack, 'arb_reject_reply', third.buttons[2].value!);
    const rejectedShown = await waitFor(() => (lastAt(rejected.path)?.replace_original ? lastAt(rejected.path) : undefined));
    expect(JSON.stringify(rejectedShown.blocks)).toContain(`Rejected by ${owner.email.split('@')[0]}@`);
    expect((await state(app.ids[2])).state).toBe('rejected');
    expect(asc.responsePosts.length).toBe(posts + 2);
  });
});
