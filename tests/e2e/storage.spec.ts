/**
 * The signed-in user persists in localStorage 'arb-storage' across reloads without a
 * hydration mismatch; attribution (utm_*, referral) is captured by the rules of docs/PRODUCT.md, Browser state, and travels with the token
 * exchange.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AUTH_STORAGE_KEY, readPersistedAuth } from './support/signIn';

const storage = (page: Page) => page.evaluate(() => ({ ...window.localStorage }) as Record<string, string>);

/** React reports hydration mismatches on the console; none may appear. */
function collectHydrationErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /hydrat|did not match|server rendered/i.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/hydrat|#418|#423|#425/i.test(e.message)) errors.push(e.message);
  });
  return errors;
}

test('auth is persisted under arb-storage and survives a reload, without hydration mismatch', async ({ page, signIn }) => {
  const errors = collectHydrationErrors(page);
  const user = await signIn(page, { redirectTo: '/features' });
  expect(new URL(page.url()).pathname).toBe('/features');
  const persisted = await readPersistedAuth(page);
  expect(persisted?.state?.authData).toMatchObject({ email: user.email, authToken: user.authToken });

  for (const route of ['/features', '/', '/ask-arb', '/login']) {
    await page.goto(route);
    await expect(page.getByRole('banner').getByRole('button', { name: user.email })).toBeVisible();
  }
  expect(errors).toEqual([]);
  expect(Object.keys(await storage(page))).toContain(AUTH_STORAGE_KEY);
});

test('utm values are saved whenever seen; referral is the first one, from ref, overridden by utm_source', async ({ page }) => {
  await page.goto('/pricing?ref=partner-blog');
  await expect.poll(() => storage(page)).toMatchObject({ referral: 'partner-blog' });

  await page.goto('/?utm_source=newsletter&utm_medium=email&utm_campaign=spring');
  await expect.poll(() => storage(page)).toMatchObject({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' });
  // The first referral stays.
  expect((await storage(page)).referral).toBe('partner-blog');

  await page.goto('/faq?utm_campaign=summer');
  await expect.poll(() => storage(page)).toMatchObject({ utm_source: 'newsletter', utm_campaign: 'summer', referral: 'partner-blog' });
});

test('with both ref and utm_source on the first visit, utm_source is the referral', async ({ page }) => {
  await page.goto('/features?ref=friend&utm_source=producthunt');
  await expect.poll(() => storage(page)).toMatchObject({ referral: 'producthunt', utm_source: 'producthunt' });
});

test('the sign-in token exchange carries the saved attribution', async ({ page, signIn }) => {
  await page.goto('/?ref=podcast&utm_medium=audio&utm_campaign=launch');
  await expect.poll(() => storage(page)).toMatchObject({ referral: 'podcast' });
  const exchange = page.waitForRequest((r) => r.url().endsWith('/api/v1/auth/token/exchange') && r.method() === 'POST');
  await signIn(page);
  const body = (await exchange).postDataJSON() as { token: string; metadata: Record<string, string | null> };
  expect(body.token).toBeTruthy();
  expect(body.metadata).toEqual({ utm_source: null, utm_medium: 'audio', utm_campaign: 'launch', referral: 'podcast' });
});
