/**
 * Phones: no public page scrolls sideways at the common phone widths, from the smallest (320 px) up. One page per
 * route; the widths are changed on the same page, which re-lays it out like turning or resizing a browser window.
 */
import { PUBLIC_ROUTES } from '@/lib/publicRoutes';
import { expect, test } from './fixtures';

const WIDTHS = [320, 360, 375, 390] as const;

test.describe('phone widths', () => {
  test.use({ viewport: { width: WIDTHS[0], height: 720 } });

  for (const route of PUBLIC_ROUTES) {
    test(`${route} fits the screen at ${WIDTHS.join(', ')} px`, async ({ page }) => {
      await page.goto(route);
      const overflow: Record<number, { scrollWidth: number; innerWidth: number; widest: string }> = {};
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 720 });
        const measured = await page.evaluate(() => {
          const { scrollWidth } = document.documentElement;
          // When the page is too wide, name the element that sticks out furthest (what to fix), not only the figure.
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
      expect(overflow).toEqual({});
    });
  }
});
