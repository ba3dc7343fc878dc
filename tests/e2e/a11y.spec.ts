/**
 * Issue 2 point 10: axe-core finds no serious or critical violation on any route, nor in the states a visitor opens
 * (mobile menu, signed-in dropdown, search results).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { PUBLIC_ROUTES } from '@/lib/publicRoutes';
import { expect, test, userTest } from './fixtures';
import { APP_ROUTES } from './support/html';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

for (const route of [...PUBLIC_ROUTES, ...APP_ROUTES, '/no-such-page']) {
  test(`no serious accessibility violation on ${route}`, async ({ page }) => {
    await page.goto(route); // returns once hydrated: axe sees what a visitor sees, not the first server paint
    expect(await seriousViolations(page)).toEqual([]);
  });
}

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
