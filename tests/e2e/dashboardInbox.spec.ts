// The Apps and Reviews pages in Chromium against the real server, its engine and the store fakes: sign in, add an app
// by searching for it, a review written after that reaches the inbox with no destination at all, search and a filter
// (picked with the keyboard) find it, and the view survives a reload because it lives in the URL. axe runs on both
// pages.
import { seriousViolations } from './support/a11y';
import { appWithReviews, expect, mark, test, uniqueWord } from './support/connectFlow';

// A real poll (every 5 s in the e2e server) between adding the app and the review showing: generous time.
test.describe.configure({ timeout: 120_000 });

test('add an app by search; its new review appears in the inbox; search and filters find it and stay in the URL', async ({ page, connect, signIn }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Ledger`, tag, 2);
  await signIn(page, { redirectTo: '/dashboard/apps' });
  await page.waitForURL((u) => u.pathname === '/dashboard/apps');
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(nav.getByRole('link', { name: 'Apps' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('No apps yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add app' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByLabel('Search the App Store and Google Play').fill(app.title);
  await drawer.getByRole('list', { name: 'Apps found' }).getByRole('button').filter({ hasText: app.title }).filter({ hasText: 'App Store' }).click();
  await expect(drawer.getByRole('combobox', { name: 'App Store countries' })).toContainText('United States');
  await drawer.getByRole('button', { name: 'Add this app' }).click();
  await expect(page.getByText(`${app.title} added`)).toBeVisible();
  const table = page.getByRole('table', { name: "Your organisation's apps" });
  await expect(table.getByRole('rowheader')).toContainText(app.title);
  expect(await seriousViolations(page)).toEqual([]);

  // Written after the app was added: the next poll stores it.
  await connect.publish(app.app_id, { title: 'Crash on sync', content: `Sync crashes every time ${mark(tag, 9)}`, rating: 1 });
  await nav.getByRole('link', { name: 'Reviews' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews');
  const reviews = page.getByRole('region', { name: 'Reviews' });
  await expect(async () => {
    await page.reload();
    await expect(reviews.getByText(mark(tag, 9))).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 60_000 });
  await expect(reviews.getByText(`Text ${mark(tag, 1)}`)).toBeVisible();
  const card = reviews.getByRole('article').filter({ hasText: mark(tag, 9) });
  await expect(card.getByRole('img', { name: '1 out of 5 stars' })).toBeVisible();
  await expect(card).toContainText('Crash on sync');
  await expect(card).toContainText('United States');

  await page.getByRole('searchbox', { name: 'Search reviews' }).fill('crashes');
  await page.waitForURL((u) => u.searchParams.get('q') === 'crashes');
  await expect(reviews.getByText(`Text ${mark(tag, 1)}`)).toHaveCount(0);
  await expect(reviews.getByText(mark(tag, 9))).toBeVisible();

  // The rating filter with the keyboard alone: focus the picker, open it, pick "1 star", close it.
  const rating = page.getByRole('combobox', { name: 'Rating' });
  await rating.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: '1 star', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.waitForURL((u) => u.searchParams.get('rating') === '1' && u.searchParams.get('q') === 'crashes');
  await expect(reviews.getByText(mark(tag, 9))).toBeVisible();

  // The view is the URL: a reload (or a shared link) shows the same.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search reviews' })).toHaveValue('crashes');
  await expect(page.getByRole('combobox', { name: 'Rating' })).toContainText('1 star');
  await expect(reviews.getByText(mark(tag, 9))).toBeVisible();
  await expect(reviews.getByText(`Text ${mark(tag, 2)}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);
});
