// Replying from Slack, through the real routes, a real database (PGlite and PostgreSQL), a loopback Slack that
// installs ARB (OAuth), answers users.info and views.open with the bot token it issued and receives response_url
// posts, a loopback App Store Connect that takes the reply, and the chat-webhook fake that receives the review message.
// A channel added with "Add to Slack" gets a Reply button; a click from a member of the organisation opens the form
// with the store's limit; the submission goes to the store and the message then shows the reply and who sent it.
// Others get a note only they see; unsigned, stale or mis-signed requests change nothing.
// "Draft a reply" in the form: the click is acknowledged at once, and the form updated (views.update, with the view's
// hash) first to "Drafting…", then with the loopback model's draft under a new input block id; refusals (no model,
// plan, budget) in words; the person still sends. When the reply is published, the message is updated (chat.update).
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { env } from '@/server/env';
import { drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { call } from '../helpers/request';
import { signInWithCode } from '../helpers/emailSignIn';
import { claimCookieHeader } from '../helpers/claimCookie';
import { signToken } from '@/server/signedTokens';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { startFakeServer, type FakeServer } from '../fakes/http';
import type { ChatHook } from '../fakes/chatWebhooks';
import { appStoreConnectRoutes, createAppStoreConnect, createAppStoreConnectKey, type AppStoreConnectFake } from '../fakes/appStoreConnect';
import { addSlackUser, buttonClick, interactionBody, modalAction, shownInputs, slackSignatureHeaders, submitShown, typeInto, viewSubmission, type SlackUser } from '../fakes/slackOAuth';
import { startFakeLlm, type FakeLlm } from '../fakes/llm';
import { showPublishedReplies } from '@/server/slack/published';
import { newIosApp, newIp, payloadFor, startConnectWorld, type ConnectWorld } from './support/connectWorld';
import { addToSlack, type SlackChannel } from './support/slackInstall';

const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

let w: ConnectWorld;
let stores: FakeServer;
let asc: AppStoreConnectFake;
let llm: FakeLlm;

beforeAll(async () => {
  llm = await startFakeLlm();
  asc = createAppStoreConnect([]);
  stores = await startFakeServer([appStoreConnectRoutes(asc)]);
  w = await startConnectWorld({ APPSTORE_CONNECT_BASE_URL: stores.url });
  configure();
}, 60_000);
afterAll(async () => {
  await w?.close();
  await stores?.close();
  await llm?.close();
});

function configure(extra: Record<string, string | undefined> = {}) {
  w.setEnv({
    APPSTORE_CONNECT_BASE_URL: stores.url,
    SLACK_CLIENT_ID: w.slack.clientId,
    SLACK_CLIENT_SECRET: w.slack.clientSecret,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fake-model',
    LLM_MAX_RETRIES: '0',
    ...extra,
  });
}

const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });

type Block = { type: string; elements?: Array<{ action_id?: string; value?: string; url?: string; text?: { text: string } }>; text?: { text: string } };

/** An App Store app of `owner` read with its own App Store Connect key, one review stored, and its id. */
async function iosAppWithReview(owner: SignedInUser, body: string) {
  const key = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
  asc.keys.push(key);
  const ios = newIosApp(w);
  const added = await call<{ key: string }>(w.api, 'POST', '/api/v1/org/apps', { app_id: ios.appId, app_store: 'apple_app_store' }, as(owner));
  expect(added.status, added.text).toBe(201);
  asc.addApp(ios.appId);
  const storeReview = asc.publish(ios.appId, { body, reviewerNickname: 'Maya K', rating: 2 });
  const saved = await call(w.api, 'PUT', `/api/v1/org/apps/${encodeURIComponent(added.json.data.key)}/credentials`, { kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem }, as(owner));
  expect(saved.status, saved.text).toBe(200);
  await pollAppNow({ store: 'apple_app_store', appId: ios.appId });
  const db = await getDb();
  const row = await db.selectFrom('reviews').select('id').where('app_key', '=', added.json.data.key).where('body', '=', body).executeTakeFirstOrThrow();
  return { app: ios, appKey: added.json.data.key, reviewId: String(row.id), storeReview };
}

/** The review message the channel received for `body` (the welcome's recent reviews included). */
async function messageAbout(hook: ChatHook, appId: string, body: string): Promise<{ blocks: Block[] }> {
  // A new channel's welcome (with the last reviews) goes out once the app has been read since the connection.
  await pollAppNow({ store: 'apple_app_store', appId });
  await drainDeliveries({ waitForRetries: true });
  const found = hook.delivered().map((r) => r.body as { blocks: Block[] }).find((m) => JSON.stringify(m).includes(body));
  if (!found) throw new Error(`no message about "${body}" in the channel (${hook.requests.length} messages)`);
  return found;
}

