import { afterEach, describe, expect, test, vi } from 'vitest';
import { identifyUser, initAnalytics, registerAnalyticsSink, resetAnalyticsForTests, scrubUrl, trackEvent, trackPageview, type AnalyticsSink } from '@/lib/analytics';

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

  describe('no org id, hand-off code or token reaches analytics', () => {
    const ORG = 'org_AbCdEfGhIjKlMnOpQrStUvWx';
    const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2ln';

    test('page views: the subscribe link and the dashboard hand-off lose their keys, other parameters stay', async () => {
      const ph = fakePosthog();
      initAnalytics({ posthogKey: 'phc_test', loadPosthog: async () => ph.client });
      await trackPageview(`/subscribe?org_id=${ORG}&utm_source=crm`);
      await trackPageview('/dashboard?token=home__Zx9_code-value&tab=apps');
      const sent = JSON.stringify(ph.calls.filter((c) => c[0] === 'capture'));
      expect(sent).not.toContain(ORG);
      expect(sent).not.toContain('home__');
      expect(ph.calls).toContainEqual(['capture', '$pageview', { $current_url: '/subscribe?utm_source=crm' }]);
      expect(ph.calls).toContainEqual(['capture', '$pageview', { $current_url: '/dashboard?tab=apps' }]);
    });

    test('event properties: secret-named keys dropped, keys inside texts redacted, at any depth', async () => {
      const seen: unknown[] = [];
      registerAnalyticsSink({ pageview: () => undefined, identify: () => undefined, capture: (e, p) => seen.push([e, p]) });
      await trackEvent('checkout', { org_id: ORG, orgId: ORG, plan: 'pro', note: `for ${ORG}`, nested: [{ authToken: JWT, url: `https://arb.example/subscribe?org_id=${ORG}` }] });
      expect(seen).toEqual([['checkout', { plan: 'pro', note: 'for [redacted]', nested: [{ url: 'https://arb.example/subscribe' }] }]]);
    });

    test("PostHog's own additions ($current_url, autocaptured texts) pass through before_send and get_current_url", async () => {
      const ph = fakePosthog();
      initAnalytics({ posthogKey: 'phc_test', loadPosthog: async () => ph.client });
      await trackPageview('/');
      const options = ph.calls[0][2] as { before_send: (e: unknown) => unknown; get_current_url: () => string };
      const event = { event: '$autocapture', properties: { $current_url: `https://arb.example/dashboard?token=home__abc`, $elements: [{ $el_text: ORG }], token: 'phc_x' } };
      const out = JSON.stringify(options.before_send(event));
      expect(out).not.toContain(ORG);
      expect(out).not.toContain('home__');
      vi.stubGlobal('window', { location: { href: `https://arb.example/subscribe?org_id=${ORG}&plan=pro` } });
      expect(options.get_current_url()).toBe('https://arb.example/subscribe?plan=pro');
      vi.unstubAllGlobals();
    });

    test('scrubUrl keeps ordinary URLs as they are', () => {
      expect(scrubUrl('/features?x=1#faq')).toBe('/features?x=1#faq');
      expect(scrubUrl('https://arb.example/pricing')).toBe('https://arb.example/pricing');
    });
  });
});
