// The dashboard's Destinations and API keys pages in Chromium against the real server and the loopback fakes: an
// admin connects Slack from the dashboard with the home page's flow (the welcome reaches the receiver), sees the
// destination, pauses it, sends a test message that the receiver gets, edits its filters in the drawer; creates an
// API key that is shown once and revokes it. What a member may do with a destination is in dashboardStory.spec.ts.
// axe runs on each page.
import type { Page } from '@playwright/test';
import { seriousViolations } from './support/a11y';
import { appWithReviews, connectSlackFromDashboard, expect, test, uniqueWord } from './support/connectFlow';

test.describe.configure({ timeout: 120_000 });

async function acceptDialogs(page: Page) {
  page.on('dialog', (d) => void d.accept());
}

test('connect Slack from the dashboard, see it, pause it, send a test, edit its filters', async ({ page, signIn, connect }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Compass`, tag, 2);
  const hook = await connect.newHook('slack');
  await signIn(page, { redirectTo: '/dashboard/destinations' });
  await page.waitForURL((u) => u.pathname === '/dashboard/destinations');
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(nav.getByRole('link', { name: 'Destinations' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'API keys' })).toBeVisible();
  await expect(page.getByText('No destinations yet.')).toBeVisible();

  const drawer = await connectSlackFromDashboard(page, app.title, hook.url);
  const welcome = await connect.delivered(hook.id, 3);
  expect(welcome[0].raw).toContain(app.title);
  expect(await seriousViolations(page)).toEqual([]);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  const card = page.getByRole('article', { name: /^Slack · / });
  await expect(card).toContainText(app.title);
  await expect(card).toContainText('Active');
  await expect(card).not.toContainText(new URL(hook.url).pathname);
  expect(await seriousViolations(page)).toEqual([]);

  await card.getByRole('button', { name: 'Pause' }).click();
  await expect(card).toContainText('Paused');
  await expect(card).toContainText('Resume it to post new reviews again. Reviews that arrive while it is paused are skipped, not sent later.');

  await card.getByRole('button', { name: 'Send test' }).click();
  await expect(card.getByRole('status')).toHaveText('Slack accepted the test message.');
  const got = await connect.delivered(hook.id, 4);
  expect(got[3].raw).toContain('Test message from ARB');
  expect(got[3].body).toMatchObject({ blocks: expect.any(Array) });

  // The filters drawer: Escape closes it without saving; the form saves.
  await card.getByRole('button', { name: 'Edit filters' }).click();
  const filters = page.getByRole('dialog', { name: /^Filters of/ });
  await expect(filters).toBeVisible();
  await filters.getByRole('checkbox', { name: '1 star' }).check();
  await filters.getByLabel('Keywords').fill('crash, refund');
  // Each help text on its own line under its label, not run on after the label's words.
  for (const [label, hint] of [['Post an alert when 1–2★', 'Compared with each app’s own last weeks'], ['Post a summary of each app’s reviews', 'The week before:']] as const) {
    const [l, h] = [await filters.locator('label', { hasText: label }).boundingBox(), await filters.locator('span', { hasText: hint }).boundingBox()];
    expect(h!.y, `${hint}`).toBeGreaterThanOrEqual(l!.y + l!.height - 1);
  }
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(filters).toBeHidden();
  await card.getByRole('button', { name: 'Edit filters' }).click();
  await filters.getByRole('checkbox', { name: '1 star' }).check();
  await filters.getByLabel('Keywords').fill('crash, refund');
  await filters.getByRole('button', { name: 'Save filters' }).click();
  await expect(filters).toBeHidden();
  await expect(card).toContainText('1 star · 40 countries · containing “crash” or “refund”');

  await card.getByRole('button', { name: 'Resume' }).click();
  await expect(card).toContainText('Active');
});

test('create an API key, see it once, revoke it', async ({ page, signIn }) => {
  await acceptDialogs(page);
  await signIn(page, { redirectTo: '/dashboard/api-keys' });
  await page.waitForURL((u) => u.pathname === '/dashboard/api-keys');
  await expect(page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' })).toHaveAttribute('aria-current', 'page');
  await page.getByLabel('Key name').fill('Nightly export');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const shown = page.getByRole('region', { name: 'Your new API key' });
  await expect(shown).toContainText('you won’t see it again');
  const key = (await shown.getByLabel('API key Nightly export').textContent())!.trim();
  expect(key).toMatch(/^arb_[0-9A-Za-z]{40}$/);
  const table = page.getByRole('table', { name: 'API keys of the organisation' });
  await expect(table).toContainText('Nightly export');
  await expect(table).toContainText(`${key.slice(0, 10)}…`);
  await expect(table).toContainText('Never');
  expect(await seriousViolations(page)).toEqual([]);

  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(key)).toHaveCount(0);
  await page.reload();
  await expect(table).toContainText('Nightly export');
  expect(await page.content()).not.toContain(key);

  await table.getByRole('button', { name: 'Revoke Nightly export' }).click();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
});
