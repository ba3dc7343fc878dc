/**
 * What the app shell does once the page is in the browser: read the persisted user (after the first render, so the
 * server HTML and the first client render agree), capture attribution from the landing URL, and — once the browser is
 * idle, since nothing on screen waits for it — start analytics, record the landing page view and identify a known
 * e-mail as unverified (docs/PRODUCT.md, Browser state). The analytics module itself is loaded then, not with every page.
 */
import { useEffect, useRef } from 'react';
import { captureReferral } from '@/lib/referral';
import { whenIdle } from '@/lib/whenIdle';
import { withAnalytics } from '@/lib/loadAnalytics';
import { rehydrateAuth, useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';

const looksLikeEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);

export function useAppShellEffects(): void {
  const analyticsStarted = useRef(false);
  const authEmail = useAuthStore((s) => s.authData.email);
  const flowEmail = useConnectionStore((s) => s.userEmail);
  const knownEmail = authEmail || flowEmail;
  const knownEmailRef = useRef(knownEmail);
  useEffect(() => {
    knownEmailRef.current = knownEmail;
  }, [knownEmail]);

  useEffect(() => {
    void rehydrateAuth();
    captureReferral(window.location.search);
    // The landing URL as it was on arrival: the visitor may have moved on by the time the browser is idle.
    const landing = `${window.location.pathname}${window.location.search}`;
    return whenIdle(() => {
      withAnalytics(({ initAnalytics, trackPageview, identifyUser }) => {
        initAnalytics();
        analyticsStarted.current = true;
        // The landing page is a page view too; later ones come from completed route changes (ProgressBar).
        void trackPageview(landing);
        if (knownEmailRef.current && looksLikeEmail(knownEmailRef.current)) void identifyUser(knownEmailRef.current);
      });
    });
  }, []);

  useEffect(() => {
    // Before analytics has started the idle start-up above identifies whoever is known by then.
    if (analyticsStarted.current && knownEmail && looksLikeEmail(knownEmail)) withAnalytics((a) => a.identifyUser(knownEmail));
  }, [knownEmail]);
}
