/**
 * Every public route answers 200 with its own h1 and title in the server's HTML (static generation); its
 * Content-Security-Policy allows no inline script except by hash (server/http/scriptHashes.ts) and the page still
 * hydrates under it with no violation; once hydrated axe-core finds no serious or critical accessibility violation; and
 * at the common phone widths it does not scroll sideways. One visit per route serves all of these checks (the app
 * pages and the 404 page get the ones that apply to them). The alternative paths lead to their pages, and 404,
 * sitemap.xml and robots.txt are useful.
 *
 * The route checks of one worker share one signed-out browser page, as a visitor going from page to page: axe-core's
 * ~0.5 MB of script, compiled anew in every new page, took twice the CPU there as in a page that had run it before,
 * and axe is most of a route check's cost. Each check starts at the desktop size with its own list of CSP violations.
 */
import type { Page, Response } from '@playwright/test';
import { MARKETING_ROUTES, PUBLIC_ROUTES, ROUTE_ALIASES } from '@/shared/publicRoutes';
import { expect, hydratingNavigation, test as base } from './fixtures';
import { seriousViolations } from './support/a11y';
import { APP_ROUTES, headingsAndTitle, metaContent } from './support/html';
import { operatorWords } from '@/tests/helpers/operatorWords';
import { PHONE_WIDTHS, scriptSrc, sidewaysScrollAtPhoneWidths, watchCspViolations } from './support/pageChecks';

type RoutePage = { page: Page; cspViolations: string[] };

const test = base.extend<{ routePage: RoutePage }, { workerRoutePage: RoutePage }>({
  workerRoutePage: [
    async ({ browser }, provide, workerInfo) => {
      // The context every test gets from playwright.config.ts's `use` (device, locale, time zone).
      const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId });
      const page = await context.newPage();
      hydratingNavigation(page);
      const cspViolations = await watchCspViolations(page);
      await provide({ page, cspViolations });
      await context.close();
    },
    { scope: 'worker' },
  ],
  routePage: async ({ workerRoutePage, viewport }, provide) => {
    workerRoutePage.cspViolations.length = 0;
    if (viewport) await workerRoutePage.page.setViewportSize(viewport);
    await provide(workerRoutePage);
  },
});

/** Visits `route` in the browser (returns once hydrated) and gives the server's HTML, which must not be a redirect. */
async function visit(page: Page, route: string): Promise<{ res: Response; html: string }> {
  const res = await page.goto(route);
  expect(res, route).not.toBeNull();
  expect(res!.request().redirectedFrom(), `${route} answers itself, without a redirect`).toBeNull();
  return { res: res!, html: await res!.text() };
}

/** The page's CSP allows inline scripts only by hash. */
function expectScriptsByHashOnly(res: Response) {
  const src = scriptSrc(res);
  expect(src, 'script-src present').not.toBe('');
  expect(src).not.toContain("'unsafe-inline'");
  expect(src).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
}

