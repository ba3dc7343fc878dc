/**
 * Against the real server: sign-in with the code e-mailed through SMTP, redirect_to that only ever leads to a path on
 * this site, /subscribe with an org id (checkout only, the owner's address masked, and what it does with bad ids), and
 * the dashboard redirect with a one-time hand-off code (or without one when the refresh fails). No analytics event
 * carries an org id, a hand-off code or a token: the e2e build has no PostHog key, so what analytics would send is what
 * reaches the built-in sink, `window.dataLayer`, through the same scrubbing.
 */
import type { Page } from '@playwright/test';
import { seriousViolations } from './support/a11y';
import { expect, hydratingNavigation, test, userTest, waitForHydration } from './fixtures';
import { seenTexts, watchForTexts } from './support/seenTexts';
import { orgIdOfToken, readPersistedAuth, requestCode } from './support/signIn';

const REDIRECTING = 'Redirecting to dashboard...';

const banner = (page: Page) => page.getByRole('banner');

const masked = (email: string) => `${email[0]}***${email.slice(email.indexOf('@'))}`;

/** Everything the page handed to analytics so far, as one string. */
const analyticsSent = (page: Page) =>
  page.evaluate(() => JSON.stringify((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []));

/** Clicks Dashboard in the user menu: the token refresh it sends, and every page the tab shows from then on. */
async function openDashboardFromMenu(page: Page, email: string) {
  const navigations: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) navigations.push(f.url());
  });
  const refresh = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/auth/token/refresh');
  await banner(page).getByRole('button', { name: email }).click();
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  return { navigations, refresh: await refresh };
}

test('sign in with the e-mailed code lands on redirect_to, path and query kept', async ({ page, control, newEmail }) => {
  const email = newEmail('login');
  await requestCode(page, email, `/login?${new URLSearchParams({ redirect_to: '/pricing?plan=team#faq' })}`);
  await expect(page.getByRole('status')).toContainText(email);
  const [mail] = await control.waitForMail(email);
  expect(mail.subject + mail.text).toMatch(/\b\d{6}\b/);
  const code = await control.signInCode(email);

  await page.getByLabel('Sign-in code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/pricing');
  const url = new URL(page.url());
  expect(url.search).toBe('?plan=team');
  expect(url.hash).toBe('#faq');
  await expect(banner(page).getByRole('button', { name: email })).toBeVisible();
});

test('a wrong code is refused with the server’s message and the right one still works', async ({ page, control, newEmail }) => {
  const email = newEmail('wrong-code');
  await requestCode(page, email);
  const code = await control.signInCode(email);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Sign-in code').fill(wrong);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /wrong/i })).toContainText('tries left');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Sign-in code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard');
  await expect(banner(page).getByRole('button', { name: email })).toBeVisible();
});

test.describe('redirect_to never leaves the site', () => {
  for (const target of ['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)']) {
    test(`redirect_to=${target} ends on this site's dashboard`, async ({ page, signIn, baseURL }) => {
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await signIn(page, { redirectTo: target });
      const url = new URL(page.url());
      expect(url.origin).toBe(new URL(baseURL!).origin);
      expect(url.pathname).toBe('/dashboard');
      expect(dialogs).toEqual([]);
    });
  }
});

test.describe('/subscribe', () => {
  userTest('with the org id of a real account: billing-only, the owner masked, plans offered, no org id in analytics', async ({ page, sharedUser: user, browser, baseURL }) => {
    // user.orgId: the organisation the server created at first sign-in (from its token), the id the CRM link carries.
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]); // the dashboard's overview, as every other dashboard page

    const visitor = await browser.newPage({ baseURL });
    const exchange = visitor.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/auth/token/crm-exchange');
    await visitor.goto(`/subscribe?org_id=${user.orgId}`);
    await waitForHydration(visitor);
    expect((await exchange).status()).toBe(200);
    await expect(visitor.getByRole('heading', { level: 1, name: 'Choose your plan' })).toBeVisible();
    await expect(visitor.getByRole('main').getByText(masked(user.email), { exact: true })).toBeVisible();
    await expect(banner(visitor).getByRole('button', { name: masked(user.email) })).toBeVisible();
    expect(await visitor.content()).not.toContain(user.email);
    const sent = await analyticsSent(visitor);
    expect(sent).toContain('page_view');
    expect(sent).not.toContain(user.orgId);
    // The billing-only token opens no portal.
    const { authToken } = (await readPersistedAuth(visitor))!.state!.authData!;
    const portal = await visitor.request.post('/api/v1/stripe/portal', { data: {}, headers: { Authorization: `Bearer ${authToken}` } });
    expect(portal.status()).toBe(403);
    await visitor.close();
  });

  for (const orgId of ['', 'nope', 'ORG_abc', 'organisation_1']) {
    test(`org_id=${JSON.stringify(orgId)} shows nothing and calls nothing`, async ({ page }) => {
      const calls: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(r.url());
      });
      await page.goto(orgId ? `/subscribe?org_id=${encodeURIComponent(orgId)}` : '/subscribe');
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('main')).toHaveText('');
      await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveCount(0);
      expect(calls).toEqual([]);
    });
  }

  test('an unknown org_ id toasts "Some Error Occured"', async ({ page }) => {
    const exchange = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/auth/token/crm-exchange');
    await page.goto('/subscribe?org_id=org_DoesNotExist0000000000000');
    expect((await exchange).status()).toBeGreaterThanOrEqual(400);
    await expect(page.getByText('Some Error Occured', { exact: true })).toBeVisible();
    await expect(banner(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  });
});

