/**
 * From the search box to reviews in the team's chat, once per platform, on the built app with loopback
 * receivers. Type the app's name → pick it → choose the platform → paste the receiver's webhook → the welcome naming
 * the app and the last 5 reviews arrive in that platform's format; then a review published in the App Store feed
 * arrives exactly once (a second one is published as a barrier: when it is there, the first had every chance to
 * arrive twice).
 */
import type { ChatPlatform } from '../fakes/chatWebhooks';
import { seriousViolations } from './support/a11y';
import { appWithReviews, choosePlatform, expect, mark, marksIn, searchAndPick, test, uniqueWord } from './support/connectFlow';

type Case = { platform: ChatPlatform; name: string; field: string; check: (body: Record<string, unknown>) => void };

const CASES: Case[] = [
  { platform: 'slack', name: 'Slack', field: 'Slack webhook URL', check: (b) => expect(b).toMatchObject({ text: expect.any(String), blocks: expect.any(Array) }) },
  {
    platform: 'msteams',
    name: 'Microsoft Teams',
    field: 'Teams workflow URL',
    check: (b) => expect(b).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } }] }),
  },
  { platform: 'mattermost', name: 'Mattermost', field: 'Mattermost webhook URL', check: (b) => expect(Boolean(b.text) || Array.isArray(b.attachments)).toBe(true) },
  { platform: 'discord', name: 'Discord', field: 'Discord webhook URL', check: (b) => expect(b).toMatchObject({ allowed_mentions: { parse: [] }, embeds: expect.any(Array) }) },
  { platform: 'webex', name: 'Webex', field: 'Webex webhook URL', check: (b) => expect(typeof b.markdown).toBe('string') },
  { platform: 'googlechat', name: 'Google Chat', field: 'Google Chat webhook URL', check: (b) => expect(b).toMatchObject({ fallbackText: expect.any(String), cardsV2: expect.any(Array) }) },
  { platform: 'telegram', name: 'Telegram', field: 'Telegram bot URL', check: (b) => expect(b).toMatchObject({ text: expect.any(String), parse_mode: 'HTML' }) },
];

// Each test waits for real polls (POLL_INTERVAL_SECONDS=5) and deliveries; on a busy 2-core machine that takes a while.
test.describe.configure({ timeout: 120_000 });
const CONNECTED = { timeout: 20_000 };

for (const c of CASES) {
  test(`${c.name}: search → pick → paste the webhook → welcome, last reviews, then a new review once`, async ({ page, connect }) => {
    const tag = uniqueWord();
    const app = await appWithReviews(connect, `${tag} Planner`, tag, 7);
    const hook = await connect.newHook(c.platform);

    await page.goto(c.platform === 'slack' ? '/' : '/try-free');
    await searchAndPick(page, app.title);
    await choosePlatform(page, c.name);
    await expect(page.getByRole('heading', { name: `Connect ${c.name}` })).toBeFocused();
    const connectButton = page.getByRole('button', { name: `Connect ${c.name}` });
    await expect(connectButton).toBeDisabled();
    await page.getByLabel(c.field).fill(hook.url);
    await connectButton.click();

    await expect(page.getByRole('heading', { name: /^Connected to your/ })).toBeVisible(CONNECTED);
    // The welcome waits for the first read of every storefront the connection watches: all 40 by default (the
    // connect flow's "All countries"), which on a cold 2-core CI run took longer than the 20 s default wait: the
    // control's longest (MAX_WAIT_MS in support/connectWorld.ts).
    const welcome = await connect.delivered(hook.id, 6, 30_000);
    expect(welcome[0].raw).toContain('ARB is connected');
    expect(welcome[0].raw).toContain(app.title);
    for (const d of welcome) c.check(d.body as Record<string, unknown>);
    expect(welcome.slice(1).map((d) => marksIn(d.raw, tag)[0])).toEqual([3, 4, 5, 6, 7].map((i) => mark(tag, i)));
    await expect(page.getByText('Delivered', { exact: true })).toBeVisible(CONNECTED);

    await connect.publish(app.app_id, { title: 'Just now', content: `Brand new ${mark(tag, 8)}`, rating: 2 });
    await connect.delivered(hook.id, 7, 25_000);
    await connect.publish(app.app_id, { title: 'Later', content: `Even newer ${mark(tag, 9)}`, rating: 4 });
    const all = await connect.delivered(hook.id, 8, 25_000);
    expect(all.filter((d) => marksIn(d.raw, tag).includes(mark(tag, 8)))).toHaveLength(1);
    expect(all).toHaveLength(8);
    c.check(all[6].body as Record<string, unknown>);
  });
}

test('keyboard only: pick the app, move through the platforms, connect; no serious accessibility problem', async ({ page, connect }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Atlas`, tag, 1);
  const hook = await connect.newHook('webex');
  await page.goto('/');
  const box = page.getByRole('searchbox', { name: 'Search your app' });
  await box.fill(app.title);
  await expect(page.getByRole('listbox', { name: 'Apps found' })).toBeVisible();
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(page.getByRole('region', { name: 'Selected app' })).toContainText(app.title);

  const slack = page.getByRole('radio', { name: /^Slack/ });
  await expect(slack).toBeChecked();
  await slack.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown'); // Teams, Mattermost, Discord, Webex
  await expect(page.getByRole('radio', { name: /^Webex/ })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Continue' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Connect Webex' })).toBeFocused();

  const field = page.getByLabel('Webex webhook URL');
  await field.fill('https://discord.com/api/webhooks/1/abc');
  await field.press('Tab');
  await expect(page.getByText(/That isn't a Webex incoming-webhook URL/)).toBeVisible();
  expect(await seriousViolations(page, 'section[aria-label="Send the reviews"]')).toEqual([]);

  await field.fill(hook.url);
  await field.press('Enter'); // submits the step
  await expect(page.getByRole('heading', { name: 'Connected to your Webex space' })).toBeFocused(CONNECTED);
  await connect.delivered(hook.id, 2);
  expect(await seriousViolations(page, 'section[aria-label="Send the reviews"]')).toEqual([]);
});

test('the same app and webhook twice: one connection, one welcome', async ({ page, connect }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Compass`, tag, 1);
  const hook = await connect.newHook('mattermost');
  for (let round = 0; round < 2; round++) {
    await page.goto('/try-free');
    await searchAndPick(page, app.title);
    await choosePlatform(page, 'Mattermost');
    await page.getByLabel('Mattermost webhook URL').fill(hook.url);
    await page.getByRole('button', { name: 'Connect Mattermost' }).click();
    await expect(page.getByRole('heading', { name: 'Connected to your Mattermost channel' })).toBeVisible(CONNECTED);
    await connect.delivered(hook.id, 2);
  }
  await connect.publish(app.app_id, { content: `Barrier ${mark(tag, 5)}` });
  const all = await connect.delivered(hook.id, 3, 25_000);
  expect(all.filter((d) => d.raw.includes('ARB is connected'))).toHaveLength(1);
  expect(all).toHaveLength(3);
});
