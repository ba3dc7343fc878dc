/**
 * "Add to Slack" and "Add to Discord" on the built app, against loopback Slack and Discord OAuth endpoints
 * (tests/fakes/slackOAuth.ts, discordOAuth.ts). The button leads to the platform's approval page, which sends the
 * browser back to /connect/<platform>; that page finishes the install and shows the channel, and the welcome arrives
 * at the webhook the install created.
 */
import { appWithReviews, choosePlatform, expect, mark, marksIn, searchAndPick, test, uniqueWord } from './support/connectFlow';

// Real polls, deliveries and e-mails on a machine that may be busy: generous time per test.
test.describe.configure({ timeout: 120_000 });
const SLOW = { timeout: 20_000 };

test('Add to Slack: approve on Slack, come back to "Connected to #app-reviews", the welcome arrives in that channel', async ({ page, connect }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Harbor`, tag, 2);
  const hook = await connect.newHook('slack');
  await connect.nextInstall('slack', hook.id);

  await page.goto('/');
  await searchAndPick(page, app.title);
  await choosePlatform(page, 'Slack');
  await page.getByRole('button', { name: 'Add to Slack' }).click();

  await page.waitForURL(/\/connect\/slack\?/);
  await expect(page.getByRole('heading', { name: 'Connected to #app-reviews' })).toBeVisible(SLOW);
  await expect(page).toHaveURL(/\/connect\/slack\?destination=dst_/);
  const got = await connect.delivered(hook.id, 3);
  expect(got[0].raw).toContain('ARB is connected');
  expect(got[0].raw).toContain(app.title);
  expect(got.slice(1).map((d) => marksIn(d.raw, tag)[0])).toEqual([mark(tag, 1), mark(tag, 2)]);
  await expect(page.getByText('Delivered', { exact: true })).toBeVisible(SLOW);

  // Reloading shows the status again instead of replaying the used code.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Connected to #app-reviews' })).toBeVisible(SLOW);
});

test('Add to Discord: approve on Discord, come back connected, the welcome arrives in Discord’s format', async ({ page, connect }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Meadow`, tag, 1);
  const hook = await connect.newHook('discord');
  await connect.nextInstall('discord', hook.id);

  await page.goto('/try-free');
  await searchAndPick(page, app.title);
  await choosePlatform(page, 'Discord');
  await page.getByRole('button', { name: 'Add to Discord' }).click();

  await page.waitForURL(/\/connect\/discord\?/);
  await expect(page.getByRole('heading', { name: 'Connected to your Discord channel' })).toBeVisible(SLOW);
  const got = await connect.delivered(hook.id, 2);
  expect(got[0].body).toMatchObject({ allowed_mentions: { parse: [] }, embeds: expect.any(Array) });
  expect(got[1].raw).toContain(mark(tag, 1));
});

test('the Slack page without a code explains what to do', async ({ page }) => {
  await page.goto('/connect/slack?error=access_denied&state=x');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('You cancelled on Slack’s page, so nothing was connected.');
  await expect(page.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/try-free');
});
