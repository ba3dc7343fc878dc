import { afterEach, describe, expect, test, vi } from 'vitest';
import { identifyUser, initAnalytics, registerAnalyticsSink, resetAnalyticsForTests, trackEvent, trackPageview, type AnalyticsSink } from '@/lib/analytics';

type Call = [string, ...unknown[]];

function fakePosthog() {
  const calls: Call[] = [];
  return {
    calls,
    client: {
      init: (key: string, options: Record<string, unknown>) => calls.push(['init', key, options]),
      capture: (event: string, props?: Record<string, unknown>) => calls.push(['capture', event, props]),
      identify: (id: string, props?: Record<string, unknown>) => calls.push(['identify', id, props]),
    },
  };
}

afterEach(() => resetAnalyticsForTests());

describe('analytics', () => {
  test('without a key nothing is loaded and every call is a no-op', async () => {
    let loaded = false;
    initAnalytics({ posthogKey: '', loadPosthog: async () => ((loaded = true), fakePosthog().client) });
    await trackPageview('/pricing');
    await identifyUser('ana@example.com');
    expect(loaded).toBe(false);
  });

  test('with a key the SDK is loaded on demand and receives page views', async () => {
    const ph = fakePosthog();
    initAnalytics({ posthogKey: 'phc_test', posthogHost: 'https://ph.example', loadPosthog: async () => ph.client });
    await trackPageview('/features?x=1');
    expect(ph.calls[0]).toEqual(['init', 'phc_test', expect.objectContaining({ api_host: 'https://ph.example', capture_pageview: false })]);
    expect(ph.calls).toContainEqual(['capture', '$pageview', { $current_url: '/features?x=1' }]);
  });

  test('a known e-mail is identified with is_verified false', async () => {
    const ph = fakePosthog();
    initAnalytics({ posthogKey: 'phc_test', loadPosthog: async () => ph.client });
    await identifyUser('ana@example.com');
    expect(ph.calls).toContainEqual(['identify', 'ana@example.com', { email: 'ana@example.com', is_verified: false }]);
  });

  test('a second service is one more sink in the list', async () => {
    const seen: string[] = [];
    const sink: AnalyticsSink = { pageview: (u) => seen.push(`pv ${u}`), identify: (e) => seen.push(`id ${e}`), capture: (e) => seen.push(`ev ${e}`) };
    registerAnalyticsSink(sink);
    await trackPageview('/');
    await trackEvent('app_selected', { app_id: '1' });
    expect(seen).toEqual(['pv /', 'ev app_selected']);
  });

  test('an SDK that fails to load never breaks the page', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    initAnalytics({ posthogKey: 'phc_test', loadPosthog: async () => Promise.reject(new Error('blocked')) });
    await expect(trackPageview('/')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith('Analytics could not load', expect.any(Error));
    warn.mockRestore();
  });
});
