/**
 * The pages' Content-Security-Policy allows no inline script except by hash (server/http/scriptHashes.ts), and every
 * page still hydrates under it: Chromium reports no `securitypolicyviolation` and logs no CSP error, on every route —
 * the pages served from memory, a page Next renders (a 404), and the app pages.
 */
import { PUBLIC_ROUTES } from '@/lib/publicRoutes';
import { expect, test } from './fixtures';
import { APP_ROUTES } from './support/html';

const ROUTES = [...new Set([...PUBLIC_ROUTES, ...APP_ROUTES, '/no-such-page-here'])];

test.describe('Content-Security-Policy of the pages', () => {
  for (const route of ROUTES) {
    test(`${route}: no inline script allowed but by hash, hydrates with no CSP violation`, async ({ page }) => {
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
      });
      await page.exposeFunction('__reportCspViolation', (v: string) => violations.push(v));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          (window as unknown as { __reportCspViolation: (v: string) => void }).__reportCspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
        });
      });

      const res = await page.goto(route); // returns once hydrated (fixtures.ts)
      const csp = res!.headers()['content-security-policy'] ?? '';
      const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc, 'script-src present').not.toBe('');
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
      await page.waitForTimeout(300); // late scripts (chunks loaded after hydration) get their chance to be blocked
      expect(violations).toEqual([]);
    });
  }
});
