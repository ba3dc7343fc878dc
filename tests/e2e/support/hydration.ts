/**
 * A statically generated page is visible before React has hydrated it; until then links do full page loads and
 * buttons do nothing. A person waits for the page to work: so do the tests. Hydration is over when the React root of
 * Next's container (#__next) is no longer dehydrated (React 18+ keeps that flag on the root fiber's state).
 */
import type { Page, Response } from '@playwright/test';

export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const container = document.getElementById('__next') as (HTMLElement & Record<string, unknown>) | null;
    const key = container ? Object.keys(container).find((k) => k.startsWith('__reactContainer$')) : undefined;
    const fiber = key ? (container![key] as { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } }) : undefined;
    return fiber?.stateNode?.current?.memoizedState?.isDehydrated === false;
  });
}

const isPage = (r: Response | null) => Boolean(r && (r.headers()['content-type'] ?? '').includes('text/html'));

/** Makes page.goto and page.reload wait for hydration after the HTML has loaded (images and the like may lag). */
export function hydratingNavigation(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const res = await goto(url, { waitUntil: 'domcontentloaded', ...options });
    if (isPage(res)) await waitForHydration(page);
    return res;
  };
  page.reload = async (options) => {
    const res = await reload({ waitUntil: 'domcontentloaded', ...options });
    if (isPage(res)) await waitForHydration(page);
    return res;
  };
}
