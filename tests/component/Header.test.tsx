import { act, fireEvent, screen, within } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fail, notPreflight, ok, route, startApiFake, type ApiFake } from './support/apiFake';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import Header from '@/components/layout/Header';
import { SEARCH_INPUT_ID } from '@/components/search/searchFocus';
import { topWindow } from '@/lib/navigation';
import { siteConfig, type SiteConfig } from '@/lib/siteConfig';
import { useAuthStore } from '@/stores/auth';

beforeEach(() => resetStores());

function signIn(data: { email: string; name?: string; displayName?: string; authToken?: string }) {
  useAuthStore.getState().setAuthData({ authToken: 'tok-1', ...data });
}

describe('signed out', () => {
  test('shows Login carrying the current path and query as redirect_to, and Try it Free', () => {
    render(<Header />, { url: '/pricing?plan=pro' });
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login?redirect_to=%2Fpricing%3Fplan%3Dpro');
    expect(screen.getByRole('link', { name: 'Try it Free' })).toHaveAttribute('href', '/');
  });

  test('an existing redirect_to is passed on as it is', () => {
    render(<Header />, { url: '/try-free?redirect_to=%2Fdashboard' });
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login?redirect_to=%2Fdashboard');
  });

  test('hides Login on /login', () => {
    render(<Header />, { url: '/login?redirect_to=%2Fpricing' });
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Try it Free' })).toBeInTheDocument();
  });

  test('hides Try it Free on /try-free', () => {
    render(<Header />, { url: '/try-free' });
    expect(screen.queryByRole('link', { name: 'Try it Free' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  test('no user menu', () => {
    render(<Header />, { url: '/' });
    expect(screen.queryByRole('button', { name: /@/ })).toBeNull();
  });
});

describe('Try it Free', () => {
  afterEach(() => vi.useRealTimers());

  function SearchStandIn() {
    return <input id={SEARCH_INPUT_ID} type="search" aria-label="Search your app" />;
  }

  test('on / it focuses the search box at once with its toast', async () => {
    const { user } = render(
      <>
        <Header />
        <SearchStandIn />
        <Toaster />
      </>,
      { url: '/' },
    );
    await user.click(screen.getByRole('link', { name: 'Try it Free' }));
    expect(screen.getByRole('searchbox', { name: 'Search your app' })).toHaveFocus();
    expect(await screen.findByText('Start by typing name of your app')).toBeInTheDocument();
  });

  test('from another page it goes to / first and focuses about 1 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, router } = render(
      <>
        <Header />
        <SearchStandIn />
        <Toaster />
      </>,
      { url: '/pricing', advanceTimers: vi.advanceTimersByTime },
    );
    await user.click(screen.getByRole('link', { name: 'Try it Free' }));
    expect(router.push).toHaveBeenCalledWith('/');
    const search = screen.getByRole('searchbox', { name: 'Search your app' });
    act(() => void vi.advanceTimersByTime(900));
    expect(search).not.toHaveFocus();
    act(() => void vi.advanceTimersByTime(100));
    expect(search).toHaveFocus();
    expect(await screen.findByText('Start by typing name of your app')).toBeInTheDocument();
  });
});

describe('signed in', () => {
  test('the dropdown is labelled with the display name, else the name, else the e-mail', () => {
    signIn({ email: 'ana@example.com', name: 'Ana Lima', displayName: 'Ana' });
    const { unmount } = render(<Header />, { url: '/pricing' });
    expect(screen.getByRole('button', { name: 'Ana' })).toBeInTheDocument();
    unmount();
    signIn({ email: 'ana@example.com', name: 'Ana Lima' });
    const second = render(<Header />, { url: '/pricing' });
    expect(screen.getByRole('button', { name: 'Ana Lima' })).toBeInTheDocument();
    second.unmount();
    signIn({ email: 'ana@example.com' });
    render(<Header />, { url: '/pricing' });
    expect(screen.getByRole('button', { name: 'ana@example.com' })).toBeInTheDocument();
  });

  test('replaces Login and Try it Free', () => {
    signIn({ email: 'ana@example.com' });
    render(<Header />, { url: '/pricing' });
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Try it Free' })).toBeNull();
  });

  test('the menu shows the e-mail, Dashboard and Logout, and works from the keyboard', async () => {
    signIn({ email: 'ana@example.com', displayName: 'Ana' });
    const { user } = render(<Header />, { url: '/pricing' });
    const button = screen.getByRole('button', { name: 'Ana' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await user.keyboard('{ArrowDown}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu');
    expect(screen.getByText('ana@example.com')).toBeInTheDocument();
    const dashboard = within(menu).getByRole('menuitem', { name: 'Dashboard' });
    const logout = within(menu).getByRole('menuitem', { name: 'Logout' });
    await vi.waitFor(() => expect(dashboard).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(logout).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(dashboard).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });

  test('a click outside closes the menu', async () => {
    signIn({ email: 'ana@example.com' });
    const { user } = render(
      <>
        <Header />
        <p>Elsewhere</p>
      </>,
      { url: '/pricing' },
    );
    await user.click(screen.getByRole('button', { name: 'ana@example.com' }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  test('Logout clears storage, signs out and sends the top window home', async () => {
    const navigate = vi.spyOn(topWindow, 'navigate').mockImplementation(() => undefined);
    signIn({ email: 'ana@example.com' });
    localStorage.setItem('referral', 'x');
    const { user } = render(<Header />, { url: '/pricing' });
    await user.click(screen.getByRole('button', { name: 'ana@example.com' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(localStorage.length).toBe(0);
    expect(navigate).toHaveBeenCalledWith('/');
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
    navigate.mockRestore();
  });

  describe('Dashboard', () => {
    let fake: ApiFake;
    afterEach(async () => {
      fake.restore();
      await fake.close();
    });

    test('refreshes the token and opens /dashboard?token=home__<token> in the top window', async () => {
      fake = await startApiFake([route('GET', '/api/v1/auth/token/refresh', ok({ token: 'fresh.jwt.token' }))]);
      const navigate = vi.spyOn(topWindow, 'navigate').mockImplementation(() => undefined);
      signIn({ email: 'ana@example.com', authToken: 'old-token' });
      const { user } = render(
        <>
          <Header />
          <Toaster />
        </>,
        { url: '/pricing' },
      );
      await user.click(screen.getByRole('button', { name: 'ana@example.com' }));
      await user.click(screen.getByRole('menuitem', { name: 'Dashboard' }));
      expect(await screen.findByText('Redirecting to dashboard...')).toBeInTheDocument();
      await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/dashboard?token=home__fresh.jwt.token'));
      const [req] = fake.requests.filter(notPreflight);
      expect(req.headers.authorization).toBe('Bearer old-token');
      navigate.mockRestore();
    });

    test('still opens the dashboard, without a token, when the refresh fails', async () => {
      fake = await startApiFake([route('GET', '/api/v1/auth/token/refresh', fail(401, 'unauthorized', 'Your session has expired.'))]);
      const navigate = vi.spyOn(topWindow, 'navigate').mockImplementation(() => undefined);
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      signIn({ email: 'ana@example.com', authToken: 'expired' });
      const { user } = render(<Header />, { url: '/pricing' });
      await user.click(screen.getByRole('button', { name: 'ana@example.com' }));
      await user.click(screen.getByRole('menuitem', { name: 'Dashboard' }));
      await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/dashboard'));
      expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.anything());
      navigate.mockRestore();
      consoleError.mockRestore();
    });
  });
});

describe('sections', () => {
  test('the four sections show when enabled, as disclosure buttons with their links', async () => {
    const { user } = render(<Header />, { url: '/pricing' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const label of ['Features', 'Sources', 'Use Cases', 'Resources']) {
      expect(within(nav).getByRole('button', { name: label })).toHaveAttribute('aria-expanded', 'false');
    }
    await user.click(within(nav).getByRole('button', { name: 'Sources' }));
    expect(within(nav).getByRole('button', { name: 'Sources' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(nav).getByRole('link', { name: /Google Play/ })).toHaveAttribute('href', '/sources/app-reviews/google-play');
    await user.keyboard('{Escape}');
    expect(within(nav).queryByRole('link', { name: /Google Play/ })).toBeNull();
  });

  test('a section disabled in site configuration is not shown', () => {
    const config: SiteConfig = {
      ...siteConfig,
      menu: { ...siteConfig.menu, sections: siteConfig.menu.sections.map((s) => ({ ...s, enabled: s.id !== 'useCases' && s.id !== 'resources' })) },
    };
    render(<Header config={config} />, { url: '/pricing' });
    expect(screen.getByRole('button', { name: 'Features' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use Cases' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resources' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const mobile = screen.getByRole('navigation', { name: 'Mobile' });
    expect(within(mobile).queryByText('Use Cases')).toBeNull();
    expect(within(mobile).getByText('Features')).toBeInTheDocument();
  });
});

describe('mobile menu', () => {
  test('is a collapsible list controlled by its button', async () => {
    const { user } = render(<Header />, { url: '/pricing' });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const mobile = screen.getByRole('navigation', { name: 'Mobile' });
    expect(toggle.getAttribute('aria-controls')).toBe(mobile.id);
  });

  test('closes when a link is chosen', async () => {
    const { user, router } = render(<Header />, { url: '/pricing' });
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', { name: 'Developers' }));
    expect(router.push).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  test('closes on a click outside', async () => {
    const { user } = render(
      <>
        <Header />
        <p>Page text</p>
      </>,
      { url: '/pricing' },
    );
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByText('Page text'));
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();
  });
});

describe('background', () => {
  test.each([
    ['/', 'blue'],
    ['/try-free', 'blue'],
    ['/ask-arb', 'dark'],
    ['/pricing', 'light'],
    ['/login', 'light'],
  ])('on %s the header is %s', (url, tone) => {
    render(<Header />, { url });
    expect(screen.getByRole('banner')).toHaveAttribute('data-tone', tone);
  });
});