userTest.describe('Dashboard', () => {
  userTest('asks for a hand-off code and opens /dashboard?token=home__<code> with "Redirecting to dashboard..."; the code is exchanged once and leaves no trace', async ({ page, sharedUser: user }) => {
    await watchForTexts(page, [REDIRECTING]);
    await page.goto('/features');
    const handoff = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/auth/token/handoff');
    const { navigations, refresh: res } = await openDashboardFromMenu(page, user.email);
    expect(res.request().headers().authorization).toMatch(/^Bearer eyJ/);
    expect(res.status()).toBe(200);

    await page.waitForURL((u) => u.pathname === '/dashboard');
    // (The refresh answer's body is gone with the page that asked for it; the code it carried is in the URL.)
    const landed = navigations.find((u) => new URL(u).pathname === '/dashboard');
    const param = new URL(landed!).searchParams.get('token') ?? '';
    expect(param).toMatch(/^home__[\w-]{20,}$/); // a code, not a token: no JWT dots
    const code = param.slice('home__'.length);
    const exchanged = await handoff;
    expect(exchanged.request().method()).toBe('POST');
    expect(exchanged.status()).toBe(200);
    expect(JSON.parse(exchanged.request().postData() ?? '{}')).toEqual({ code });

    // /dashboard is the overview; who is signed in is in the app bar's user menu.
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('banner').getByText(user.email)).toBeVisible();
    expect(page.url()).not.toContain('home__');
    expect(await seenTexts(page)).toEqual([REDIRECTING]);
    // Analytics saw the dashboard, but neither the code nor the org id nor a token.
    const sent = await analyticsSent(page);
    expect(sent).toContain('/dashboard');
    for (const secret of ['home__', code, user.orgId, 'eyJ']) expect(sent).not.toContain(secret);
    // The code worked once.
    const again = await page.request.post('/api/v1/auth/token/handoff', { data: { code } });
    expect(again.status()).toBe(401);
    // The stored session is the exchanged one: its refresh token renews.
    const stored = (await readPersistedAuth(page))!.state!.authData!;
    expect(orgIdOfToken(stored.authToken!)).toBe(user.orgId);
    expect((await page.request.post('/api/v1/auth/token/renew', { data: { refresh_token: stored.refreshToken } })).status()).toBe(200);
  });

  test('"Sign out everywhere" (Your sessions, /dashboard/team) ends the sessions of every browser', async ({ page, signIn, browser, baseURL }) => {
    const user = await signIn(page);
    const here = (await readPersistedAuth(page))!.state!.authData!;
    // A second browser signed in as the same person.
    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    // Like the fixture's page: typing into /login before React hydrated it is lost (the code request goes out empty).
    hydratingNavigation(otherPage);
    await signIn(otherPage, { email: user.email });
    const there = (await readPersistedAuth(otherPage))!.state!.authData!;
    await other.close();

    await page.goto('/dashboard/team');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(banner(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    for (const tokens of [here, there]) {
      expect((await page.request.post('/api/v1/auth/token/renew', { data: { refresh_token: tokens.refreshToken } })).status()).toBe(401);
      expect((await page.request.get('/api/v1/auth/token/refresh', { headers: { Authorization: `Bearer ${tokens.authToken}` } })).status()).toBe(401);
    }
  });

  userTest('still opens /dashboard, without a token, when the refresh fails', async ({ page, sharedUser: user }) => {
    await watchForTexts(page, [REDIRECTING]);
    await page.goto('/');
    // A token the server no longer accepts (its signature broken): the refresh call answers 401.
    await page.evaluate(() => {
      const stored = JSON.parse(window.localStorage.getItem('arb-storage') ?? '{}');
      stored.state.authData.authToken = `${stored.state.authData.authToken}x`;
      window.localStorage.setItem('arb-storage', JSON.stringify(stored));
    });
    await page.reload();
    const { navigations, refresh } = await openDashboardFromMenu(page, user.email);
    expect(refresh.status()).toBe(401);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(navigations.map((u) => new URL(u)).find((u) => u.pathname === '/dashboard')?.search).toBe('');
    expect(await seenTexts(page)).toEqual([REDIRECTING]);
  });
});
