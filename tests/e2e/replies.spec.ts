// Replying from the inbox, in Chromium against the real server, its engine and loopback App Store Connect and Google
// Play Developer API fakes: an owner's App Store app and Play app are read through the stores' APIs with their
// credentials; from each review's detail panel (its line in the inbox clicked) the owner opens the composer, sees the store's limit counted (and Send refused
// over it), sends a reply, and sees its state, "Published" once the next poll finds it on the store (the pending state
// between is checked step by step in tests/api/replies.test.ts, where the polls are the test's own).
import { seriousViolations } from './support/a11y';
import { expect, test, uniqueWord } from './support/connectFlow';
import { inbox } from './support/inbox';
import { StoreApiControl } from './support/storeApis';

// Real polls every 5 s: the reviews arrive with one, each reply is confirmed by another.
test.describe.configure({ timeout: 150_000 });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test('reply to an App Store review and a Play review from the inbox; both show "Published" after the next poll', async ({ page, signIn }) => {
  const stores = new StoreApiControl(process.env.E2E_CONTROL_URL!);
  const tag = uniqueWord();
  const ios = await stores.iosApp(`${tag} Notes`, { body: `Sync loses my notes ${tag}ios`, author: 'Maya K' });
  const android = await stores.playApp(`${tag} Garden`, { body: `Widget is blank ${tag}play`, author: 'Rin' });
  const owner = await signIn(page, { redirectTo: '/dashboard/reviews' });
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');

  // The apps and their store credentials (the Apps page's own flows are covered by dashboardStory and the API tests).
  for (const [store, app] of [['apple_app_store', ios], ['google_play_store', android]] as const) {
    const added = await page.request.post('/api/v1/org/apps', { headers: bearer(owner.authToken), data: { app_id: app.app_id, app_store: store } });
    expect(added.status(), await added.text()).toBe(201);
    const key = `${store}__${app.app_id}`;
    const saved = await page.request.put(`/api/v1/org/apps/${encodeURIComponent(key)}/credentials`, { headers: bearer(owner.authToken), data: app.credentials });
    expect(saved.status(), await saved.text()).toBe(200);
  }

  const queue = inbox(page);
  await expect(async () => {
    await page.reload();
    await expect(queue.row(`${tag}ios`)).toBeVisible({ timeout: 2000 });
    await expect(queue.row(`${tag}play`)).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 40_000 });

  // App Store: the composer counts against 5,970 characters; the reply goes to App Store Connect.
  const iosCard = await queue.open(`${tag}ios`);
  await iosCard.getByRole('button', { name: 'Reply to Maya K' }).click();
  const iosForm = iosCard.getByRole('form', { name: 'Reply to Maya K' });
  await iosForm.getByLabel('Your reply').fill(`Thanks Maya, sync is fixed in 2.0.1 ${tag}`);
  await expect(iosForm.getByText(/^\d+ \/ 5,970 characters$/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await iosForm.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Reply sent to App Store')).toBeVisible();
  // Pending until a poll finds it on the store (a poll runs every 5 s, so it may be published already).
  await expect(iosCard.getByText(/^(Pending publish|Published)$/)).toBeVisible();
  await expect(iosCard).toContainText(owner.email);

  // Google Play: 350 characters; longer text is refused before anything is sent.
  const playCard = await queue.open(`${tag}play`);
  await playCard.getByRole('button', { name: 'Reply to Rin' }).click();
  const playForm = playCard.getByRole('form', { name: 'Reply to Rin' });
  await playForm.getByLabel('Your reply').fill('x'.repeat(351));
  await expect(playForm.getByText('351 / 350 characters — too long for Google Play: shorten it by 1.')).toBeVisible();
  await expect(playForm.getByRole('button', { name: 'Send reply' })).toBeDisabled();
  await playForm.getByLabel('Your reply').fill(`Thanks Rin, the widget fix ships today ${tag}`);
  await playForm.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Reply sent to Google Play')).toBeVisible();
  await expect(playCard.getByText(/^(Pending publish|Published)$/)).toBeVisible();

  const posted = await stores.replies();
  expect(posted.app_store.filter((p) => p.reviewId === ios.review_id).map((p) => p.responseBody)).toEqual([`Thanks Maya, sync is fixed in 2.0.1 ${tag}`]);
  expect(posted.play.filter((p) => p.reviewId === android.review_id).map((p) => p.replyText)).toEqual([`Thanks Rin, the widget fix ships today ${tag}`]);

  // The next poll of each official source finds the reply on the store.
  await expect(async () => {
    await page.reload();
    await expect((await queue.open(`${tag}ios`)).getByText('Published', { exact: true })).toBeVisible({ timeout: 2000 });
    await expect((await queue.open(`${tag}play`)).getByText('Published', { exact: true })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  await expect(await queue.open(`${tag}ios`)).toContainText(`Thanks Maya, sync is fixed in 2.0.1 ${tag}`);
  await expect(await queue.open(`${tag}play`)).toContainText(`Thanks Rin, the widget fix ships today ${tag}`);
  expect(await seriousViolations(page)).toEqual([]);
});
