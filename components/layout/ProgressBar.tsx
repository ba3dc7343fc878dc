/**
 * The top progress bar (docs/PRODUCT.md, Page shell): shown on every non-shallow route change, hidden when the change
 * completes or fails; shallow changes (query-only updates) show nothing. Starts at 8 %, trickles every 800 ms,
 * animates in 200 ms; nprogress itself never trickles past 99.4 % before done(). Each completed route change is also
 * recorded as a page view.
 */
import { useRouter } from 'next/router';
import NProgress from 'nprogress';
import { useEffect } from 'react';
import { withAnalytics } from '@/lib/loadAnalytics';

export const PROGRESS_SETTINGS = { minimum: 0.08, trickleSpeed: 800, speed: 200, showSpinner: false } as const;
/** nprogress caps its trickle at this value until done() (see NProgress.inc). */
export const PROGRESS_MAXIMUM = 0.994;

/**
 * nprogress's own markup without its made-up `role="bar"` (not an ARIA role: axe reports it as critical whenever a
 * page is checked during a route change), so the bar is found by its class. The bar is decoration: the page's own
 * content says when it is ready.
 */
export const PROGRESS_TEMPLATE = '<div class="bar" aria-hidden="true"><div class="peg"></div></div>';
NProgress.configure({ ...PROGRESS_SETTINGS, template: PROGRESS_TEMPLATE, barSelector: '.bar' });

export default function ProgressBar() {
  const router = useRouter();
  useEffect(() => {
    const onStart = (_url: string, { shallow }: { shallow: boolean }) => {
      if (!shallow) NProgress.start();
    };
    const onComplete = (url: string) => {
      NProgress.done();
      // Analytics starts when the browser is first idle (useAppShellEffects), or here if a route change comes first.
      // Its module is loaded then, not with every page.
      withAnalytics(({ initAnalytics, trackPageview }) => {
        initAnalytics();
        return trackPageview(url);
      });
    };
    const onError = () => NProgress.done();
    router.events.on('routeChangeStart', onStart);
    router.events.on('routeChangeComplete', onComplete);
    router.events.on('routeChangeError', onError);
    return () => {
      router.events.off('routeChangeStart', onStart);
      router.events.off('routeChangeComplete', onComplete);
      router.events.off('routeChangeError', onError);
    };
  }, [router.events]);
  return null;
}
