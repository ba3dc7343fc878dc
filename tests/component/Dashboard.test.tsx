import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fail, notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import DashboardHome from '@/pages/dashboard/index';
import YourSessions from '@/components/dashboard/YourSessions';
import { encode as encodeBase64Url } from 'jose/base64url';
import { topWindow } from '@/lib/navigation';
import { AUTH_STORAGE_NAME, rehydrateAuth, useAuthStore } from '@/stores/auth';

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const jwt = (claims: Record<string, unknown>) => ['eyJhbGciOiJIUzI1NiJ9', encodeBase64Url(JSON.stringify({ exp: inAnHour(), ...claims })), 'signature'].join('.');

let fake: ApiFake | undefined;
beforeEach(() => resetStores());
afterEach(async () => {
  fake?.restore();
  await fake?.close();
  fake = undefined;
  vi.restoreAllMocks();
});

const handoffRequests = () => fake!.requests.filter(notPreflight).filter((r) => r.path === '/api/v1/auth/token/handoff');

describe('/dashboard', () => {
  // First in the file on purpose: the persisted store is read once per page load (here: once per test file), and
  // this test checks that the page waits for that read instead of exchanging the code before it.
  test('waits for the stored user, then exchanges the hand-off code for the session, which replaces the stored one', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: 'old', email: 'ana@example.com', displayName: 'Ana' } }, version: 1 }));
    const access = jwt({ email: 'ana@example.com', org: 'org_7', scope: 'full' });
    fake = await startApiFake([route('POST', '/api/v1/auth/token/handoff', ok({ authToken: access, refreshToken: 'r1', email: 'ana@example.com', displayName: 'Ana' }))]);
    window.history.replaceState(null, '', '/dashboard?token=home__code123');
    render(<DashboardHome />, { url: '/dashboard?token=home__code123' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your dashboard…');
    // The code left the address bar before anything else ran.
    expect(window.location.search).toBe('');
    await rehydrateAuth();
    await waitFor(() => expect(useAuthStore.getState().authData).toEqual({ authToken: access, refreshToken: 'r1', email: 'ana@example.com', displayName: 'Ana' }));
    expect(handoffRequests().map((r) => JSON.parse(r.body))).toEqual([{ code: 'code123' }]);
  });

  test('removes token=home__… from the address bar, other parameters stay; the code is used once', async () => {
    const access = jwt({ email: 'ana@example.com', org: 'org_7', scope: 'full' });
    fake = await startApiFake([route('POST', '/api/v1/auth/token/handoff', ok({ authToken: access, refreshToken: 'r2', email: 'ana@example.com' }))]);
    window.history.replaceState(null, '', '/dashboard?token=home__abc&tab=apps');
    render(<DashboardHome />, { url: '/dashboard?token=home__abc&tab=apps' });
    expect(window.location.pathname + window.location.search).toBe('/dashboard?tab=apps');
    await rehydrateAuth();
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    expect(handoffRequests()).toHaveLength(1);
  });

  test('a used or expired code leaves the stored session as it was', async () => {
    const stored = jwt({ email: 'cy@example.com', org: 'org_9', scope: 'full' });
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: stored, refreshToken: 'r', email: 'cy@example.com' } }, version: 1 }));
    fake = await startApiFake([route('POST', '/api/v1/auth/token/handoff', fail(401, 'code_invalid', 'This dashboard link has expired or was already used. Open the dashboard again.'))]);
    window.history.replaceState(null, '', '/dashboard?token=home__used');
    render(<DashboardHome />, { url: '/dashboard?token=home__used' });
    await rehydrateAuth();
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    expect(useAuthStore.getState().authData.authToken).toBe(stored);
  });

  test.each([
    ['Continue as ana@example.com', 'ana@example.com'],
    ['Stay signed in as cy@example.com', 'cy@example.com'],
  ])('a code for another account asks before replacing the stored one: "%s"', async (answer, after) => {
    const stored = jwt({ email: 'cy@example.com', org: 'org_9', scope: 'full' });
    const theirs = jwt({ email: 'ana@example.com', org: 'org_7', scope: 'full' });
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: stored, refreshToken: 'r', email: 'cy@example.com' } }, version: 1 }));
    fake = await startApiFake([route('POST', '/api/v1/auth/token/handoff', ok({ authToken: theirs, refreshToken: 'r7', email: 'ana@example.com' }))]);
    window.history.replaceState(null, '', '/dashboard?token=home__foreign');
    const { user } = render(<DashboardHome />, { url: '/dashboard?token=home__foreign' });
    await rehydrateAuth();
    expect(await screen.findByText('You are signed in as cy@example.com. Continue as ana@example.com?')).toBeInTheDocument();
    expect(useAuthStore.getState().authData.email).toBe('cy@example.com');
    await user.click(screen.getByRole('button', { name: answer }));
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    expect(useAuthStore.getState().authData.email).toBe(after);
  });

  test('signed out: a link to sign in that comes back here', async () => {
    render(<DashboardHome />, { url: '/dashboard' });
    await rehydrateAuth();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect_to=/dashboard');
  });

  test('a billing-only token (from /subscribe) opens no dashboard', async () => {
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: jwt({ org: 'org_9', scope: 'billing' }), email: 'o***@example.com' } }, version: 1 }));
    render(<DashboardHome />, { url: '/dashboard' });
    await rehydrateAuth();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  // On /dashboard/team ("Your sessions") since /dashboard became the overview.
  test('"Sign out everywhere" ends every session on the server, then signs this browser out', async () => {
    const access = jwt({ email: 'cy@example.com', org: 'org_9', scope: 'full' });
    localStorage.setItem(AUTH_STORAGE_NAME, JSON.stringify({ state: { authData: { authToken: access, refreshToken: 'r', email: 'cy@example.com' } }, version: 1 }));
    fake = await startApiFake([route('POST', '/api/v1/auth/logout/everywhere', ok({ ok: true, sessions: 3 })), route('POST', '/api/v1/auth/logout', ok({ ok: true }))]);
    const navigate = vi.spyOn(topWindow, 'navigate').mockImplementation(() => undefined);
    const { user } = render(<YourSessions />, { url: '/dashboard/team' });
    await rehydrateAuth();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    const everywhere = fake.requests.filter(notPreflight).find((r) => r.path === '/api/v1/auth/logout/everywhere')!;
    expect(everywhere.headers.authorization).toBe(`Bearer ${access}`);
    expect(useAuthStore.getState().authData).toEqual({});
  });
});
