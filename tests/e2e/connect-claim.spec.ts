/**
 * A connection made without an account, claimed at sign-in only by the browser that made it (its httpOnly claim
 * cookie), in Chromium against the built server: a visitor connects a Discord webhook on /try-free and types an
 * address; someone signing in with that address in another browser finds nothing in the dashboard; signing in from
 * the browser that connected puts the connection in the dashboard.
 */
import { hydratingNavigation } from './support/hydration';
import { appWithReviews, choosePlatform, expect, searchAndPick, test, uniqueWord } from './support/connectFlow';

test.describe.configure({ timeout: 120_000 });

test('connect without an account, then sign in: the same browser claims the connection; another browser with the typed address does not', async ({ page, browser, signIn, newEmail, connect }) => {
  const tag = uniqueWord();
  const app = await appWithReviews(connect, `${tag} Harbor`, tag, 1);
  const hook = await connect.newHook('discord');
  const typed = newEmail('typed');

  await page.goto('/try-free');
  await searchAndPick(page, app.title);
  await choosePlatform(page, 'Discord');
  await page.getByLabel('Discord webhook URL').fill(hook.url);
  await page.getByLabel('Your e-mail (optional)').fill(typed);
  await page.getByRole('button', { name: 'Connect Discord' }).click();
  await expect(page.getByRole('heading', { name: /^Connected to your/ })).toBeVisible({ timeout: 20_000 });
  // The claim cookie is the API's only: scripts cannot read it.
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'arb_connect_claim')).toMatchObject({ httpOnly: true, path: '/api/v1', sameSite: 'Lax' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('arb_connect_claim');

  // Another browser signs in with the address typed into the form: the connection is not theirs.
  const elsewhere = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const other = await elsewhere.newPage();
    hydratingNavigation(other);
    await signIn(other, { email: typed, redirectTo: '/dashboard/destinations' });
    await other.waitForURL((u) => u.pathname === '/dashboard/destinations');
    await expect(other.getByText('No destinations yet.')).toBeVisible();
  } finally {
    await elsewhere.close();
  }

  // The browser that connected signs in (through the status card's invitation): the connection is in the dashboard.
  await page.getByRole('link', { name: 'Create free account' }).click();
  await page.waitForURL((u) => u.pathname === '/login');
  await signIn(page, { redirectTo: '/dashboard/destinations' });
  await page.waitForURL((u) => u.pathname === '/dashboard/destinations');
  const card = page.getByRole('article', { name: /^Discord · / });
  await expect(card).toContainText(app.title);
  await expect(card).toContainText('Active');
});
