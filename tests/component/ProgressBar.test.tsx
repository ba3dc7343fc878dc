import { act, screen, waitFor } from '@testing-library/react';
import NProgress from 'nprogress';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { render } from '@/tests/helpers/render';
import { resetStores } from '@/tests/helpers/resetStores';
import Layout from '@/components/layout/Layout';
import ProgressBar, { PROGRESS_MAXIMUM } from '@/components/layout/ProgressBar';
import { registerAnalyticsSink, resetAnalyticsForTests } from '@/lib/analytics';

afterEach(async () => {
  // done() takes the bar away from two timers later (fade, then remove): let them run while this file's document
  // exists, or they fire into the next file's torn-down environment.
  await waitFor(() => expect(document.getElementById('nprogress')).toBeNull(), { timeout: 1_000 }).catch(() => undefined);
  NProgress.remove();
  NProgress.status = null;
  resetAnalyticsForTests();
});

describe('route progress bar', () => {
  test('uses its constants: minimum 8 %, trickle every 800 ms, 200 ms animation, capped at 99.4 %', () => {
    expect(NProgress.settings).toMatchObject({ minimum: 0.08, trickleSpeed: 800, speed: 200 });
    NProgress.set(0.99);
    NProgress.inc(0.5);
    expect(NProgress.status).toBe(PROGRESS_MAXIMUM);
    expect(PROGRESS_MAXIMUM).toBe(0.994);
  });

  test('shows on a non-shallow route change and hides when it completes', async () => {
    const { router } = render(<ProgressBar />, { url: '/' });
    act(() => router.events.emit('routeChangeStart', '/pricing', { shallow: false }));
    expect(NProgress.isStarted()).toBe(true);
    expect(document.getElementById('nprogress')).not.toBeNull();
    // Decoration only: no made-up ARIA role (nprogress's default markup has role="bar", which axe calls critical).
    expect(document.querySelector('#nprogress [role]')).toBeNull();
    expect(document.querySelector('#nprogress .bar')?.getAttribute('aria-hidden')).toBe('true');
    act(() => router.events.emit('routeChangeComplete', '/pricing', { shallow: false }));
    await waitFor(() => expect(document.getElementById('nprogress')).toBeNull());
    expect(NProgress.isStarted()).toBe(false);
  });

  test('hides when the change errors', async () => {
    const { router } = render(<ProgressBar />, { url: '/' });
    act(() => router.events.emit('routeChangeStart', '/broken', { shallow: false }));
    act(() => router.events.emit('routeChangeError', new Error('chunk failed'), '/broken', { shallow: false }));
    await waitFor(() => expect(document.getElementById('nprogress')).toBeNull());
  });

  test('shallow changes show no bar', () => {
    const { router } = render(<ProgressBar />, { url: '/' });
    act(() => router.events.emit('routeChangeStart', '/?app_id=1', { shallow: true }));
    expect(NProgress.isStarted()).toBe(false);
    expect(document.getElementById('nprogress')).toBeNull();
  });

  test('each completed route change is recorded as a page view', async () => {
    const views: string[] = [];
    registerAnalyticsSink({ pageview: (u) => views.push(u), identify: () => undefined, capture: () => undefined });
    const { router } = render(<ProgressBar />, { url: '/' });
    await act(() => router.push('/features'));
    await act(() => router.push('/pricing?plan=pro'));
    await waitFor(() => expect(views).toEqual(['/features', '/pricing?plan=pro']));
  });
});

describe('layout', () => {
  beforeEach(() => resetStores());

  test('a skip link, the page in main#main, header and footer', () => {
    render(
      <Layout>
        <p>Page body</p>
      </Layout>,
      { url: '/pricing' },
    );
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
    expect(screen.getByRole('main')).toHaveTextContent('Page body');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo').className).not.toMatch(/dark/);
    expect(document.body.dataset.theme).toBeUndefined();
  });

  test('/ask-arb gets the dark footer and a dark body', () => {
    render(
      <Layout>
        <p>Ask ARB</p>
      </Layout>,
      { url: '/ask-arb' },
    );
    expect(screen.getByRole('contentinfo').className).toMatch(/dark/);
    expect(document.body.dataset.theme).toBe('dark');
  });
});
