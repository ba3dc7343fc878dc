/**
 * What the app shell does once the page is in the browser: read the persisted user (after the first render, so the
 * server HTML and the first client render agree), capture attribution from the landing URL, start analytics and
 * record the landing page view, and identify a known e-mail as unverified (spec section 4).
 */
import { useEffect } from 'react';
import { identifyUser, initAnalytics, trackPageview } from '@/lib/analytics';
import { captureReferral } from '@/lib/referral';
import { rehydrateAuth, useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';

export function useAppShellEffects(): void {
  useEffect(() => {
    void rehydrateAuth();
    captureReferral(window.location.search);
    initAnalytics();
    // The landing page is a page view too; later ones come from completed route changes (ProgressBar).
    void trackPageview(`${window.location.pathname}${window.location.search}`);
  }, []);

  const authEmail = useAuthStore((s) => s.authData.email);
  const flowEmail = useConnectionStore((s) => s.userEmail);
  const knownEmail = authEmail || flowEmail;
  useEffect(() => {
    if (knownEmail && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(knownEmail)) void identifyUser(knownEmail);
  }, [knownEmail]);
}
