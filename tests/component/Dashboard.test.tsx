import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, test } from 'vitest';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import DashboardHome from '@/components/auth/DashboardHome';
import { encodeBase64Url } from '@/lib/base64url';
import { AUTH_STORAGE_NAME, rehydrateAuth, useAuthStore } from '@/stores/auth';

const jwt = (claims: Record<string, unknown>) => ['eyJhbGciOiJIUzI1NiJ9', encodeBase64Url(JSON.stringify(claims)), 'signature'].join('.');

beforeEach(() => resetStores());

describe('/dashboard', () => {
  // First in the file on purpose: the persisted store is read once per page load (here: once per test file), and
  // this test checks that the page waits for that read instead of taking the token before it.
  test('waits for the stored user, and keeps their name when the token is theirs', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: 'old', email: 'ana@example.com', displayName: 'Ana' } }, version: 1 }));
    const token = jwt({ email: 'ana@example.com', org: 'org_7' });
    render(<DashboardHome />, { url: `/dashboard?token=home__${token}` });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your dashboard…');
    await rehydrateAuth();
    await waitFor(() => expect(useAuthStore.getState().authData).toEqual({ authToken: token, email: 'ana@example.com', displayName: 'Ana' }));
  });

  test('takes token=home__<token> from the URL, stores it, removes it from the address bar', async () => {
    const token = jwt({ email: 'ana@example.com', org: 'org_7', scope: 'full' });
    window.history.replaceState(null, '', `/dashboard?token=home__${token}&tab=apps`);
    render(<DashboardHome />, { url: `/dashboard?token=home__${token}&tab=apps` });
    await rehydrateAuth();
    expect(await screen.findByRole('heading', { name: 'Your dashboard' })).toBeInTheDocument();
    expect(useAuthStore.getState().authData).toEqual({ authToken: token, email: 'ana@example.com' });
    expect(window.location.pathname + window.location.search).toBe('/dashboard?tab=apps');
    expect(screen.getByText('ana@example.com')).toBeInTheDocument();
    expect(screen.getByText('org_7')).toBeInTheDocument();
  });

  test('a token for someone else replaces the stored user', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: 'old', email: 'ana@example.com', displayName: 'Ana' } }, version: 1 }));
    const token = jwt({ email: 'bo@example.com', org: 'org_8' });
    render(<DashboardHome />, { url: `/dashboard?token=home__${token}` });
    await rehydrateAuth();
    await waitFor(() => expect(useAuthStore.getState().authData).toEqual({ authToken: token, email: 'bo@example.com' }));
  });

  test('signed out: a link to sign in that comes back here', async () => {
    render(<DashboardHome />, { url: '/dashboard' });
    await rehydrateAuth();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect_to=/dashboard');
  });

  test('a stored session opens the dashboard without a token in the URL', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: jwt({ org: 'org_9' }), email: 'cy@example.com' } }, version: 1 }));
    render(<DashboardHome />, { url: '/dashboard' });
    await rehydrateAuth();
    expect(await screen.findByText('cy@example.com')).toBeInTheDocument();
    expect(screen.getByText('org_9')).toBeInTheDocument();
  });
});
