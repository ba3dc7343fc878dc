// The page title never flashes the site default while a page hydrates (issue 31, point 8). In the browser next/head
// rewrites document.title from the <Head>s mounted so far, on each commit. The frame hydrates its page in a Suspense
// boundary of its own, after the root: a default <Seo /> rendered with the root was alone in the first commit, and the
// title read the default until the page's boundary hydrated (~10–30 ms in Chromium). Here the real _app hydrates the
// server HTML with Next's own head manager, and every title the document shows is recorded. The same harness with the
// default <Seo /> at the root, as _app had it, must see the flash, or the check proves nothing.
import { act } from '@testing-library/react';
import type { AppProps } from 'next/app';
import initHeadManager from 'next/dist/client/head-manager';
import { HeadManagerContext } from 'next/dist/shared/lib/head-manager-context.shared-runtime';
import type { ComponentType, ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createMemoryRouter, RouterProvider } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import AppLayout from '@/components/layout/AppLayout';
import Layout from '@/components/layout/Layout';
import Seo, { DEFAULT_TITLE, pageTitle } from '@/components/layout/Seo';
import App from '@/pages/_app';

type Frame = ComponentType<{ Component: AppProps['Component']; pageProps: Record<string, never>; router: AppProps['router'] }>;

/** _app as it was: the default head tags with the root, outside the frame's page boundary. */
function RootSeoApp({ Component }: { Component: AppProps['Component'] }) {
  return (
    <>
      <Seo />
      <Layout>
        <Component />
      </Layout>
    </>
  );
}

let container: HTMLDivElement;
let stopWatching: () => void = () => undefined;

beforeEach(() => {
  resetStores();
  container = document.createElement('div');
  document.body.appendChild(container);
});
afterEach(() => {
  stopWatching();
  container.remove();
});

/** Server HTML with the page's title in <head> (as the server sends it), hydrated; every title shown on the way. */
async function hydrateAndWatch(AppFrame: Frame, Component: AppProps['Component'], url: string, serverTitle: string): Promise<string[]> {
  const router = createMemoryRouter(url);
  const tree = (children: ReactNode) => <RouterProvider router={router}>{children}</RouterProvider>;
  const app = <AppFrame Component={Component} pageProps={{}} router={router as unknown as AppProps['router']} />;
  container.innerHTML = renderToString(tree(app));
  document.title = serverTitle;
  const seen: string[] = [document.title];
  // From the records, not document.title when the observer runs: two writes before it runs would show only the last.
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const inTitle = r.target instanceof HTMLTitleElement || r.target.parentNode instanceof HTMLTitleElement;
      const texts =
        r.type === 'characterData' ? (inTitle ? [r.target] : []) : Array.from(r.addedNodes).filter((n) => (inTitle && n.nodeType === Node.TEXT_NODE) || n instanceof HTMLTitleElement);
      for (const node of texts) {
        const text = node.textContent ?? '';
        if (seen[seen.length - 1] !== text) seen.push(text);
      }
    }
  });
  observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  stopWatching = () => observer.disconnect();
  await act(async () => {
    hydrateRoot(container, <HeadManagerContext.Provider value={initHeadManager()}>{tree(app)}</HeadManagerContext.Provider>);
  });
  // Every deferred boundary hydrated, every passive effect run.
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  observer.disconnect();
  return seen;
}

const MarketingPage = () => (
  <>
    <Seo title="Pricing" description="What ARB costs." path="/pricing" />
    <h1>Pricing</h1>
  </>
);

const DashboardPage = Object.assign(
  () => (
    <>
      <Seo title="Reviews" description="Every review." path="/dashboard/reviews" noindex />
      <h1>Reviews</h1>
    </>
  ),
  { Layout: AppLayout },
);

test('the harness sees the flash when the default head tags hydrate with the root (the old _app)', async () => {
  const seen = await hydrateAndWatch(RootSeoApp as unknown as Frame, MarketingPage, '/pricing', pageTitle('Pricing'));
  expect(seen).toContain(DEFAULT_TITLE);
  expect(seen.at(-1)).toBe(pageTitle('Pricing'));
});

test.each([
  ['a marketing page', MarketingPage, '/pricing', 'Pricing'],
  ['a dashboard page', DashboardPage, '/dashboard/reviews', 'Reviews'],
])('%s keeps its own title from the server HTML through hydration', async (_, Component, url, title) => {
  const seen = await hydrateAndWatch(App as unknown as Frame, Component, url, pageTitle(title));
  expect(seen).toEqual([pageTitle(title)]);
});
