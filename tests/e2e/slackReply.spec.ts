// Replying from Slack, against the built server with its real engine: a signed-in owner's App Store app is read
// through App Store Connect with its credentials, the owner adds a channel with "Add to Slack" from the dashboard (the
// loopback Slack's OAuth), and the review's message arrives there with a Reply button. The owner's first click gets
// a one-time link, which they open signed in (/slack/link) to link their Slack account. Slack's side is played by the test: it clicks
// (the click is made by the Slack fake, which then expects views.open with that trigger), posts it to ARB signed with
// the app's signing secret, fills the form ARB opened and submits it. The reply reaches App Store Connect, the message
// is updated with the reply and its author, and the inbox shows "Published" once the next poll finds it on the store.
// The refusals (unsigned or stale requests, non-members, over-long text, revoked workspaces) are in
// tests/api/slackReply.test.ts.
import { interactionBody, slackSignatureHeaders, viewSubmission } from '../fakes/slackOAuth';
import { choosePlatform, expect, searchAndPick, test, uniqueWord } from './support/connectFlow';
import { E2E_SLACK_SIGNING_SECRET } from './support/connectWorld';
import { inbox } from './support/inbox';
import { StoreApiControl } from './support/storeApis';

// Real polls every 5 s: the review arrives with one, the reply is confirmed by another.
test.describe.configure({ timeout: 150_000 });

type Block = { type: string; elements?: Array<{ action_id?: string; value?: string; text?: { text: string } }> };

