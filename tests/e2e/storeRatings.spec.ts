// The store's own rating beside the average of the written reviews, in Chromium against the real server, its engine
// and the store fakes: an app added on the Apps page shows its store rating (read from the iTunes lookup fake at once:
// 4.5 from 100 ratings) with its count in "Store rating" and the average of its stored reviews in "Review average",
// each column explained in a tooltip; the table fits at 1440 px and at 390 px (no sideways scroll, no clipped
// button), axe finds nothing serious at either width; and the app's page charts the store rating beside the reviews'.
import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from './support/a11y';
import { sidewaysScrollAtPhoneWidths } from './support/pageChecks';
import { appWithReviews, expect, test, uniqueWord } from './support/connectFlow';

// A real poll (every 5 s in the e2e server) stores the app's reviews after it is added: generous time.
test.describe.configure({ timeout: 120_000 });

/** Nothing of the locator's buttons and links lies outside the window, and the table does not scroll inside its box. */
async function fitsTheWindow(page: Page, row: Locator) {
  const width = page.viewportSize()!.width;
  for (const control of await row.locator('a, button').all()) {
    const box = (await control.boundingBox())!;
    expect(box.x, await control.innerText()).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, await control.innerText()).toBeLessThanOrEqual(width);
  }
  const overflow = await page.evaluate(() => {
    const table = document.querySelector('table');
    const wrap = table?.parentElement;
    return { doc: document.documentElement.scrollWidth - window.innerWidth, wrap: wrap ? wrap.scrollWidth - wrap.clientWidth : 0 };
  });
  expect(overflow).toEqual({ doc: 0, wrap: 0 });
}

test('the Apps table: "Store rating" with its count and "Review average", explained, fitting 1440 px and 390 px', async ({ page, connect, signIn }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Compass`, tag, 3); // ratings 2, 3, 4: a review average of 3.0
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, { redirectTo: '/dashboard/apps' });
  await page.waitForURL((u) => u.pathname === '/dashboard/apps');
  await page.getByRole('button', { name: 'Add app' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByLabel('Search the App Store and Google Play').fill(app.title);
  await drawer.getByRole('list', { name: 'Apps found' }).getByRole('button').filter({ hasText: app.title }).filter({ hasText: 'App Store' }).click();
  await drawer.getByRole('button', { name: 'Add this app' }).click();
  await expect(page.getByText(`${app.title} added`)).toBeVisible();
  await page.keyboard.press('Escape');

  const table = page.getByRole('table', { name: "Your organisation's apps" });
  const headers = table.getByRole('columnheader');
  await expect(table.getByRole('columnheader', { name: /^Store rating/ })).toHaveCount(1);
  await expect(table.getByRole('columnheader', { name: /^Review average/ })).toHaveCount(1);
  const columns = await headers.allInnerTexts();
  const storeColumn = columns.findIndex((t) => t.startsWith('Store rating'));
  const averageColumn = columns.findIndex((t) => t.startsWith('Review average'));

  // The store's figure came with the add (the fake's lookup: 4.5 from 100 ratings); the reviews' once polled.
  const row = table.getByRole('row').filter({ hasText: app.title });
  const cell = (i: number) => row.locator('th, td').nth(i);
  await expect(cell(storeColumn)).toHaveText('4.5★100 ratings');
  await expect(async () => {
    await page.reload();
    await expect(cell(averageColumn)).toHaveText('3.0', { timeout: 3000 });
  }).toPass({ timeout: 60_000 });

  // Each column says what it counts: the "?" beside its name opens a tooltip, which is also its description.
  const aboutStore = table.getByRole('button', { name: 'About Store rating' });
  await expect(aboutStore).toHaveAccessibleDescription(/The store's own rating .* weighted by its number of ratings/);
  await aboutStore.hover();
  await expect(page.getByRole('tooltip').filter({ hasText: "The store's own rating" })).toBeVisible();
  const aboutAverage = table.getByRole('button', { name: 'About Review average' });
  await aboutAverage.focus();
  await expect(page.getByRole('tooltip').filter({ hasText: 'written reviews ARB collected' })).toBeVisible();
  await expect(aboutAverage).toHaveAccessibleDescription(/average stars of the written reviews/);
  expect(await seriousViolations(page)).toEqual([]);
  await page.mouse.move(0, 0);
  await page.getByRole('heading', { name: 'Your apps' }).click();
  await fitsTheWindow(page, row);

  // A phone: one card per app, the columns named in each card, the two ratings explained under the table.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('definition').filter({ hasText: "The store's own rating" })).toBeVisible();
  await expect(cell(storeColumn)).toBeVisible();
  await fitsTheWindow(page, row);
  expect(await sidewaysScrollAtPhoneWidths(page)).toEqual({});
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await seriousViolations(page)).toEqual([]);

  // The app's page: the store rating beside the review average, charted, with the numbers as a table.
  await page.setViewportSize({ width: 1440, height: 900 });
  await row.getByRole('link', { name: `Ratings and trends of ${app.title}` }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/dashboard/apps/apple_app_store__'));
  const panel = page.getByRole('region', { name: 'Store rating and review average' });
  await expect(panel.getByRole('definition').first()).toHaveText('4.50 ★');
  await expect(panel.locator('canvas')).toBeVisible();
  await panel.getByRole('button', { name: 'Show as table' }).click();
  await expect(panel.getByRole('table', { name: 'The store rating per day' }).getByRole('row')).toHaveCount(2);
  expect(await seriousViolations(page)).toEqual([]);
});