const actionsOf = (m: { blocks: Block[] }) => m.blocks.find((b) => b.type === 'actions')?.elements ?? [];

function post(payload: unknown, headers?: Record<string, string>) {
  const body = interactionBody(payload);
  return call(w.api, 'POST', '/api/v1/slack/interactions', undefined, { rawBody: body, headers: headers ?? slackSignatureHeaders(SIGNING_SECRET, body) });
}

async function click(user: SlackUser, value: string) {
  const c = buttonClick(w.slack, w.slack.url, user, { action_id: 'arb_reply', value });
  const r = await post(c.payload);
  return { ...c, r, path: new URL(c.responseUrl).pathname };
}

type Note = { response_type: string; replace_original: boolean; text: string };
/** The last thing ARB posted to a click's response_url (a note only the clicker sees, or the message's update). */
const noteAt = (path: string) => w.slack.responses.get(path)!.at(-1) as Note;

/** The one-time "Link your Slack account" link in a note: the page's URL and the token in its fragment. */
function linkIn(text: string): { url: string; token: string } {
  const m = /<(https?:[^|>]+\/slack\/link#([^|>]+))\|Link your Slack account>/.exec(text);
  if (!m) throw new Error(`no link in: ${text}`);
  return { url: m[1], token: m[2] };
}

const auditActions = async (u: SignedInUser) =>
  (await call<Array<{ action: string }>>(w.api, 'GET', '/api/v1/org/audit-log', undefined, as(u))).json.data.map((e) => e.action);

/** The link page's button: POST v1/slack/link, signed in as `user`. */
const linkAs = (user: SignedInUser, token: string) => call<{ slack_user: string }>(w.api, 'POST', '/api/v1/slack/link', { token }, as(user));

/** A Slack user of workspace `teamId` linked to `member`: their first click gets the link, opened while signed in. */
async function linkedSlackUser(member: SignedInUser, teamId: string, value: string, name: string): Promise<SlackUser> {
  const slackUser = addSlackUser(w.slack, teamId, member.email, name);
  const opened = w.slack.opened.length;
  const { path } = await click(slackUser, value);
  expect(w.slack.opened.length).toBe(opened);
  const r = await linkAs(member, linkIn(noteAt(path).text).token);
  expect(r.status, r.text).toBe(200);
  return slackUser;
}

describe('a channel added with "Add to Slack"', () => {
  let owner: SignedInUser;
  let channel: SlackChannel;
  let review: Awaited<ReturnType<typeof iosAppWithReview>>;
  let value: string;

  beforeAll(async () => {
    configure();
    owner = await newOwner('slack');
    review = await iosAppWithReview(owner, `Crashes when I open settings ${Date.now()}`);
    channel = await addToSlack(w, owner, review.app.appId);
    // The install asks for posting as the app (chat:write: the Reply button's answers), /arb and mentions (Ask ARB in
    // Slack) besides the channel's webhook.
    expect(channel.authorizeUrl.searchParams.get('scope')).toBe('incoming-webhook,chat:write,commands,app_mentions:read');
    const message = await messageAbout(channel.hook, review.app.appId, 'Crashes when I open settings');
    const [button] = actionsOf(message);
    expect(button).toMatchObject({ action_id: 'arb_reply', text: { text: 'Reply' }, value: `${channel.destinationId}:${review.reviewId}` });
    value = button.value!;
  }, 60_000);

  test('a member clicks Reply: the form opens with the store’s limit; the reply goes to App Store Connect and the message shows it', async () => {
    const member = await memberOf(owner, 'member');
    // The first click opens no form: a note only they see carries a one-time link to link their Slack account to ARB.
    const slackUser = addSlackUser(w.slack, channel.teamId, member.email.toUpperCase(), 'jonas');
    const openedBefore = w.slack.opened.length;
    const first = await click(slackUser, value);
    expect(first.r.status).toBe(200);
    expect(w.slack.opened.length).toBe(openedBefore);
    const note = noteAt(first.path);
    expect(note).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(note.text).toMatch(/link your Slack account to your ARB account first/);
    const { url, token } = linkIn(note.text);
    expect(url.startsWith(`${env().APP_URL}/slack/link#`)).toBe(true);
    // Signed in as the member, the page's button links them; the link works once.
    const linked = await linkAs(member, token);
    expect(linked.status, linked.text).toBe(200);
    expect(linked.json.data).toEqual({ slack_user: '@jonas' });
    const twice = await linkAs(member, token);
    expect(twice.status).toBe(409);
    expect(twice.json.error.message).toMatch(/already used/);
    expect(await auditActions(owner)).toContain('slack.linked');

    const opened = w.slack.opened.length;
    const { r, path, triggerId } = await click(slackUser, value);
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('');
    expect(w.slack.opened.length).toBe(opened + 1);
    const form = w.slack.opened.at(-1)!;
    expect(form.triggerId).toBe(triggerId);
    expect(w.slack.tokens.get(form.token)).toBe(channel.teamId);
    const input = (form.view.blocks as Array<{ type: string; element?: { max_length?: number }; hint?: { text: string } }>).find((b) => b.type === 'input')!;
    expect(input.element?.max_length).toBe(3000);
    expect(input.hint?.text).toMatch(/App Store replies can be 5,970 characters at most/);
    expect(JSON.stringify(form.view.blocks)).toContain('Crashes when I open settings');

    const posts = asc.responsePosts.length;
    const submitted = await post(viewSubmission(slackUser, form, { reply: { text: '  Sorry Maya — fixed in 2.0.1.  ' } }));
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.text).toBe(''); // the form closes
    expect(asc.responsePosts.slice(posts)).toEqual([{ reviewId: review.storeReview.id, responseBody: 'Sorry Maya — fixed in 2.0.1.' }]);
    const row = await (await getDb()).selectFrom('replies').selectAll().where('review_id', '=', Number(review.reviewId)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'pending_publish', text: 'Sorry Maya — fixed in 2.0.1.', author_user_id: member.userId });
    expect(row.author_label).toContain(member.email);
    // The message in the channel now shows the reply, who sent it, its state, and offers to edit it.
    const update = w.slack.responses.get(path)!.at(-1) as { replace_original: boolean; blocks: Block[] };
    expect(update.replace_original).toBe(true);
    const text = JSON.stringify(update.blocks);
    expect(text).toContain('Reply by');
    expect(text).toContain('Pending publish');
    expect(text).toContain('Sorry Maya — fixed in 2.0.1.');
    expect(text).toContain('Crashes when I open settings');
    expect(actionsOf(update)[0]).toMatchObject({ action_id: 'arb_reply', text: { text: 'Edit reply' }, value });

    // Not published yet: the message stays as it is.
    const responses = () => w.slack.responses.get(path)!.length;
    const answered = responses();
    await showPublishedReplies();
    expect(responses()).toBe(answered);

    // The next poll finds it on the store: published, as for a reply from the dashboard.
    await pollAppNow({ store: 'apple_app_store', appId: review.app.appId });
    expect((await (await getDb()).selectFrom('replies').select('state').where('id', '=', row.id).executeTakeFirstOrThrow()).state).toBe('published');

    // …and the message is updated once more, in place: through the click's response_url, which still works.
    const updates = w.slack.messageUpdates.length;
    await showPublishedReplies();
    expect(responses()).toBe(answered + 1);
    const published = w.slack.responses.get(path)!.at(-1) as { replace_original: boolean; blocks: Block[] };
    expect(published.replace_original).toBe(true);
    const shown = JSON.stringify(published.blocks);
    expect(shown).toContain('Published');
    expect(shown).not.toContain('Pending publish');
    expect(shown).toContain('Reply by');
    expect(shown).toContain('Sorry Maya — fixed in 2.0.1.');
    expect(shown).toContain('Crashes when I open settings');
    expect(actionsOf(published)[0]).toMatchObject({ action_id: 'arb_reply', text: { text: 'Edit reply' }, value });
    expect(w.slack.messageUpdates.length).toBe(updates); // no chat.update needed
    await showPublishedReplies();
    expect(responses()).toBe(answered + 1); // once

    // Clicking again opens the form with the reply sent, to replace it.
    await click(slackUser, value);
    const again = w.slack.opened.at(-1)!;
    expect(JSON.stringify(again.view.blocks)).toContain('"initial_value":"Sorry Maya — fixed in 2.0.1."');
  });

  type ViewBlocks = Array<{ type: string; block_id?: string; elements?: Array<{ action_id?: string; text?: string | { text: string } }>; element?: { initial_value?: string } }>;
  const blocksOf = (view: Record<string, unknown>) => view.blocks as ViewBlocks;
  const noteOf = (view: Record<string, unknown>) => {
    const b = blocksOf(view).find((x) => x.block_id === 'arb_draft_note');
    return (b?.elements?.[0]?.text as string | undefined) ?? null;
  };
  const hasDraftButton = (view: Record<string, unknown>) => blocksOf(view).some((b) => b.elements?.some((e) => e.action_id === 'arb_draft_reply'));
  const inputIdOf = (view: Record<string, unknown>) => blocksOf(view).find((b) => b.type === 'input')!.block_id!;

  /** A member's Reply click: the form, as Slack holds it. */
  async function openForm(name: string) {
    const slackUser = await linkedSlackUser(owner, channel.teamId, value, name);
    await click(slackUser, value);
    return { slackUser, form: w.slack.opened.at(-1)! };
  }

  const updatesSoFar = (viewId: string) => w.slack.viewUpdates.filter((u) => u.viewId === viewId).length;

  /** The updates of form `viewId` after its first `since`, once `n` of them arrived (the draft follows the acknowledgement). */
  async function updatesOf(viewId: string, since: number, n: number) {
    return vi.waitFor(
      () => {
        const list = w.slack.viewUpdates.filter((u) => u.viewId === viewId).slice(since);
        if (list.length < n) throw new Error(`${list.length} of ${n} updates of the form so far`);
        return list;
      },
      { timeout: 15_000, interval: 50 },
    );
  }

  test('Draft a reply: acknowledged at once even with a slow model; "Drafting…", then the draft replaces the typed text; the person edits and sends it', async () => {
    const { slackUser, form } = await openForm('drafter');
    expect(hasDraftButton(form.view)).toBe(true);
    typeInto(w.slack, form.id, 'reply', 'Thanks for');
    const hash = w.slack.views.get(form.id)!.hash;
    const before = llm.chatBodies().length;
    const since = updatesSoFar(form.id);
    llm.reply({ text: 'Thank you, Maya! Settings no longer crash in version 2.0.1.', firstTokenDelayMs: 3_500 });

    const started = Date.now();
    const r = await post(modalAction(w.slack, slackUser, form.id, 'arb_draft_reply'));
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('');
    expect(Date.now() - started).toBeLessThan(2_000); // Slack's 3 s, with the model still thinking

    const [drafting, drafted] = await updatesOf(form.id, since, 2);
    // First "Drafting…", with the hash of the form the click came from; what was typed stays (same block id).
    expect(drafting).toMatchObject({ answer: 'ok', hash });
    expect(noteOf(drafting.view)).toMatch(/^Drafting a reply with the language model/);
    expect(hasDraftButton(drafting.view)).toBe(false);
    expect(inputIdOf(drafting.view)).toBe('reply');
    expect(drafted.at - drafting.at).toBeGreaterThan(3_000);
    // Then the draft, with the hash the first update gave, under a new input block id: Slack shows the draft.
    expect(drafted.answer).toBe('ok');
    expect(drafted.hash).not.toBe(hash);
    const draftInput = inputIdOf(drafted.view);
    expect(draftInput).not.toBe('reply');
    expect(shownInputs(w.slack, form.id)).toEqual({ [draftInput]: 'Thank you, Maya! Settings no longer crash in version 2.0.1.' });
    expect(noteOf(drafted.view)).toBe('Drafted by the language model in English, friendly tone: read and edit it, then send it yourself.');
    expect(blocksOf(drafted.view).find((b) => b.block_id === 'arb_draft')!.elements![0].text).toMatchObject({ text: 'Draft again' });
    expect(drafted.view.private_metadata).toBe(form.view.private_metadata);
    // The model had the review as data, in the app's tone.
    const [asked] = llm.chatBodies().slice(before);
    expect(asked.messages[0].content).toMatch(/Tone: warm and friendly/);
    expect(asked.messages[1].content).toContain('Crashes when I open settings');
    // Nothing was sent: the person edits the draft and sends it; the submission reads the input under its new id.
    typeInto(w.slack, form.id, draftInput, 'Thank you, Maya! Settings no longer crash in 2.0.1 — update when you can.');
    const posts = asc.responsePosts.length;
    const sent = await post(submitShown(w.slack, slackUser, form.id));
    expect(sent.status, sent.text).toBe(200);
    expect(sent.text).toBe('');
    expect(asc.responsePosts.slice(posts)).toEqual([{ reviewId: review.storeReview.id, responseBody: 'Thank you, Maya! Settings no longer crash in 2.0.1 — update when you can.' }]);
    // An empty draft input is refused under its own block id.
    typeInto(w.slack, form.id, draftInput, '  ');
    const empty = await post(submitShown(w.slack, slackUser, form.id));
    expect((empty.json as unknown as { errors: Record<string, string> }).errors).toEqual({ [draftInput]: 'Write the reply first: it cannot be empty.' });
  });

  test('a click from a form that changed meanwhile (an older hash) leaves the form alone', async () => {
    const { slackUser, form } = await openForm('racer');
    const stale = modalAction(w.slack, slackUser, form.id, 'arb_draft_reply');
    llm.reply({ text: 'First draft.' });
    const since = updatesSoFar(form.id);
    await post(modalAction(w.slack, slackUser, form.id, 'arb_draft_reply'));
    await updatesOf(form.id, since, 2);
    const before = llm.chatBodies().length;
    const r = await post(stale);
    expect(r.status).toBe(200);
    const [refused] = await updatesOf(form.id, since + 2, 1);
    expect(refused.answer).toBe('hash_conflict');
    await new Promise((done) => setTimeout(done, 300));
    expect(updatesSoFar(form.id)).toBe(since + 3);
    expect(llm.chatBodies().length).toBe(before); // the model is not asked for a form that moved on
    expect(Object.values(shownInputs(w.slack, form.id))).toEqual(['First draft.']);
  });

  test('refusals in words inside the form, the typed text kept: the plan, the token budget, a failing model', async () => {
    const { slackUser, form } = await openForm('refused');
    typeInto(w.slack, form.id, 'reply', 'My own words');
    const before = llm.chatBodies().length;

    configure({ STRIPE_SECRET_KEY: 'sk_test_slack_drafts' });
    try {
      const since = updatesSoFar(form.id);
      await post(modalAction(w.slack, slackUser, form.id, 'arb_draft_reply'));
      const [plan] = await updatesOf(form.id, since, 1);
      expect(noteOf(plan.view)).toBe('Could not draft a reply: Your Free plan does not include replies. Upgrade to Startup for replies through App Store Connect and Google Play Developer API.');
      expect(hasDraftButton(plan.view)).toBe(true);
      expect(shownInputs(w.slack, form.id)).toEqual({ reply: 'My own words' });
    } finally {
      configure();
    }

    configure({ LLM_MONTHLY_TOKENS_PER_ORG: '10' });
    try {
      await (await getDb()).insertInto('org_usage_months').values({ org_id: owner.orgId, month: new Date().toISOString().slice(0, 7), llm_tokens: 10 }).onConflict((oc) => oc.columns(['org_id', 'month']).doUpdateSet({ llm_tokens: 10 })).execute();
      const since = updatesSoFar(form.id);
      await post(modalAction(w.slack, slackUser, form.id, 'arb_draft_reply'));
      const [, budget] = await updatesOf(form.id, since, 2);
      expect(noteOf(budget.view)).toMatch(/^Could not draft a reply: .*used its 10 language-model tokens for this month/);
      expect(shownInputs(w.slack, form.id)).toEqual({ reply: 'My own words' });
    } finally {
      configure();
    }
    expect(llm.chatBodies().length).toBe(before); // refused before the model was asked

    llm.reply({ status: 500 });
    const since = updatesSoFar(form.id);
    await post(modalAction(w.slack, slackUser, form.id, 'arb_draft_reply'));
    const [, failed] = await updatesOf(form.id, since, 2);
    expect(noteOf(failed.view)).toBe("Could not draft a reply: The language model did not answer: The model's server answered 500: The server had an error");
    expect(shownInputs(w.slack, form.id)).toEqual({ reply: 'My own words' });
  });

  test('without a language model the form has no Draft button, and says in one line what to configure', async () => {
    const { slackUser, form: withModel } = await openForm('nomodel');
    configure({ LLM_BASE_URL: undefined, LLM_MODEL: undefined });
    try {
      const { form } = await openForm('nomodel2');
      expect(hasDraftButton(form.view)).toBe(false);
      expect(noteOf(form.view)).toBe('Draft a reply needs AI answers, which aren’t enabled on this ARB server: its operator can turn them on.');
      // A form opened while a model was configured: the click says the same.
      const since = updatesSoFar(withModel.id);
      await post(modalAction(w.slack, slackUser, withModel.id, 'arb_draft_reply'));
      const [update] = await updatesOf(withModel.id, since, 1);
      expect(hasDraftButton(update.view)).toBe(false);
      expect(noteOf(update.view)).toMatch(/needs AI answers, which aren’t enabled/);
    } finally {
      configure();
    }
  });

  /** The click's response_url as Slack has it after 30 minutes: no longer taking updates. */
  const expireResponseUrl = async (reviewId: string) =>
    (await getDb()).updateTable('slack_reply_messages').set({ response_url_at: new Date(Date.now() - 31 * 60_000) }).where('review_id', '=', Number(reviewId)).execute();

  test('a reply sent from the dashboard to a review whose message had Reply clicked: once published, the message shows it (chat.update, again after Slack was busy)', async () => {
    const other = await iosAppWithReview(owner, `Widgets vanish after the update ${Date.now()}`);
    const otherChannel = await addToSlack(w, owner, other.app.appId);
    const message = await messageAbout(otherChannel.hook, other.app.appId, 'Widgets vanish after the update');
    const [button] = actionsOf(message);
    const clicker = await linkedSlackUser(owner, otherChannel.teamId, button.value!, 'owner-dash');
    const c = buttonClick(w.slack, w.slack.url, clicker, { action_id: 'arb_reply', value: button.value! }, 'C0DASHBOARD1');
    expect((await post(c.payload)).status).toBe(200); // opened, then closed without sending
    const r = await call(w.api, 'POST', `/api/v1/org/reviews/${other.reviewId}/reply`, { text: 'Widgets are back in 3.1.' }, as(owner));
    expect(r.status, r.text).toBe(200);
    // Apple publishes it after the click's response_url has expired: the message is updated with the bot token.
    await expireResponseUrl(other.reviewId);
    await pollAppNow({ store: 'apple_app_store', appId: other.app.appId });
    // Slack is busy at first (ratelimited): the update waits and is tried again.
    w.slack.chatUpdateError = 'ratelimited';
    try {
      await showPublishedReplies();
    } finally {
      w.slack.chatUpdateError = null;
    }
    const waiting = await (await getDb()).selectFrom('slack_reply_messages').selectAll().where('review_id', '=', Number(other.reviewId)).executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ failures: 1, shown_published_at: null });
    expect(new Date(waiting.next_try_at!).getTime()).toBeGreaterThan(Date.now());
    await showPublishedReplies();
    expect(w.slack.messageUpdates.find((u) => u.channel === 'C0DASHBOARD1')).toBeUndefined(); // not before its time
    await (await getDb()).updateTable('slack_reply_messages').set({ next_try_at: new Date(Date.now() - 1000) }).where('review_id', '=', Number(other.reviewId)).execute();
    await showPublishedReplies();
    const update = w.slack.messageUpdates.find((u) => u.channel === 'C0DASHBOARD1')!;
    expect(update).toMatchObject({ ts: '1732460000.000100' });
    expect(w.slack.tokens.get(update.token)).toBe(otherChannel.teamId);
    expect(JSON.stringify(update.blocks)).toContain('Widgets are back in 3.1.');
    expect(JSON.stringify(update.blocks)).toContain('Published');
    expect(JSON.stringify(update.blocks)).toContain('Reply by');
    expect(w.slack.responses.get(new URL(c.responseUrl).pathname)).toBeUndefined();
    expect(await (await getDb()).selectFrom('slack_reply_messages').select('failures').where('review_id', '=', Number(other.reviewId)).executeTakeFirstOrThrow()).toEqual({ failures: 0 });
  });

  test('a workspace installed before chat:write was asked for: the published reply is not shown, and not tried again', async () => {
    const other = await iosAppWithReview(owner, `Login loops forever ${Date.now()}`);
    const otherChannel = await addToSlack(w, owner, other.app.appId);
    const [button] = actionsOf(await messageAbout(otherChannel.hook, other.app.appId, 'Login loops forever'));
    const token = [...w.slack.tokens].find(([, team]) => team === otherChannel.teamId)![0];
    w.slack.tokenScopes.set(token, 'incoming-webhook');
    const clicker = await linkedSlackUser(owner, otherChannel.teamId, button.value!, 'owner-old');
    await post(buttonClick(w.slack, w.slack.url, clicker, { action_id: 'arb_reply', value: button.value! }, 'C0OLDINSTAL').payload);
    expect((await call(w.api, 'POST', `/api/v1/org/reviews/${other.reviewId}/reply`, { text: 'Fixed the login loop.' }, as(owner))).status).toBe(200);
    await expireResponseUrl(other.reviewId);
    await pollAppNow({ store: 'apple_app_store', appId: other.app.appId });
    const updates = w.slack.messageUpdates.length;
    await showPublishedReplies();
    await showPublishedReplies();
    expect(w.slack.messageUpdates.length).toBe(updates);
    const row = await (await getDb()).selectFrom('slack_reply_messages').selectAll().where('review_id', '=', Number(other.reviewId)).executeTakeFirstOrThrow();
    expect(row.shown_published_at).not.toBeNull(); // given up for good, not retried every few seconds
  });

  test('a link is taken only by a member of the channel’s organisation: organisation B’s member cannot link or reply on A’s message', async () => {
    const stranger = addSlackUser(w.slack, channel.teamId, owner.email, 'sam'); // a profile e-mail anyone can type proves nothing
    const opened = w.slack.opened.length;
    const { path } = await click(stranger, value);
    expect(w.slack.opened.length).toBe(opened);
    const { token } = linkIn(noteAt(path).text);

    // Signed in to organisation B, the link is refused and stays unused; a forged or expired token is refused in words.
    const other = await newOwner('slack-b');
    const refused = await linkAs(other, token);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/belongs to an ARB organisation you are not a member of/);
    const expired = await signToken('slack_link', { team: channel.teamId, su: stranger.id, dst: channel.destinationId, n: 'x1' }, { expiresAt: Math.floor(Date.now() / 1000) - 5 });
    expect((await linkAs(owner, expired)).json.error.message).toMatch(/has expired/);
    expect((await linkAs(owner, `${token}x`)).json.error.message).toMatch(/not a link ARB made/);
    expect((await call(w.api, 'POST', '/api/v1/slack/link', { token })).status).toBe(401); // signed in only
    expect((await click(stranger, value)).r.status).toBe(200);
    expect(w.slack.opened.length).toBe(opened);

    // A Slack user linked to B's member (one organisation per link) clicking on A's message: no form, a new link.
    await (await getDb()).insertInto('slack_user_links').values({ team_id: channel.teamId, slack_user_id: stranger.id, user_id: other.userId, org_id: other.orgId }).execute();
    const again = await click(stranger, value);
    expect(w.slack.opened.length).toBe(opened);
    expect(noteAt(again.path).text).toMatch(/linked to an ARB account that is not a member of/);
    // …and a form opened by A's linked member cannot be sent by B's linked Slack user.
    const { form } = await openForm('a-member');
    const posts = asc.responsePosts.length;
    const sent = await post(viewSubmission(stranger, form, { reply: { text: 'Hijacked' } }));
    expect((sent.json as unknown as { errors: { reply: string } }).errors.reply).toMatch(/not linked to a member of/);
    expect(asc.responsePosts.length).toBe(posts);
  });

  test('a removed member’s Slack link no longer replies: the submission is refused, the link is gone, the next click asks again', async () => {
    const member = await memberOf(owner, 'member', 'lee');
    const slackUser = await linkedSlackUser(member, channel.teamId, value, 'lee');
    await click(slackUser, value);
    const form = w.slack.opened.at(-1)!;
    const removed = await call(w.api, 'DELETE', `/api/v1/org/members/${member.userId}`, undefined, as(owner));
    expect(removed.status, removed.text).toBe(200);
    const links = await (await getDb()).selectFrom('slack_user_links').select('user_id').where('user_id', '=', member.userId).execute();
    expect(links).toEqual([]);
    const posts = asc.responsePosts.length;
    const r = await post(viewSubmission(slackUser, form, { reply: { text: 'Thanks!' } }));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ response_action: 'errors' });
    expect((r.json as unknown as { errors: { reply: string } }).errors.reply).toMatch(/not linked to a member of/);
    expect(asc.responsePosts.length).toBe(posts);
    const opened = w.slack.opened.length;
    const next = await click(slackUser, value);
    expect(w.slack.opened.length).toBe(opened);
    expect(() => linkIn(noteAt(next.path).text)).not.toThrow();
  });

  test('an empty or over-long reply is refused inside the form, before the store sees it', async () => {
    const slackUser = await linkedSlackUser(owner, channel.teamId, value, 'owner');
    await click(slackUser, value);
    const form = w.slack.opened.at(-1)!;
    const posts = asc.responsePosts.length;
    const empty = await post(viewSubmission(slackUser, form, { reply: { text: '   ' } }));
    expect((empty.json as unknown as { errors: { reply: string } }).errors.reply).toMatch(/cannot be empty/);
    const long = await post(viewSubmission(slackUser, form, { reply: { text: 'x'.repeat(3001) } }));
    expect((long.json as unknown as { errors: { reply: string } }).errors.reply).toMatch(/5,970 characters at most; this one has 3,001/);
    expect(asc.responsePosts.length).toBe(posts);
  });

  test('requests not signed by Slack with this secret, or older than five minutes, get 401 and change nothing', async () => {
    const slackUser = addSlackUser(w.slack, channel.teamId, owner.email, 'owner2');
    const c = buttonClick(w.slack, w.slack.url, slackUser, { action_id: 'arb_reply', value });
    const body = interactionBody(c.payload);
    const opened = w.slack.opened.length;
    const wrongSecret = await post(c.payload, slackSignatureHeaders('another-apps-secret', body));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.json.error.message).toMatch(/does not match/);
    const stale = await post(c.payload, slackSignatureHeaders(SIGNING_SECRET, body, Math.floor(Date.now() / 1000) - 301));
    expect(stale.status).toBe(401);
    expect(stale.json.error.message).toMatch(/five minutes/);
    const unsigned = await post(c.payload, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(unsigned.status).toBe(401);
    // The body changed after signing (a value swapped for another review).
    const headers = slackSignatureHeaders(SIGNING_SECRET, body);
    const tampered = await call(w.api, 'POST', '/api/v1/slack/interactions', undefined, { rawBody: body.replace(/%3A\d+/, '%3A1'), headers });
    expect(tampered.status).toBe(401);
    expect(w.slack.opened.length).toBe(opened);
    // A JSON body is not what Slack sends.
    const json = await call(w.api, 'POST', '/api/v1/slack/interactions', { payload: '{}' });
    expect(json.status).toBe(401);
  });

  test('a workspace that removed ARB (token revoked): the clicker is told to reconnect', async () => {
    const slackUser = await linkedSlackUser(owner, channel.teamId, value, 'owner3');
    const token = [...w.slack.tokens].find(([, team]) => team === channel.teamId)![0];
    w.slack.tokens.delete(token);
    try {
      const { path } = await click(slackUser, value);
      expect((w.slack.responses.get(path)!.at(-1) as { text: string }).text).toMatch(/Reconnect the channel with “Add to Slack”/);
    } finally {
      w.slack.tokens.set(token, channel.teamId);
    }
  });
});

