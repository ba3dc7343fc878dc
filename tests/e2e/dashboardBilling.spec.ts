// The Billing page in Chromium against the real server (no STRIPE_SECRET_KEY: a self-hosted server): reached from the
// Dashboard navigation, it says billing is off and shows each limit with what the organisation uses; the pricing page
// compares every plan's limits. axe runs on both.
import { expect, test } from './fixtures';
import { seriousViolations } from './support/a11y';

test('the Billing page on a server without billing: plan, usage, "billing is off", nothing to buy', async ({ page, signIn }) => {
  await signIn(page, { redirectTo: '/dashboard/api-keys' });
  await page.waitForURL((u) => u.pathname === '/dashboard/api-keys');
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  await nav.getByRole('link', { name: 'Billing' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard/billing');
  await expect(nav.getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();

  const plan = page.getByRole('region', { name: 'Your plan' });
  await expect(plan).toContainText('Self-hosted');
  await expect(plan).toContainText('Billing is off on this server: there is nothing to buy, and no limit applies.');
  const usage = page.getByRole('region', { name: 'Usage' });
  await expect(usage).toContainText('1 team member — unlimited');
  await expect(usage).toContainText('0 apps — unlimited');
  await expect(page.getByRole('button', { name: /Upgrade/ })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test('/pricing compares every plan’s limits', async ({ page }) => {
  await page.goto('/pricing');
  const compare = page.getByRole('region', { name: 'Compare plans' });
  await expect(compare.getByRole('row', { name: /^Apps/ })).toHaveText(/Apps\s*1 app\s*3 apps\s*15 apps\s*Unlimited/);
  expect(await seriousViolations(page)).toEqual([]);
});
