/**
 * Signed-in state (docs/PRODUCT.md, Browser state): persisted in localStorage under the fixed name 'arb-storage'.
 * `skipHydration` keeps the server render and the first client render signed-out (no hydration mismatch); the app
 * shell calls rehydrateAuth() after mount, and pages that need the stored user wait for useAuthHydrated().
 */
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { endSessionOnServer } from '@/lib/api/logoutBeacon';
import { topWindow } from '@/lib/navigation';

export type AuthData = {
  /** Access token (15 minutes), or a billing-only token on /subscribe. */
  authToken?: string;
  /** Renews authToken until the session ends (lib/session.ts); absent for billing-only visits. */
  refreshToken?: string;
  email?: string;
  displayName?: string | null;
  name?: string | null;
};

export type AuthState = {
  authData: AuthData;
  /** Replaces the whole authData object , it does not merge (docs/PRODUCT.md, Browser state). */
  setAuthData: (authData: AuthData) => void;
  /** Ends the session on the server, clears ALL localStorage, empties authData and sends the top window to the site root. */
  logout: () => void;
};

export const AUTH_STORAGE_NAME = 'arb-storage';
const AUTH_STORAGE_VERSION = 1;

function onlyStrings(value: unknown): AuthData {
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Record<string, unknown>;
  const out: AuthData = {};
  if (typeof v.authToken === 'string') out.authToken = v.authToken;
  if (typeof v.refreshToken === 'string') out.refreshToken = v.refreshToken;
  if (typeof v.email === 'string') out.email = v.email;
  if (typeof v.displayName === 'string') out.displayName = v.displayName;
  if (typeof v.name === 'string') out.name = v.name;
  return out;
}

/**
 * Version 0 is what the earlier site left behind: the same `authData` object, possibly with extra fields or a bare
 * token under `token`. Keep what is recognisable, drop the rest, so an old browser stays signed in.
 */
export function migrateAuthState(persisted: unknown, version: number): Pick<AuthState, 'authData'> {
  const state = (typeof persisted === 'object' && persisted !== null ? persisted : {}) as Record<string, unknown>;
  const raw = (state.authData ?? {}) as Record<string, unknown>;
  if (version === 0 && typeof raw.authToken !== 'string' && typeof raw.token === 'string') {
    return { authData: onlyStrings({ ...raw, authToken: raw.token }) };
  }
  return { authData: onlyStrings(raw) };
}

export const useAuthStore = create<AuthState>()(
  persist(
    (set, get) => ({
      authData: {},
      setAuthData: (authData) => set({ authData: { ...authData } }),
      logout: () => {
        const { authToken, refreshToken } = get().authData;
        // A billing-only token names no session: nothing to end.
        if (refreshToken) endSessionOnServer({ authToken, refreshToken });
        set({ authData: {} });
        // After the set above, so the store's own write of the empty state is cleared too.
        try {
          window.localStorage.clear();
        } catch {
          /* storage disabled: nothing to clear */
        }
        topWindow.navigate('/');
      },
    }),
    {
      name: AUTH_STORAGE_NAME,
      version: AUTH_STORAGE_VERSION,
      storage: createJSONStorage(() => window.localStorage),
      partialize: (state) => ({ authData: state.authData }),
      migrate: migrateAuthState,
      skipHydration: true,
    },
  ),
);

/** Load the persisted user; call once after mount. */
export function rehydrateAuth(): Promise<void> {
  return useAuthStore.persist.rehydrate();
}

/** True once the persisted user has been read, so a page can tell "signed out" from "not loaded yet". */
export function useAuthHydrated(): boolean {
  // The server (and the first client render, which must match it) has not read the browser's storage yet.
  return useSyncExternalStore(subscribeToHydration, () => useAuthStore.persist.hasHydrated(), () => false);
}

function subscribeToHydration(onChange: () => void): () => void {
  return useAuthStore.persist.onFinishHydration(onChange);
}

export const selectIsSignedIn = (s: AuthState): boolean => Boolean(s.authData.email);

/** The header's dropdown label: display name, else name, else e-mail. */
export const selectUserLabel = (s: AuthState): string =>
  s.authData.displayName?.trim() || s.authData.name?.trim() || s.authData.email || '';

/** A session the API just started (sign-in, hand-off, invitation link) becomes the stored auth data. */
export function storeSession(user: { authToken: string; refreshToken: string; email: string; name?: string; displayName?: string }): void {
  useAuthStore.getState().setAuthData({
    authToken: user.authToken,
    refreshToken: user.refreshToken,
    email: user.email,
    ...(user.name ? { name: user.name } : {}),
    ...(user.displayName ? { displayName: user.displayName } : {}),
  });
}
