/**
 * The one render() of component tests (STYLE.md #12): a fresh QueryClient with retries off, and a small in-memory
 * Next router in RouterContext (next-router-mock is not installed and not needed). The router records push/replace
 * calls, updates its own URL so the tree re-renders, and fires routeChangeStart/Complete like the real one.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render as rtlRender, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import mitt from 'next/dist/shared/lib/mitt';
import { RouterContext } from 'next/dist/shared/lib/router-context.shared-runtime';
import type { NextRouter } from 'next/router';
import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { vi } from 'vitest';

// jsdom has no matchMedia; react-hot-toast asks it for prefers-reduced-motion. Answer "no preference".
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

type Url = string | { pathname?: string | null; query?: Record<string, unknown> | string | null };
type TransitionOptions = { shallow?: boolean; scroll?: boolean; locale?: string | false };

function toHref(url: Url): string {
  if (typeof url === 'string') return url;
  const query = url.query && typeof url.query === 'object' ? new URLSearchParams(url.query as Record<string, string>).toString() : (url.query ?? '');
  return `${url.pathname ?? '/'}${query ? `?${query}` : ''}`;
}

function parse(href: string, routePattern?: string) {
  const url = new URL(href, 'http://localhost:3000');
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    query[key] = all.length > 1 ? all : all[0];
  }
  return { pathname: routePattern ?? url.pathname, asPath: `${url.pathname}${url.search}${url.hash}`, query };
}

export type MemoryRouter = NextRouter & {
  push: ReturnType<typeof vi.fn>;
  replace: ReturnType<typeof vi.fn>;
  /** Subscribe/snapshot for the provider; tests don't need these. */
  subscribe(listener: () => void): () => void;
  snapshot(): NextRouter;
};

/**
 * `url` is the current address (path + query); `pathname` is the route pattern when it differs (e.g. '/blog/[slug]').
 */
export function createMemoryRouter(url = '/', options: { pathname?: string; isReady?: boolean } = {}): MemoryRouter {
  const events = mitt();
  const listeners = new Set<() => void>();
  let state = { ...parse(url, options.pathname), isReady: options.isReady ?? true };
  let current: NextRouter;

  const navigate = (kind: 'push' | 'replace') =>
    vi.fn(async (target: Url, as?: Url, opts: TransitionOptions = {}) => {
      const href = toHref(as ?? target);
      const shallow = Boolean(opts.shallow);
      events.emit('routeChangeStart', href, { shallow });
      state = { ...parse(href), isReady: true };
      rebuild();
      listeners.forEach((l) => l());
      events.emit('routeChangeComplete', href, { shallow });
      return kind === 'push' || kind === 'replace';
    });

  const push = navigate('push');
  const replace = navigate('replace');

  const router = {
    push,
    replace,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => current,
  } as unknown as MemoryRouter;

  function rebuild() {
    current = {
      ...state,
      route: state.pathname,
      basePath: '',
      isFallback: false,
      isLocaleDomain: false,
      isPreview: false,
      locale: undefined,
      locales: undefined,
      defaultLocale: undefined,
      domainLocales: undefined,
      events,
      push,
      replace,
      reload: vi.fn(),
      back: vi.fn(),
      forward: vi.fn(),
      prefetch: vi.fn(async () => undefined),
      beforePopState: vi.fn(),
    } as NextRouter;
    Object.assign(router, current);
  }
  rebuild();
  return router;
}

export function RouterProvider({ router, children }: { router: MemoryRouter; children: ReactNode }) {
  const value = useSyncExternalStore(router.subscribe, router.snapshot, router.snapshot);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export type TestRenderOptions = Omit<RenderOptions, 'wrapper'> & {
  url?: string;
  pathname?: string;
  router?: MemoryRouter;
  /** Pass vi.advanceTimersByTime when the test uses fake timers. */
  advanceTimers?: (ms: number) => unknown;
};

export function render(ui: ReactElement, options: TestRenderOptions = {}) {
  const { url = '/', pathname, advanceTimers, router: given, ...rest } = options;
  const router = given ?? createMemoryRouter(url, { pathname });
  const queryClient = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router}>{children}</RouterProvider>
    </QueryClientProvider>
  );
  const user = userEvent.setup(advanceTimers ? { advanceTimers } : {});
  return { ...rtlRender(ui, { wrapper, ...rest }), router, queryClient, user };
}
