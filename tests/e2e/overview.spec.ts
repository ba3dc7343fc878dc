// The /dashboard overview in Chromium against the real server and the store fakes (issue 31, point 6): signing in at
// /login lands on /dashboard, headed "Overview"; a new organisation sees the three-step setup checklist; once it
// follows apps, a card per app with its "Store rating" and "Review average" figures, "Needs attention", and the
// checklist's remaining steps. axe finds nothing serious, and nothing scrolls sideways at phone widths (320–390 px).
import { seriousViolations } from './support/a11y';
import { sidewaysScrollAtPhoneWidths } from './support/pageChecks';
import { appWithReviews, expect, test, uniqueWord } from './support/connectFlow';

test.describe.configure({ timeout: 90_000 });

test('sign-in lands on the overview: the setup checklist, then a card per app', async ({ page, connect, signIn }) => {
  const tag = uniqueWord();
  const user = await signIn(page);
  await page.waitForURL((u) => u.pathname === '/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  // A new organisation: three steps, none done yet, each a link to where it is done.
  const setup = page.getByRole('region', { name: 'Get started' });
  await expect(setup.getByRole('listitem')).toHaveCount(3);
  await expect(setup.getByRole('link', { name: 'Add an app' })).toHaveAttribute('href', '/dashboard/apps');
  await expect(setup.getByRole('link', { name: 'Connect a channel' })).toHaveAttribute('href', '/dashboard/destinations');
  await expect(setup.getByRole('link', { name: 'Invite the team' })).toHaveAttribute('href', '/dashboard/team');
  expect(await seriousViolations(page)).toEqual([]);

  // Two apps (added through the API as the Apps page does), one with reviews.
  const apps = [await appWithReviews(connect, `${tag} Atlas`, tag, 3), await connect.newApp(`${tag} Beacon`)];
  for (const app of apps) {
    const r = await page.request.post('/api/v1/org/apps', { data: { app_store: 'apple_app_store', app_id: app.app_id }, headers: { authorization: `Bearer ${user.authToken}` } });
    expect(r.status(), await r.text()).toBe(201);
  }
  await page.reload();
  for (const app of apps) {
    const card = page.getByRole('article', { name: app.title });
    await expect(card).toBeVisible();
    await expect(card.getByText('Store rating', { exact: true })).toBeVisible();
    await expect(card.getByText('Review average, 7 days', { exact: true })).toBeVisible();
    await expect(card.getByRole('link', { name: `Ratings and trends of ${app.title}` })).toHaveAttribute('href', `/dashboard/apps/apple_app_store__${app.app_id}`);
  }
  await expect(page.getByRole('region', { name: 'Needs attention' })).toBeVisible();
  // The first step is done now; the others are still links.
  await expect(page.getByRole('region', { name: 'Get started' }).getByRole('link', { name: 'Add an app' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Get started' }).getByRole('link', { name: 'Connect a channel' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.setViewportSize({ width: 390, height: 800 });
  const overflow = await sidewaysScrollAtPhoneWidths(page);
  expect(overflow).toEqual({});
  expect(await seriousViolations(page)).toEqual([]);
});
