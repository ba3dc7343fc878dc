/**
 * The dashboard's session on arrival. From the header's Dashboard link the URL carries `token=home__<code>`, a
 * one-time hand-off code: it is removed from the address bar in a layout effect (before the app shell records the page
 * view), then exchanged by POST v1/auth/token/handoff for the session's tokens, which replace the stored auth data.
 * Waits for the persisted user to load first, so a stored session is never mistaken for "signed out".
 *
 * The code works only in the browser that asked for it (its nonce cookie, server/auth/handoffNonce.ts). Should it
 * still name another account than the one stored here, nothing is replaced until the person says so: the page asks
 * "You are signed in as A. Continue as B?" (`accountSwitch`).
 */
import { useEffect, useRef, useState } from 'react';
import { useEarlyEffect } from '@/lib/useEarlyEffect';
import { exchangeHandoffCode } from '@/lib/api/auth';
import type { SignedInUser } from '@/lib/api/types';
import { takeCodeFromAddressBar } from '@/lib/dashboardLink';
import { storeSession, useAuthHydrated, useAuthStore } from '@/stores/auth';

/** A hand-off for another account than the stored one, waiting for the person's answer. */
export type AccountSwitch = { from: string; to: string; confirm: () => void; decline: () => void };

/** Exchanges the URL's hand-off code once the stored user is loaded; `ready` once the page knows who is signed in. */
export function useDashboardSession(): { ready: boolean; accountSwitch: AccountSwitch | null } {
  const hydrated = useAuthHydrated();
  const code = useRef<string | null | undefined>(undefined);
  const exchanging = useRef(false);
  const [ready, setReady] = useState(false);
  const [pending, setPending] = useState<{ from: string; user: SignedInUser } | null>(null);
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
      // A used, expired or foreign code leaves the stored session (if any) as it was.
      const stored = useAuthStore.getState().authData.email;
      if (user && stored && stored !== user.email) return setPending({ from: stored, user });
      if (user) storeSession(user);
      setReady(true);
    });
  }, [hydrated, ready]);
  const accountSwitch = pending && {
    from: pending.from,
    to: pending.user.email,
    confirm: () => {
      storeSession(pending.user);
      setPending(null);
      setReady(true);
    },
    decline: () => {
      setPending(null);
      setReady(true);
    },
  };
  return { ready, accountSwitch };
}