test.describe('every public route', () => {
  for (const route of [...PUBLIC_ROUTES, '/login']) {
    const phones = route !== '/login';
    test(`${route} answers 200 with one h1 and a title, hydrates under a CSP with scripts by hash only, without serious accessibility violations${phones ? `, fits the screen at ${PHONE_WIDTHS.join(', ')} px` : ''}`, async ({ routePage: { page, cspViolations } }) => {
      const { res, html } = await visit(page, route); // returns once hydrated (fixtures.ts)
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toContain('text/html');
      expectScriptsByHashOnly(res);
      const { h1s, title } = headingsAndTitle(html);
      expect(h1s, 'exactly one h1, rendered on the server').toHaveLength(1);
      expect(h1s[0].length).toBeGreaterThan(2);
      expect(title.length).toBeGreaterThan(2);
      // The hydrated page: axe sees what a visitor sees, not the first server paint.
      expect(await seriousViolations(page)).toEqual([]);
      // No operator words in front of customers: no server setting's name anywhere a visitor can read (issue 31).
      expect(operatorWords(await page.locator('body').innerText()), 'setting names in the page').toEqual([]);
      if (phones) expect(await sidewaysScrollAtPhoneWidths(page)).toEqual({});
      // Checked last: chunks loaded after hydration (and by the narrower layouts) have had their chance to be blocked.
      expect(cspViolations).toEqual([]);
    });
  }

  // /subscribe shows nothing without an org id, /dashboard waits for the stored session: their h1 comes in the browser.
  for (const route of APP_ROUTES.filter((r) => r !== '/login')) {
    test(`${route} answers 200 with its title, is kept out of search engines, hydrates under a CSP with scripts by hash only, without serious accessibility violations`, async ({ routePage: { page, cspViolations } }) => {
      const { res, html } = await visit(page, route);
      expect(res.status()).toBe(200);
      expectScriptsByHashOnly(res);
      expect(headingsAndTitle(html).title.length).toBeGreaterThan(2);
      expect(metaContent(html, 'robots')).toBe('noindex');
      expect(await seriousViolations(page)).toEqual([]);
      expect(cspViolations).toEqual([]);
    });
  }

  test('no two marketing pages share a title or an h1', async ({ request }) => {
    const seen = await Promise.all(
      MARKETING_ROUTES.map(async (route) => ({ route, ...headingsAndTitle(await (await request.get(route)).text()) })),
    );
    const dupes = (key: (s: (typeof seen)[number]) => string) => {
      const by = new Map<string, string[]>();
      for (const s of seen) by.set(key(s), [...(by.get(key(s)) ?? []), s.route]);
      return [...by.entries()].filter(([, routes]) => routes.length > 1);
    };
    expect(dupes((s) => s.title), 'titles shared by several routes').toEqual([]);
    expect(dupes((s) => s.h1s[0] ?? ''), 'h1s shared by several routes').toEqual([]);
  });

  test('statically generated routes are served from the build, not rendered per request', async ({ request }) => {
    // Next's __NEXT_DATA__ says how a pages-router page was made: "gsp" (getStaticProps) or "autoExport" (no data)
    // for prerendered pages, "gssp" for per-request rendering.
    for (const route of PUBLIC_ROUTES) {
      const html = await (await request.get(route)).text();
      expect(html, route).toMatch(/"gsp":true|"autoExport":true/);
      expect(html, route).not.toContain('"gssp":true');
    }
  });
});

test.describe('alternative paths', () => {
  for (const [alias, target] of Object.entries(ROUTE_ALIASES)) {
    test(`${alias} leads to ${target}`, async ({ page }) => {
      const res = await page.goto(alias);
      expect(res?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(target);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
  }

  for (const route of ['/books/', '/features/review-monitoring/']) {
    test(`${route} with a trailing slash works too`, async ({ request }) => {
      const res = await request.get(route);
      expect(res.status()).toBe(200);
      expect(headingsAndTitle(await res.text()).h1s).toHaveLength(1);
    });
  }

  for (const route of ['/privacy/', '/terms/', '/pricing/', '/blog/', '/contact/', '/ask-arb/']) {
    test(`${route} (trailing slash, as the footer writes it) answers`, async ({ request }) => {
      const res = await request.get(route);
      expect(res.status()).toBe(200);
      expect(new URL(res.url()).pathname).toBe(route.slice(0, -1));
    });
  }
});

test.describe('404, sitemap and robots', () => {
  test('an unknown path answers 404 with a page that helps the visitor on, rendered by Next under the same CSP', async ({ page }) => {
    const cspViolations = await watchCspViolations(page);
    const res = await page.goto('/no-such-page-here');
    expect(res?.status()).toBe(404);
    expectScriptsByHashOnly(res!);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // A way back to the search on the home page, inside the page itself (not only the header's logo).
    await expect(page.getByRole('main').locator('a[href="/"]').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  test('sitemap.xml lists every public route and nothing from the signed-in app', async ({ request }) => {
    const res = await request.get('/sitemap.xml');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('xml');
    const locs = [...(await res.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname.replace(/(.)\/$/, '$1'));
    expect(new Set(locs)).toEqual(new Set(PUBLIC_ROUTES));
  });

  test('robots.txt allows crawling and points at the sitemap', async ({ request }) => {
    const res = await request.get('/robots.txt');
    expect(res.status()).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/User-agent: \*/i);
    expect(text).toMatch(/Sitemap: https?:\/\/[^\s]+\/sitemap\.xml/);
  });
});
