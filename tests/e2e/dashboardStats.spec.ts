// An app's ratings and trends in Chromium against the real server, its engine and the store fakes: the app is added
// from the Apps page, its "Trends" link opens the figures of the reviews the engine stored (count, average, the 1–5
// distribution), the chart can be swapped for its table, the span and interval live in the URL, and axe finds nothing
// serious. Below the figures: the words and topics of the same days, each opening its reviews in the inbox, and an
// extractive summary on request.
import { seriousViolations } from './support/a11y';
import { appWithReviews, expect, mark, test, uniqueWord } from './support/connectFlow';

// A real poll (every 5 s in the e2e server) stores the app's reviews after it is added: generous time.
test.describe.configure({ timeout: 120_000 });

test("an app's trends: figures of its stored reviews, a chart with a table view, the span in the URL", async ({ page, connect, signIn }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Atlas`, tag, 3); // ratings 2, 3, 4 written 3, 2 and 1 days ago
  await signIn(page, { redirectTo: '/dashboard/apps' });
  await page.waitForURL((u) => u.pathname === '/dashboard/apps');
  await page.getByRole('button', { name: 'Add app' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByLabel('Search the App Store and Google Play').fill(app.title);
  await drawer.getByRole('list', { name: 'Apps found' }).getByRole('button').filter({ hasText: app.title }).filter({ hasText: 'App Store' }).click();
  await drawer.getByRole('button', { name: 'Add this app' }).click();
  await expect(page.getByText(`${app.title} added`)).toBeVisible();

  await page.getByRole('link', { name: `Ratings and trends of ${app.title}` }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/dashboard/apps/apple_app_store__'));
  await expect(page.getByRole('heading', { level: 2, name: `${app.title} · App Store` })).toBeVisible();
  const reviewCount = page.locator('dl').getByRole('definition').first();
  await expect(async () => {
    await page.reload();
    await expect(reviewCount).toHaveText('3', { timeout: 3000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.locator('dl').getByRole('definition').nth(1)).toHaveText('3.00');

  const ratings = page.getByRole('table', { name: 'Reviews per star rating' });
  for (const [stars, n] of [['5 stars', '0'], ['4 stars', '1'], ['3 stars', '1'], ['2 stars', '1'], ['1 star', '0']]) {
    await expect(ratings.getByRole('row', { name: new RegExp(`^${stars}`) }).getByRole('cell').first()).toHaveText(n);
  }
  await expect(page.getByRole('table', { name: 'Reviews and average rating per app version' })).toBeAttached();

  // By default the last 30 days by week. The chart draws; its numbers are a table too, one switch away.
  await expect(page.getByLabel('Per', { exact: true })).toHaveValue('week');
  const trend = page.getByRole('region', { name: 'Reviews and average rating per week' });
  await expect(trend.locator('canvas')).toBeVisible();
  const perWeek = page.getByRole('table', { name: 'Reviews and average rating per week' });
  expect([6, 7]).toContain(await perWeek.getByRole('row').count()); // a header row and the 5–6 weeks of 30 days
  await trend.getByRole('button', { name: 'Show as table' }).click();
  await expect(trend.getByRole('button', { name: 'Show as table' })).toHaveAttribute('aria-pressed', 'true');
  await expect(trend.locator('canvas')).toHaveCount(0);
  await expect(perWeek).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Per day, with the span kept in the address: a reload shows the same.
  await page.getByLabel('Per', { exact: true }).selectOption('day');
  await page.waitForURL((u) => u.searchParams.get('interval') === 'day' && Boolean(u.searchParams.get('from')));
  await expect(page.getByRole('table', { name: 'Reviews and average rating per day' }).getByRole('row')).toHaveCount(31); // a header row and 30 days
  await page.reload();
  await expect(page.getByLabel('Per', { exact: true })).toHaveValue('day');
  await expect(reviewCount).toHaveText('3');
  expect(await seriousViolations(page)).toEqual([]);

  // Words and topics of the same days ("text" is in the three reviews), and a summary on request: without a language
  // model, the extractive summary, labelled so, its quotes opening their reviews.
  const mostMentioned = page.getByRole('region', { name: 'Words and topics' }).getByRole('region', { name: 'Most mentioned' });
  await expect(mostMentioned.getByRole('link', { name: 'text', exact: true })).toBeVisible();
  const summary = page.getByRole('region', { name: 'Summary' });
  await summary.getByRole('button', { name: 'Summarise these days' }).click();
  await expect(summary.getByText('extractive summary', { exact: true })).toBeVisible();
  await expect(summary.getByRole('link', { name: /^review \d+$/ }).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // A term opens its reviews in the inbox: the same app, the same days, the term as the search.
  await mostMentioned.getByRole('link', { name: 'text', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/reviews' && u.searchParams.get('q') === 'text' && Boolean(u.searchParams.get('app')));
  for (const i of [1, 2, 3]) await expect(page.getByRole('region', { name: 'Reviews' }).getByText(mark(tag, i))).toBeVisible();
});
