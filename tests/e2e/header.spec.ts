/**
 * The header of docs/PRODUCT.md — Login / Try it Free states, redirect_to on the Login link, Try it
 * Free's focus and toast, the signed-in dropdown, the sections of the site configuration, the background per route,
 * the mobile menu and the generic modal.
 */
import type { Page } from '@playwright/test';
import { enabledSections, siteConfig } from '@/lib/siteConfig';
import { expect, test, userTest } from './fixtures';
import { backgroundOf, classify } from './support/colors';
import { AUTH_STORAGE_KEY, readPersistedAuth } from './support/signIn';

const TRY_FREE_TOAST = 'Start by typing name of your app';

const banner = (page: Page) => page.getByRole('banner');
const loginLink = (page: Page) => banner(page).getByRole('link', { name: 'Login', exact: true });
const tryFree = (page: Page) => banner(page).getByRole('link', { name: 'Try it Free', exact: true });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search your app' });

/** The Login link's redirect_to, decoded, once the header has hydrated (its href depends on the router). */
async function loginRedirectTo(page: Page): Promise<string[]> {
  const href = (await loginLink(page).getAttribute('href')) ?? '';
  const url = new URL(href, 'http://x');
  expect(url.pathname).toBe('/login');
  return url.searchParams.getAll('redirect_to');
}