describe('channels without the Reply button', () => {
  test('a pasted Slack webhook gets a "Reply in ARB" link to the review in the inbox', async () => {
    configure();
    const owner = await newOwner('pasted');
    const review = await iosAppWithReview(owner, `Love the widgets ${Date.now()}`);
    const hook = w.chat.hook('slack');
    const r = await call(w.api, 'POST', '/api/v1/oauth/platform/connect', { platform: 'slack', payload: payloadFor({ app_id: review.app.appId, webhook_url: hook.url }) }, as(owner));
    expect(r.status, r.text).toBe(200);
    const [button] = actionsOf(await messageAbout(hook, review.app.appId, 'Love the widgets'));
    expect(button).toMatchObject({ text: { text: 'Reply in ARB' }, url: `${env().APP_URL}/dashboard/reviews?review=${review.reviewId}` });
    // The link's view: the inbox with that one review (the page passes its query to the API).
    const one = await call<Array<{ id: string }>>(w.api, 'GET', `/api/v1/org/reviews?review=${review.reviewId}`, undefined, as(owner));
    expect(one.status, one.text).toBe(200);
    expect(one.json.data.map((r) => r.id)).toEqual([review.reviewId]);
    // Nobody else's inbox shows it, and a malformed id is a 400.
    const other = await newOwner('other');
    expect((await call<unknown[]>(w.api, 'GET', `/api/v1/org/reviews?review=${review.reviewId}`, undefined, as(other))).json.data).toEqual([]);
    expect((await call(w.api, 'GET', '/api/v1/org/reviews?review=12x', undefined, as(owner))).status).toBe(400);
  });

  test('a channel added with "Add to Slack" without an account, claimed at sign-in from that browser, gets the link, not the button', async () => {
    configure();
    const app = newIosApp(w);
    let hook: ChatHook | undefined;
    w.slack.webhook = () => {
      hook = w.chat.hook('slack');
      return { url: hook.url, channel: '#try-free' };
    };
    const started = await call<{ url: string }>(w.api, 'POST', '/api/v1/oauth/authorize', { platform: 'slack', payload: payloadFor({ app_id: app.appId }) }, { ip: newIp() });
    const nonce = (started.headers.get('set-cookie') ?? '').split(';')[0];
    const back = new URL((await fetch(started.json.data.url, { redirect: 'manual' })).headers.get('location')!);
    const done = await call<{ destination_id: string }>(w.api, 'POST', '/api/v1/oauth/slack/callback', { code: back.searchParams.get('code'), state: back.searchParams.get('state') }, { ip: newIp(), headers: { Cookie: nonce } });
    expect(done.status, done.text).toBe(200);
    const session = await signInWithCode(w, `claimer-${Date.now().toString(36)}@example.com`, newIp(), { cookie: claimCookieHeader(done.headers) });
    const listed = await call<Array<{ id: string }>>(w.api, 'GET', '/api/v1/org/destinations', undefined, { token: session.authToken, ip: newIp() });
    expect(listed.json.data.map((d) => d.id)).toEqual([done.json.data.destination_id]);
    w.feed.publish(app.appId, 'us', { content: 'Claimed channel review', rating: 3 });
    const [button] = actionsOf(await messageAbout(hook!, app.appId, 'Claimed channel review'));
    expect(button).toMatchObject({ text: { text: 'Reply in ARB' } });
    expect(button.action_id).not.toBe('arb_reply');
    // A click on an old button of such a channel is refused (its workspace is not kept).
    const clicker = addSlackUser(w.slack, 'T0CLAIMED', null, 'old');
    const r = await click(clicker, `${done.json.data.destination_id}:1`);
    expect(noteAt(r.path).text).toMatch(/replying from Slack works in channels an admin added with “Add to Slack” from the ARB dashboard/);
  });

  test('without SLACK_SIGNING_SECRET an installed channel gets the link too, and the endpoint says replying from Slack is not set up', async () => {
    configure({ SLACK_SIGNING_SECRET: undefined });
    try {
      const owner = await newOwner('nosecret');
      const review = await iosAppWithReview(owner, `Dark mode please ${Date.now()}`);
      const channel = await addToSlack(w, owner, review.app.appId);
      const [button] = actionsOf(await messageAbout(channel.hook, review.app.appId, 'Dark mode please'));
      expect(button.text?.text).toBe('Reply in ARB');
      const body = interactionBody({ type: 'block_actions' });
      const r = await call(w.api, 'POST', '/api/v1/slack/interactions', undefined, { rawBody: body, headers: slackSignatureHeaders(SIGNING_SECRET, body) });
      expect(r.status).toBe(404);
      expect(r.json.error.message).toBe('Replying from Slack is not set up on this ARB server: its operator can turn it on.');
    } finally {
      configure();
    }
  });
});
