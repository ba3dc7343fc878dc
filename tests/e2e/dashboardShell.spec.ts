/**
 * The dashboard is an app (issue 31, points 7 and 8): sign-in at /login lands on /dashboard; the dashboard has its own
 * app bar (no marketing links, no footer) and shows a skeleton, never the signed-out header, while the stored session
 * is read; no page's title or description is ever the site default once it has its own (watched from the first
 * script, before the page's own scripts run); dates follow the reader's locale.
 */
import type { Page } from '@playwright/test';
import { MARKETING_ROUTES } from '@/shared/publicRoutes';
import { seriousViolations } from './support/a11y';
import { expect, test, userTest } from './fixtures';

const DEFAULT_TITLE = 'App Store & Google Play Review Monitoring in Slack and Microsoft Teams';
const SIGNED_OUT_LINKS = /^(Login|Log in|Try it Free)$/;
const SIGNED_OUT_CARD = 'Sign in to see the apps you follow';

const banner = (page: Page) => page.getByRole('banner');

type Seen = { titles: string[]; descriptions: string[]; signedOut: string[] };

/**
 * From the document's first moment (an init script runs before any of the page's own): every title and description
 * the head shows, read from the mutation records (two writes between two observer calls are both seen), and any sign
 * of a signed-out screen — a Login or "Try it Free" link, the dashboard's "Sign in" card.
 */
async function watchHead(page: Page) {
  await page.addInitScript(
    ([outLinks, outCard]) => {
      const w = window as unknown as { __seen: { titles: string[]; descriptions: string[]; signedOut: string[] } };
      w.__seen = { titles: [], descriptions: [], signedOut: [] };
      const push = (list: string[], value: string) => {
        if (list[list.length - 1] !== value) list.push(value);
      };
      const outLink = new RegExp(outLinks);
      const check = (node: Node) => {
        if (!(node instanceof Element)) return;
        if (node instanceof HTMLTitleElement) push(w.__seen.titles, node.textContent ?? '');
        if (node instanceof HTMLMetaElement && node.name === 'description') push(w.__seen.descriptions, node.content);
        for (const a of Array.from(node.querySelectorAll('a'))) {
          const text = (a.textContent ?? '').trim();
          if (outLink.test(text)) push(w.__seen.signedOut, `link: ${text}`);
        }
        if ((node.textContent ?? '').includes(outCard)) push(w.__seen.signedOut, 'the sign-in card');
      };
      new MutationObserver((records) => {
        for (const r of records) {
          const target = r.target instanceof Element ? r.target : r.target.parentElement;
          if (target instanceof HTMLTitleElement) push(w.__seen.titles, target.textContent ?? '');
          for (const n of Array.from(r.addedNodes)) check(n.nodeType === Node.TEXT_NODE ? (n.parentElement ?? n) : n);
          if (r.type === 'attributes' && target instanceof HTMLMetaElement && target.name === 'description') push(w.__seen.descriptions, target.content);
        }
      }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['content'] });
    },
    [SIGNED_OUT_LINKS.source, SIGNED_OUT_CARD] as const,
  );
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);

/** Lets any late hydration slice and its head update happen before the record is read. */
const settle = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));

test('sign-in at /login lands on /dashboard, in the app layout', async ({ page, signIn }) => {
  await signIn(page);
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  await expect(banner(page).getByRole('link', { name: 'ARB — your dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
});

userTest.describe('the dashboard layout', () => {
  userTest('its banner has no marketing links, the page has no footer, and it spans the window', async ({ page, sharedUser }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/dashboard/reviews');
    await expect(banner(page)).toHaveCount(1);
    await expect(banner(page).getByRole('button', { name: sharedUser.email })).toBeVisible();
    for (const name of ['Pricing', 'Features', 'Login', 'Try it Free']) await expect(banner(page).getByRole('link', { name })).toHaveCount(0);
    await expect(banner(page).getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    // Full width: the content is not held to the marketing pages' 1120 px column.
    const content = (await page.getByRole('heading', { level: 1, name: 'Reviews' }).boundingBox())!;
    const nav = (await page.getByRole('navigation', { name: 'Dashboard' }).boundingBox())!;
    expect(nav.x).toBeLessThan(60);
    expect(content.x).toBeLessThan(300);
    expect(await seriousViolations(page)).toEqual([]);
  });

  userTest('while /dashboard loads: the server sends a skeleton, and no signed-out header or screen ever shows', async ({ page, request }) => {
    const html = await (await request.get('/dashboard')).text();
    expect(html).toContain('Loading your dashboard…');
    expect(html).not.toMatch(/>Login<|>Try it Free</);
    await watchHead(page);
    for (const path of ['/dashboard', '/dashboard/apps', '/dashboard/team']) {
      await page.goto(path);
      await expect(banner(page).getByRole('button')).toBeVisible();
      await settle(page);
      expect((await seen(page)).signedOut, path).toEqual([]);
    }
  });

  userTest('client-side moves between dashboard pages keep the app bar', async ({ page, sharedUser }) => {
    await page.goto('/dashboard/team');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard/api-keys');
    await expect(banner(page).getByRole('button', { name: sharedUser.email })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    await expect(page).toHaveTitle('API keys | ARB');
  });
});

test.describe('titles and descriptions never flash the site default', () => {
  const routes = ['/login', '/join', ...MARKETING_ROUTES.filter((r) => r !== '/').slice(0, 8)];
  for (const route of routes) {
    test(route, async ({ page, request }) => {
      const html = await (await request.get(route)).text();
      const serverTitle = /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      expect(serverTitle).not.toBe(DEFAULT_TITLE);
      await watchHead(page);
      await page.goto(route);
      await settle(page);
      const { titles, descriptions } = await seen(page);
      expect(titles, 'every title the document showed').not.toContain(DEFAULT_TITLE);
      expect(titles.length).toBeGreaterThan(0);
      expect(await page.title()).not.toBe(DEFAULT_TITLE);
      expect(new Set(descriptions).size, `descriptions seen: ${descriptions.join(' | ')}`).toBe(1);
    });
  }

  userTest('a dashboard page, signed in', async ({ page }) => {
    await watchHead(page);
    await page.goto('/dashboard/reviews');
    await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
    await settle(page);
    const { titles } = await seen(page);
    expect(titles).not.toContain(DEFAULT_TITLE);
    expect(titles.at(-1)).toBe('Reviews | ARB');
  });
});

userTest.describe("dates in the reader's locale", () => {
  for (const [locale, pattern] of [
    ['en-US', /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/], // Dec 2, 2026
    ['de-DE', /^\d{1,2}\. [A-ZÄÖÜ][a-zäöü]{2,3}\.? \d{4}$/], // 2. Dez. 2026
  ] as const) {
    userTest.describe(locale, () => {
      userTest.use({ locale });
      userTest('the Team page shows when members joined in that format', async ({ page, sharedUser }) => {
        await page.goto('/dashboard/team');
        const members = page.getByRole('table', { name: 'Members of the organisation' });
        const me = members.getByRole('row').filter({ hasText: sharedUser.email });
        // The third column, "Joined" (the header row says so).
        await expect(members.getByRole('columnheader').nth(2)).toHaveText('Joined');
        await expect(me.getByRole('cell').nth(2)).toHaveText(pattern);
      });
    });
  }
});
