/** The "send reviews to chat" flow's state (docs/PRODUCT.md, Browser state). */
import { create } from 'zustand';
import { DEFAULT_PLATFORM, type Platform } from '@/lib/appStores';

/**
 * idle → choosing_platform (an app is picked) → entering_webhook (a platform is chosen) → connecting → connected, or
 * error (the server's message is in connectionError; the visitor fixes the step and tries again).
 */
export type ConnectionStatus = 'idle' | 'choosing_platform' | 'entering_webhook' | 'connecting' | 'connected' | 'error';

export type ConnectionState = {
  userEmail: string;
  selectedPlatform: Platform;
  integrationWebhook: string;
  connectionState: ConnectionStatus;
  /** Where the flow was started, sent as the payload's `source` (home, try-free, a platform page…). */
  connectionSource: string;
  showSignupBanner: boolean;
  /** The connection made (GET v1/public/destination/{id} shows its status). */
  destinationId: string | null;
  /** Why the last connect attempt failed, in the server's words. */
  connectionError: string | null;
  /** iOS: watch the main storefronts instead of selectedCountryCode (payload country 'all'). */
  allCountries: boolean;
  setUserEmail: (userEmail: string) => void;
  setSelectedPlatform: (selectedPlatform: Platform) => void;
  setIntegrationWebhook: (integrationWebhook: string) => void;
  setConnectionState: (connectionState: ConnectionStatus) => void;
  setConnectionSource: (connectionSource: string) => void;
  setShowSignupBanner: (showSignupBanner: boolean) => void;
  toggleSignupBanner: () => void;
  setDestinationId: (destinationId: string | null) => void;
  setConnectionError: (connectionError: string | null) => void;
  setAllCountries: (allCountries: boolean) => void;
  resetConnection: () => void;
};

const INITIAL = {
  userEmail: '',
  selectedPlatform: DEFAULT_PLATFORM,
  integrationWebhook: '',
  connectionState: 'idle' as ConnectionStatus,
  connectionSource: 'home',
  showSignupBanner: false,
  destinationId: null as string | null,
  connectionError: null as string | null,
  allCountries: false,
};

export const useConnectionStore = create<ConnectionState>()((set) => ({
  ...INITIAL,
  setUserEmail: (userEmail) => set({ userEmail }),
  setSelectedPlatform: (selectedPlatform) => set({ selectedPlatform }),
  setIntegrationWebhook: (integrationWebhook) => set({ integrationWebhook }),
  setConnectionState: (connectionState) => set({ connectionState }),
  setConnectionSource: (connectionSource) => set({ connectionSource }),
  setShowSignupBanner: (showSignupBanner) => set({ showSignupBanner }),
  toggleSignupBanner: () => set((s) => ({ showSignupBanner: !s.showSignupBanner })),
  setDestinationId: (destinationId) => set({ destinationId }),
  setConnectionError: (connectionError) => set({ connectionError }),
  setAllCountries: (allCountries) => set({ allCountries }),
  resetConnection: () => set(INITIAL),
}));
