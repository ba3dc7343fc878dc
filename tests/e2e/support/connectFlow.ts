/**
 * Shared steps of the connect-*.spec.ts files: a `connect` fixture (the connect control routes, see connectWorld.ts),
 * unique names per test, and what a visitor does in the flow — search the app, pick it, choose the platform.
 */
import type { Page } from '@playwright/test';
import { test as base, expect } from '../fixtures';
import { ConnectControl } from './connectWorld';

export const test = base.extend<{ connect: ConnectControl }>({
  connect: async ({}, provide) => {
    const url = process.env.E2E_CONTROL_URL;
    if (!url) throw new Error('E2E_CONTROL_URL is not set: run the suite with `npx playwright test`.');
    await provide(new ConnectControl(url));
  },
});
export { expect };

let counter = 0;
/** Letters only: the store search matches words by prefix, and digits would match other tests' apps. */
export function uniqueWord(): string {
  let n = Date.now() * 100 + process.pid * 7 + counter++;
  let word = '';
  while (n > 0) {
    word += 'bcdfghjklmnpqrstvwxz'[n % 20];
    n = Math.floor(n / 20);
  }
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export const mark = (tag: string, n: number) => `${tag.toLowerCase()}r${n}x`;
export const marksIn = (raw: string, tag: string) => [...new Set(raw.match(new RegExp(`${tag.toLowerCase()}r\\d+x`, 'g')) ?? [])];

/** An App Store app of this test's own, with `n` older reviews (marker 1 = oldest) already in its US feed. */
export async function appWithReviews(connect: ConnectControl, title: string, tag: string, n: number): Promise<{ app_id: string; title: string }> {
  const app = await connect.newApp(title);
  for (let i = 1; i <= n; i++) await connect.publish(app.app_id, { title: `Review ${i}`, content: `Text ${mark(tag, i)}`, rating: (i % 5) + 1, daysAgo: n - i + 1 });
  return app;
}

/** Type the app's name in "Search your app", choose it among the App Store results. */
export async function searchAndPick(page: Page, title: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search your app' }).fill(title);
  await page.getByRole('listbox', { name: 'Apps found' }).getByRole('option').filter({ hasText: title }).filter({ hasText: 'App Store' }).click();
  await expect(page.getByRole('region', { name: 'Selected app' })).toContainText(title);
}

export async function choosePlatform(page: Page, platformName: string): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(`^${platformName}`) }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** On /dashboard/destinations: Add destination, the home page's flow for `appTitle` with a Slack webhook, until it is
 * connected. Returns the drawer, still open on its "Connected" step. */
export async function connectSlackFromDashboard(page: Page, appTitle: string, hookUrl: string) {
  await page.getByRole('button', { name: 'Add destination' }).click();
  const drawer = page.getByRole('dialog', { name: 'Add destination' });
  await expect(drawer).toBeVisible();
  await searchAndPick(page, appTitle);
  await choosePlatform(page, 'Slack');
  await page.getByLabel('Slack webhook URL').fill(hookUrl);
  await page.getByRole('button', { name: 'Connect Slack' }).click();
  await expect(page.getByRole('heading', { name: /^Connected to your/ })).toBeVisible({ timeout: 20_000 });
  return drawer;
}
