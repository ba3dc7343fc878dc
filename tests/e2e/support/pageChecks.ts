/**
 * Checks that every route gets, written to run inside the one visit routes.spec.ts makes per route (a visit is most
 * of an end-to-end test's time: a new browser page, the HTML, the scripts, hydration).
 */
import type { Page, Response } from '@playwright/test';

/**
 * Collects Content-Security-Policy violations on `page` from now on: the `securitypolicyviolation` events of every
 * document it loads and Chromium's console reports. Call before `page.goto`.
 */
export async function watchCspViolations(page: Page): Promise<string[]> {
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
  return violations;
}

/** The page's script-src, from its Content-Security-Policy header ('' when there is none). */
export function scriptSrc(res: Response): string {
  const csp = res.headers()['content-security-policy'] ?? '';
  return /(?:^|;\s*)script-src ([^;]*)/.exec(csp)?.[1] ?? '';
}

/** The common phone widths, from the smallest (320 px) up. */
export const PHONE_WIDTHS = [320, 360, 375, 390] as const;

type Overflow = { scrollWidth: number; innerWidth: number; widest: string };

/**
 * Resizes the page through PHONE_WIDTHS (it re-lays out like turning or resizing a browser window) and gives the widths
 * at which it scrolls sideways, each naming the element that sticks out furthest (what to fix), not only the figure.
 */
export async function sidewaysScrollAtPhoneWidths(page: Page): Promise<Record<number, Overflow>> {
  const overflow: Record<number, Overflow> = {};
  for (const width of PHONE_WIDTHS) {
    await page.setViewportSize({ width, height: 720 });
    const measured = await page.evaluate(() => {
      const { scrollWidth } = document.documentElement;
      let widest = '';
      if (scrollWidth > window.innerWidth) {
        let right = 0;
        for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
          const r = el.getBoundingClientRect().right;
          if (r > right) {
            right = r;
            widest = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${String(el.className)} (right edge ${Math.round(r)} px)`;
          }
        }
      }
      return { scrollWidth, innerWidth: window.innerWidth, widest };
    });
    if (measured.scrollWidth > measured.innerWidth) overflow[width] = measured;
  }
  return overflow;
}
