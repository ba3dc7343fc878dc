/**
 * The page shell — default title, description and share image with per-page overrides; the top
 * progress bar on non-shallow route changes only (with its start value and animation); analytics: no outside
 * host without a key, a page-view event for each completed route change.
 */
import type { Page } from '@playwright/test';
import { MARKETING_ROUTES } from '@/shared/publicRoutes';
import { expect, test } from './fixtures';
import { metaContent, headingsAndTitle } from './support/html';

const DEFAULT_TITLE = 'App Store & Google Play Review Monitoring in Slack and Microsoft Teams';

type Head = { route: string; title: string; description: string | null; ogImage: string | null; ogTitle: string | null };

async function headOf(request: import('@playwright/test').APIRequestContext, route: string): Promise<Head> {
  const html = await (await request.get(route)).text();
  return {
    route,
    title: headingsAndTitle(html).title,
    description: metaContent(html, 'description'),
    ogImage: metaContent(html, 'og:image'),
    ogTitle: metaContent(html, 'og:title'),
  };
}

test.describe('titles and share tags', () => {
  test('the home page has the default title, description and share image', async ({ request }) => {
    const home = await headOf(request, '/');
    expect(home.title).toBe(DEFAULT_TITLE);
    expect(home.ogTitle).toBe(DEFAULT_TITLE);
    expect(home.description?.length ?? 0).toBeGreaterThan(50);
    expect(home.ogImage).toBeTruthy();
    const image = await request.get(new URL(home.ogImage!, 'http://x').pathname);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toMatch(/^image\//);
  });

  test('pages override the title and description; a page may override the share image', async ({ request }) => {
    const home = await headOf(request, '/');
    const pages = await Promise.all(MARKETING_ROUTES.map((r) => headOf(request, r)));
    for (const p of pages) {
      expect(p.title, p.route).not.toBe(DEFAULT_TITLE);
      expect(p.ogTitle, p.route).toBe(p.title);
      expect(p.description, p.route).toBeTruthy();
      expect(p.description, p.route).not.toBe(home.description);
      expect(p.ogImage, p.route).toBeTruthy();
    }
    const ownImages = pages.filter((p) => p.ogImage !== home.ogImage);
    expect(ownImages.map((p) => p.route), 'pages with their own og_image').not.toEqual([]);
    for (const p of ownImages) {
      const res = await request.get(new URL(p.ogImage!, 'http://x').pathname);
      expect(res.status(), `${p.route} → ${p.ogImage}`).toBe(200);
    }
  });

  test('the title follows client-side navigation', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(DEFAULT_TITLE);
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect(page).not.toHaveTitle(DEFAULT_TITLE);
    await page.goBack();
    await expect(page).toHaveTitle(DEFAULT_TITLE);
  });
});

/** Records every appearance of nprogress's bar (#nprogress) with its first position and transition. */
async function watchProgressBar(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __bars: Array<{ transform: string; transition: string; at: number }>; __barGone: number };
    w.__bars = [];
    w.__barGone = 0;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of Array.from(r.addedNodes)) {
          if (n instanceof HTMLElement && n.id === 'nprogress') {
            const bar = n.querySelector<HTMLElement>('.bar');
            w.__bars.push({ transform: bar?.style.transform ?? '', transition: bar?.style.transition ?? '', at: performance.now() });
          }
        }
        for (const n of Array.from(r.removedNodes)) if (n instanceof HTMLElement && n.id === 'nprogress') w.__barGone += 1;
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

const bars = (page: Page) =>
  page.evaluate(() => (window as unknown as { __bars: Array<{ transform: string; transition: string }> }).__bars);
const barsGone = (page: Page) => page.evaluate(() => (window as unknown as { __barGone: number }).__barGone);

test.describe('progress bar', () => {
  test('shows on a route change, starting at 8 % with a 200 ms animation, and goes away when it completes', async ({ page }) => {
    await watchProgressBar(page);
    await page.goto('/pricing');
    await page.waitForLoadState('networkidle');
    expect(await bars(page)).toEqual([]);
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect.poll(() => bars(page).then((b) => b.length)).toBe(1);
    const [bar] = await bars(page);
    expect(bar.transform).toMatch(/translate3d\(-92%/); // nprogress draws n as translate3d((n - 1) * 100%): n = 0.08
    expect(bar.transition).toMatch(/200ms/);
    await expect(page.locator('#nprogress')).toHaveCount(0);
    expect(await barsGone(page)).toBe(1);
  });

  test('does not show on a shallow route change', async ({ page }) => {
    await watchProgressBar(page);
    await page.goto('/pricing');
    await page.waitForLoadState('networkidle');
    await page.evaluate(async () => {
      const next = (window as unknown as { next: { router: { push: (url: string, as?: string, o?: { shallow: boolean }) => Promise<boolean> } } }).next;
      await next.router.push('/pricing?plan=team', undefined, { shallow: true });
    });
    await page.waitForURL('**/pricing?plan=team');
    // A non-shallow change afterwards does show the bar: the watcher works, the shallow change simply had none.
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect.poll(() => bars(page).then((b) => b.length)).toBe(1);
  });
});

test.describe('analytics', () => {
  test('without a PostHog key, pages and route changes call no host but the site itself', async ({ page, baseURL }) => {
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== new URL(baseURL!).origin && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    await page.goto('/pricing?utm_source=newsletter');
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await page.waitForLoadState('networkidle');
    expect(elsewhere).toEqual([]);
  });

  /**
   * Page views go to the analytics sinks. Without a PostHog key (the e2e build has none) the built-in sink is the
   * page's `window.dataLayer`, the standard hand-off to a second analytics service (docs/PRODUCT.md, Page shell).
   */
  const pageViews = (page: Page) =>
    page.evaluate(() =>
      ((window as unknown as { dataLayer?: Array<Record<string, unknown>> }).dataLayer ?? [])
        .filter((e) => e.event === 'page_view')
        .map((e) => String(e.page_path)),
    );

  test('one page-view event per completed route change', async ({ page }) => {
    await page.goto('/pricing');
    // The landing page's own view is recorded when the browser is first idle, which a busy machine can put off until
    // after the next click: wait for it, so each later view is counted once and in order.
    await expect.poll(() => pageViews(page)).toEqual(['/pricing']);
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    await expect.poll(() => pageViews(page)).toEqual(['/pricing', '/faq']);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Blog', exact: true }).click();
    await page.waitForURL('**/blog');
    await expect.poll(() => pageViews(page)).toEqual(['/pricing', '/faq', '/blog']);
  });
});