test('reply from the Slack button: the form opens with the store’s limit, the reply reaches the store and the message, then "Published"', async ({ page, signIn, connect }) => {
  const stores = new StoreApiControl(process.env.E2E_CONTROL_URL!);
  const tag = uniqueWord();
  const ios = await stores.iosApp(`${tag} Lantern`, { body: `Export to PDF crashes ${tag}slack`, author: 'Maya K' });
  const owner = await signIn(page, { redirectTo: '/dashboard/reviews' });
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');
  const bearer = { Authorization: `Bearer ${owner.authToken}` };
  const added = await page.request.post('/api/v1/org/apps', { headers: bearer, data: { app_id: ios.app_id, app_store: 'apple_app_store' } });
  expect(added.status(), await added.text()).toBe(201);
  const saved = await page.request.put(`/api/v1/org/apps/${encodeURIComponent(`apple_app_store__${ios.app_id}`)}/credentials`, { headers: bearer, data: ios.credentials });
  expect(saved.status(), await saved.text()).toBe(200);

  // "Add to Slack" from the dashboard's Add destination: the channel is the owner's organisation's.
  const hook = await connect.newHook('slack');
  await connect.nextInstall('slack', hook.id);
  await page.goto('/dashboard/destinations');
  await page.getByRole('button', { name: 'Add destination' }).click();
  await expect(page.getByRole('dialog', { name: 'Add destination' })).toBeVisible();
  await searchAndPick(page, ios.title);
  await choosePlatform(page, 'Slack');
  await page.getByRole('button', { name: 'Add to Slack' }).click();
  await page.waitForURL(/\/connect\/slack\?/);
  await expect(page.getByRole('heading', { name: 'Connected to #app-reviews' })).toBeVisible({ timeout: 20_000 });

  // The welcome, then the review (among the last ones) with a Reply button.
  const delivered = await connect.delivered(hook.id, 2, 30_000);
  const message = delivered.map((d) => d.body as { blocks: Block[] }).find((m) => JSON.stringify(m).includes(`${tag}slack`));
  expect(message, 'the review’s message in the channel').toBeTruthy();
  const button = message!.blocks.find((b) => b.type === 'actions')?.elements?.[0];
  expect(button).toMatchObject({ action_id: 'arb_reply', text: { text: 'Reply' } });

  // Slack: the owner (the same e-mail in their Slack profile) clicks Reply.
  const post = (payload: unknown) => {
    const body = interactionBody(payload);
    return page.request.post('/api/v1/slack/interactions', { headers: slackSignatureHeaders(E2E_SLACK_SIGNING_SECRET, body), data: body });
  };
  const user = await connect.slackUser(hook.id, owner.email);
  const before = (await connect.slackOpened(0)).length;

  // The first click: no form, a note only they see with a one-time link to link their Slack account to ARB. The owner
  // opens it in the browser they are signed in with, and confirms.
  const first = await connect.slackClick(user.id, button!.value!);
  expect((await post(first.payload)).status()).toBe(200);
  const [note] = (await connect.slackResponses(first.responseUrl)) as Array<{ response_type: string; text: string }>;
  expect(note.response_type).toBe('ephemeral');
  const linkUrl = /<(https?:[^|>]+\/slack\/link#[^|>]+)\|Link your Slack account>/.exec(note.text)?.[1];
  expect(linkUrl, note.text).toBeTruthy();
  await page.goto(new URL(linkUrl!).pathname + new URL(linkUrl!).hash);
  await expect(page.getByRole('heading', { name: 'Link your Slack account' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe(''); // the token left the address bar
  await page.getByRole('button', { name: 'Link my Slack account' }).click();
  await expect(page.getByText(/is linked\. Go back to Slack and click Reply again\./)).toBeVisible();
  expect((await connect.slackOpened(0)).length).toBe(before);

  const click = await connect.slackClick(user.id, button!.value!);
  const clicked = await post(click.payload);
  expect(clicked.status(), await clicked.text()).toBe(200);
  expect(await connect.slackResponses(click.responseUrl), 'a linked member’s click gets the form, no note').toEqual([]);
  const form = (await connect.slackOpened(before + 1)).at(-1)!;
  expect(form.triggerId).toBe(click.triggerId);
  expect(JSON.stringify(form.view.blocks)).toContain('App Store replies can be 5,970 characters at most');
  expect(JSON.stringify(form.view.blocks)).toContain(`${tag}slack`);

  const submitted = await post(viewSubmission(user, form, { reply: { text: `Thanks Maya, PDF export is fixed in 3.1 ${tag}` } }));
  expect(submitted.status(), await submitted.text()).toBe(200);

  // The store got the reply; the message in the channel shows it and who sent it. On a busy machine the form closes
  // before the store has answered (Slack wants the form's answer within 3 s), and both follow: wait for them.
  const repliesTo = async (reviewId: string) => (await stores.replies()).app_store.filter((p) => p.reviewId === reviewId).map((p) => p.responseBody);
  await expect.poll(() => repliesTo(ios.review_id)).toEqual([`Thanks Maya, PDF export is fixed in 3.1 ${tag}`]);
  await expect.poll(async () => (await connect.slackResponses(click.responseUrl)).length).toBeGreaterThan(0);
  const update = (await connect.slackResponses(click.responseUrl)).at(-1) as { replace_original: boolean; blocks: Block[] };
  expect(update.replace_original).toBe(true);
  expect(JSON.stringify(update.blocks)).toContain(`Thanks Maya, PDF export is fixed in 3.1 ${tag}`);
  expect(JSON.stringify(update.blocks)).toContain('Reply by');
  expect(update.blocks.find((b) => b.type === 'actions')?.elements?.[0]).toMatchObject({ text: { text: 'Edit reply' } });

  // The inbox: the reply, by the owner, published once a poll finds it on the store.
  await page.goto('/dashboard/reviews');
  const queue = inbox(page);
  await expect(async () => {
    await page.reload();
    await expect((await queue.open(`${tag}slack`)).getByText('Published', { exact: true })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  const card = await queue.open(`${tag}slack`);
  await expect(card).toContainText(`Thanks Maya, PDF export is fixed in 3.1 ${tag}`);
  await expect(card).toContainText(owner.email); // who replied: the member the Slack account is linked to
});
