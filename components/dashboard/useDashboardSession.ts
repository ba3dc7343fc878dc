/**
 * The dashboard's session on arrival. From the header's Dashboard link the URL carries `token=home__<code>`, a
 * one-time hand-off code: it is removed from the address bar in a layout effect (before the app shell records the page
 * view), then exchanged by POST v1/auth/token/handoff for the session's tokens, which replace the stored auth data.
 * Waits for the persisted user to load first, so a stored session is never mistaken for "signed out".
 */
import { useEffect, useRef, useState } from 'react';
import { useEarlyEffect } from '@/lib/useEarlyEffect';
import { exchangeHandoffCode } from '@/lib/api/auth';
import { takeCodeFromAddressBar } from '@/lib/dashboardLink';
import { storeSession, useAuthHydrated } from '@/stores/auth';

/** Exchanges the URL's hand-off code once the stored user is loaded; returns true when the page knows who is signed in. */
export function useDashboardSession(): boolean {
  const hydrated = useAuthHydrated();
  const code = useRef<string | null | undefined>(undefined);
  const exchanging = useRef(false);
  const [ready, setReady] = useState(false);
  useEarlyEffect(() => {
    if (code.current === undefined) code.current = takeCodeFromAddressBar();
  }, []);
  useEffect(() => {
    if (!hydrated || ready || exchanging.current) return;
    const handoff = code.current;
    code.current = null;
    if (!handoff) {
      setReady(true);
      return;
    }
    exchanging.current = true;
    void exchangeHandoffCode(handoff).then((user) => {
      // A used or expired code leaves the stored session (if any) as it was.
      if (user) {
        storeSession(user);
      }
      setReady(true);
    });
  }, [hydrated, ready]);
  return ready;
}

