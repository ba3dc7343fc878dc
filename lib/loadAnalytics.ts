/**
 * The analytics module, loaded when first used (the browser's first idle moment or the first completed route change)
 * rather than with every page. Analytics never stands between a visitor and the page: a chunk that fails to load (a
 * deploy replaced it, the network dropped, a blocker refused it) is logged and the call is skipped.
 */
type Analytics = typeof import('@/lib/analytics');

export function withAnalytics(use: (analytics: Analytics) => unknown): void {
  import('@/lib/analytics')
    .then(use)
    .catch((err: unknown) => console.warn('Analytics could not be loaded; this page view is not recorded.', err));
}
