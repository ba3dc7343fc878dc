/**
 * axe-core finds no serious or critical violation in the states a visitor opens (mobile menu, signed-in dropdown,
 * search results). Every route as it loads is checked by routes.spec.ts, in the visit that checks its HTML.
 */
import { expect, test, userTest } from './fixtures';
import { seriousViolations } from './support/a11y';

test('no serious accessibility violation with the mobile menu open', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/pricing');
  await page.getByRole('banner').getByRole('button', { name: /menu/i }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Pricing' }).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

userTest('no serious accessibility violation with search results and the user menu open', async ({ page, sharedUser }) => {
  await page.goto('/');
  await page.getByRole('searchbox', { name: 'Search your app' }).fill('habit');
  await expect(page.getByRole('option').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('banner').getByRole('button', { name: sharedUser.email }).click();
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
