// The dashboard's own frame (components/layout/AppLayout.tsx): an app bar without the marketing header's links, no
// footer, a skeleton in the user menu's place until the stored user is read (the server HTML included), and every
// page under pages/dashboard choosing it.
import { act, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { encode as encodeBase64Url } from 'jose/base64url';
import { beforeEach, describe, expect, test } from 'vitest';
import { createMemoryRouter, render, RouterProvider } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import AppLayout from '@/components/layout/AppLayout';
import App from '@/pages/_app';
import type { AppProps } from 'next/app';
import { AUTH_STORAGE_NAME, rehydrateAuth } from '@/stores/auth';

const jwt = (claims: Record<string, unknown>) =>
  ['eyJhbGciOiJIUzI1NiJ9', encodeBase64Url(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })), 'signature'].join('.');

const MARKETING_WORDS = /^(Login|Log in|Try it Free|Pricing|Features|Sources|Use Cases|Resources|Menu)$/i;

beforeEach(() => resetStores());

describe('AppLayout', () => {
  test('the server HTML: the brand to /dashboard and a skeleton, no marketing link, no footer', () => {
    const html = renderToString(
      <RouterProvider router={createMemoryRouter('/dashboard/reviews')}>
        <AppLayout>
          <p>page</p>
        </AppLayout>
      </RouterProvider>,
    );
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const banner = doc.querySelector('header')!;
    expect([...banner.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['★ARB — your dashboard', '/dashboard']]);
    expect(banner.querySelector('button')).toBeNull();
    expect(banner.querySelector('[aria-hidden="true"][class*="userSkeleton"]')).not.toBeNull();
    expect(doc.querySelector('footer')).toBeNull();
    expect(doc.querySelector('main#main')?.textContent).toBe('page');
  });

  test('signed in: the user menu once the stored user is read; never a signed-out link', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: jwt({ email: 'ana@example.com', scope: 'full' }), refreshToken: 'r', email: 'ana@example.com' } }, version: 1 }));
    render(
      <AppLayout>
        <p>page</p>
      </AppLayout>,
      { url: '/dashboard' },
    );
    await act(() => rehydrateAuth());
    const banner = screen.getByRole('banner');
    expect(await within(banner).findByRole('button', { name: 'ana@example.com' })).toBeInTheDocument();
    expect(within(banner).getAllByRole('link').map((l) => l.textContent)).toEqual(['★ARB — your dashboard']);
    expect(within(banner).queryAllByRole('link', { name: MARKETING_WORDS })).toEqual([]);
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  test('signed out: no menu and no Login in the bar (the page itself asks to sign in)', async () => {
    render(
      <AppLayout>
        <p>page</p>
      </AppLayout>,
      { url: '/dashboard' },
    );
    await act(() => rehydrateAuth());
    const banner = screen.getByRole('banner');
    expect(within(banner).queryByRole('button')).toBeNull();
    expect(within(banner).getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual(['/dashboard']);
  });
});

describe('pages/dashboard/**', () => {
  const pages = import.meta.glob<{ default: { Layout?: unknown } }>('/pages/dashboard/**/*.tsx', { eager: true });

  test.each(Object.keys(pages))('%s renders in the app layout', (file) => {
    expect(pages[file].default.Layout).toBe(AppLayout);
  });

  test('found the dashboard pages (the glob matched)', () => {
    expect(Object.keys(pages).length).toBeGreaterThanOrEqual(9);
  });
});

describe('_app', () => {
  const frame = (Component: AppProps['Component'], url: string) =>
    render(<App Component={Component} pageProps={{}} router={createMemoryRouter(url) as unknown as AppProps['router']} />, { url });

  test('a page without a Layout gets the marketing frame: header with Login, footer', () => {
    const Marketing = () => <p>marketing</p>;
    frame(Marketing, '/pricing');
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  test('a page with Layout = AppLayout gets the app bar and no footer', () => {
    const InApp = Object.assign(() => <p>in the app</p>, { Layout: AppLayout });
    frame(InApp, '/dashboard/reviews');
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: 'Login' })).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(screen.getByRole('main')).toHaveTextContent('in the app');
  });
});