test.describe('signed out', () => {
  test('shows Login and Try it Free, and hides Login on /login', async ({ page }) => {
    await page.goto('/pricing');
    await expect(loginLink(page)).toBeVisible();
    await expect(tryFree(page)).toBeVisible();
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(tryFree(page)).toBeVisible();
    await expect(loginLink(page)).toHaveCount(0);
  });

  test('hides Try it Free on /try-free', async ({ page }) => {
    await page.goto('/try-free');
    await expect(loginLink(page)).toBeVisible();
    await expect(tryFree(page)).toHaveCount(0);
  });

  test('the Login link carries the current path and query as redirect_to', async ({ page }) => {
    await page.goto('/pricing?plan=team&utm_source=newsletter');
    await expect(loginLink(page)).toHaveAttribute('href', /redirect_to=/);
    await expect.poll(() => loginRedirectTo(page)).toEqual(['/pricing?plan=team&utm_source=newsletter']);

    // Client-side navigation updates it too.
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect.poll(() => loginRedirectTo(page)).toEqual(['/faq']);
  });

  test('the Login link passes on an existing redirect_to instead of nesting it', async ({ page }) => {
    await page.goto(`/pricing?${new URLSearchParams({ redirect_to: '/dashboard', plan: 'team' })}`);
    await expect.poll(() => loginRedirectTo(page)).toEqual(['/dashboard']);
  });

  test('Try it Free on / focuses the search box and shows the toast', async ({ page }) => {
    await page.goto('/');
    await expect(searchBox(page)).not.toBeFocused();
    await tryFree(page).click();
    await expect(searchBox(page)).toBeFocused();
    await expect(page.getByText(TRY_FREE_TOAST)).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('Try it Free from another page goes to / first, then focuses about 1 s later', async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __focusLog: Array<{ id: string; at: number }>; __arrivedAt?: number };
      w.__focusLog = [];
      document.addEventListener('focusin', (e) => w.__focusLog.push({ id: (e.target as HTMLElement).id, at: performance.now() }), true);
      // When the home page's search box is there, seen from inside the page (the test's own wait may notice it late
      // on a busy machine). Not the address change: on a loaded machine the home page renders well after it.
      new MutationObserver((_records, observer) => {
        if (w.__arrivedAt === undefined && location.pathname === '/' && document.getElementById('app-search')) {
          w.__arrivedAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/features');
    const clickedAt = await tryFree(page).evaluate((el) => {
      const at = performance.now();
      (el as HTMLElement).click();
      return at;
    });
    await page.waitForURL((url) => url.pathname === '/');
    await expect(searchBox(page)).toBeFocused();
    await expect(page.getByText(TRY_FREE_TOAST)).toBeVisible();
    const { focusedAt, arrivedAt } = await page.evaluate(() => {
      const w = window as unknown as { __focusLog: Array<{ id: string; at: number }>; __arrivedAt?: number };
      return { focusedAt: w.__focusLog.find((f) => f.id === 'app-search')?.at ?? -1, arrivedAt: w.__arrivedAt ?? Infinity };
    });
    // The redirect happens first (the home page's box is there before it gets focus), and the focus about 1 s after
    // the click: not at once, and not much later than 1 s or the box's arrival, whichever came last (on a loaded
    // machine the home page itself can take over a second to arrive, and the focus then follows it).
    expect(focusedAt).toBeGreaterThan(arrivedAt - 1);
    expect(focusedAt - clickedAt).toBeGreaterThanOrEqual(900);
    expect(focusedAt - Math.max(clickedAt + 1000, arrivedAt)).toBeLessThan(1500);
  });

  test('shows the primary sections the site configuration enables, with their links', async ({ page }) => {
    await page.goto('/pricing');
    const nav = banner(page).getByRole('navigation', { name: 'Main' });
    const shown = await nav.getByRole('button').allInnerTexts();
    const enabled = enabledSections().map((s) => s.label);
    expect(shown.map((t) => t.replace(/[▾\s]+$/u, '').trim())).toEqual(enabled);
    for (const section of siteConfig.menu.sections.filter((s) => !s.enabled)) {
      await expect(nav.getByRole('button', { name: section.label })).toHaveCount(0);
    }
    const first = enabledSections()[0];
    await nav.getByRole('button', { name: first.label }).click();
    const link = nav.getByRole('link', { name: first.links[1].label });
    await expect(link).toBeVisible();
    await link.click();
    await page.waitForURL(`**${first.links[1].href}`);
    await expect(link).toBeHidden();
  });
});

test.describe('background per route', () => {
  for (const [route, tone] of [
    ['/', 'light-blue'],
    ['/try-free', 'light-blue'],
    ['/ask-arb', 'black'],
    ['/pricing', 'white'],
    ['/blog/how-to-track-app-uninstall-effectively', 'white'],
    ['/login', 'white'],
  ] as const) {
    test(`header is ${tone} on ${route}`, async ({ page }) => {
      await page.goto(route);
      await expect.poll(async () => classify(await backgroundOf(banner(page)))).toBe(tone);
    });
  }

  test('the background follows client-side navigation', async ({ page }) => {
    await page.goto('/');
    await expect.poll(async () => classify(await backgroundOf(banner(page)))).toBe('light-blue');
    await page.getByRole('contentinfo').getByRole('link', { name: 'AskARB' }).click();
    await page.waitForURL('**/ask-arb');
    await expect.poll(async () => classify(await backgroundOf(banner(page)))).toBe('black');
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect.poll(async () => classify(await backgroundOf(banner(page)))).toBe('white');
  });
});

userTest.describe('signed in', () => {
  userTest('the dropdown is labelled with the display name, else the name, else the e-mail', async ({ page, sharedUser: user }) => {
    await page.goto('/pricing');
    const menuButton = banner(page).getByRole('button', { name: user.email });
    await expect(menuButton).toBeVisible();
    await expect(loginLink(page)).toHaveCount(0);
    await expect(tryFree(page)).toHaveCount(0);

    // The server's account has no name yet; the label rules are the same whichever way the names arrive.
    const setNames = (names: { name?: string | null; displayName?: string | null }) =>
      page.evaluate(
        ([key, patch]) => {
          const stored = JSON.parse(window.localStorage.getItem(key) ?? '{}');
          stored.state.authData = { ...stored.state.authData, ...patch };
          window.localStorage.setItem(key, JSON.stringify(stored));
        },
        [AUTH_STORAGE_KEY, names] as const,
      );
    await setNames({ name: 'Ada Lovelace' });
    await page.reload();
    await expect(banner(page).getByRole('button', { name: 'Ada Lovelace' })).toBeVisible();
    await setNames({ displayName: 'Ada' });
    await page.reload();
    await expect(banner(page).getByRole('button', { name: 'Ada', exact: true })).toBeVisible();

    await banner(page).getByRole('button', { name: 'Ada', exact: true }).click();
    await expect(page.getByText(user.email)).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
  });

  // Its own user: Logout ends the session on the server, which the worker's shared user must survive.
  test('Logout clears all localStorage, signs out, lands on / and ends the session on the server', async ({ page, signIn }) => {
    const user = await signIn(page);
    const { refreshToken } = (await readPersistedAuth(page))!.state!.authData!;
    await page.goto('/pricing');
    await page.evaluate(() => window.localStorage.setItem('utm_source', 'newsletter'));
    await banner(page).getByRole('button', { name: user.email }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(loginLink(page)).toBeVisible();
    // After the landing page's own start-up work: nothing of the session is left.
    const left = await page.evaluate(() => ({ ...window.localStorage }));
    expect(left[AUTH_STORAGE_KEY] ? JSON.parse(left[AUTH_STORAGE_KEY]).state.authData : {}).toEqual({});
    expect(left.utm_source).toBeUndefined();
    // Every token of that sign-in is dead: the refresh token no longer renews.
    const renew = await page.request.post('/api/v1/auth/token/renew', { data: { refresh_token: refreshToken } });
    expect(renew.status()).toBe(401);
  });
});

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  const toggle = (page: Page) => banner(page).getByRole('button', { name: 'Menu' });
  const mobileNav = (page: Page) => page.getByRole('navigation', { name: 'Mobile' });

  test('opens, closes on an outside click', async ({ page }) => {
    await page.goto('/pricing');
    await expect(banner(page).getByRole('navigation', { name: 'Main' })).toBeHidden();
    await toggle(page).click();
    await expect(toggle(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(mobileNav(page)).toBeVisible();
    // The open panel covers the page below the header: the header's own free space is "outside".
    const header = (await banner(page).boundingBox())!;
    await banner(page).click({ position: { x: header.width / 2, y: 4 } });
    await expect(mobileNav(page)).toBeHidden();
    await expect(toggle(page)).toHaveAttribute('aria-expanded', 'false');
  });

  test('closes when a link is chosen, and the link is followed', async ({ page }) => {
    await page.goto('/pricing');
    await toggle(page).click();
    const section = enabledSections()[1];
    await mobileNav(page).getByRole('link', { name: section.links[0].label }).click();
    await page.waitForURL(`**${section.links[0].href}`);
    await expect(mobileNav(page)).toBeHidden();
  });
});
