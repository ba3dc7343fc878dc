/**
 * The connect flow's one store (docs/PRODUCT.md, Browser state): the app the visitor picked and the search box around
 * it, then where its reviews go. The spec's connection state (userEmail, selectedPlatform, connectionState, connectionSource,
 * showSignupBanner) and app selection (query, selectedAppDetails, selectedCountryCode, isOpen) are this one store, each
 * field once. What follows from these fields (the store's display name, whether Continue is enabled) is computed where
 * it is shown, and the store calls no API: the app_selected event is sent by the hook that selects (useSelectApp).
 * Not persisted.
 */
import { create } from 'zustand';
import { DEFAULT_COUNTRY, DEFAULT_PLATFORM, type AppStore, type Platform } from '@/shared/appStores';

export type SelectedApp = {
  id: string;
  store: AppStore;
  title: string;
  developer?: string | null;
  icon?: string | null;
  rating?: number | null;
  ratings_count?: number | null;
};

/**
 * idle → choosing_platform (an app is picked) → entering_webhook (a platform is chosen) → connecting → connected, or
 * error (the server's message is in connectionError; the visitor fixes the step and tries again).
 */
export type ConnectionStatus = 'idle' | 'choosing_platform' | 'entering_webhook' | 'connecting' | 'connected' | 'error';

export type ConnectionFields = {
  /** The search box's text. */
  query: string;
  /** Whether the search results list is open. */
  isOpen: boolean;
  selectedAppDetails: SelectedApp | null;
  /** The storefront searched and watched (App Store apps). */
  selectedCountryCode: string;
  /** iOS: watch the main storefronts instead of selectedCountryCode (payload country 'all'). */
  allCountries: boolean;
  /** The visitor's own address: optional beside a chat webhook, the destination for e-mail and /get-reviews. */
  userEmail: string;
  selectedPlatform: Platform;
  /** The webhook URL typed for each platform, so switching platforms shows each one's own. */
  webhooks: Partial<Record<Platform, string>>;
  connectionState: ConnectionStatus;
  /** Where the flow was started, sent as the payload's `source` (home, try-free, a platform page…). */
  connectionSource: string;
  /** The search hero's invitation to sign up (an app arrived in the link); hidden once connected. */
  showSignupBanner: boolean;
  /** The connection made (GET v1/public/destination/{id} shows its status). */
  destinationId: string | null;
  /** Why the last connect attempt failed, in the server's words. */
  connectionError: string | null;
};

export type ConnectionState = ConnectionFields & {
  setQuery: (query: string) => void;
  setIsOpen: (isOpen: boolean) => void;
  /** Stores the app (and closes the results list); null clears the selection. Sends nothing: see useSelectApp. */
  setSelectedAppDetails: (app: SelectedApp | null) => void;
  setSelectedCountryCode: (code: string) => void;
  setAllCountries: (allCountries: boolean) => void;
  setUserEmail: (userEmail: string) => void;
  setSelectedPlatform: (selectedPlatform: Platform) => void;
  setWebhook: (platform: Platform, url: string) => void;
  /** "Connect another": every webhook field starts empty again. */
  clearWebhooks: () => void;
  setConnectionState: (connectionState: ConnectionStatus) => void;
  setConnectionSource: (connectionSource: string) => void;
  setShowSignupBanner: (showSignupBanner: boolean) => void;
  toggleSignupBanner: () => void;
  setDestinationId: (destinationId: string | null) => void;
  setConnectionError: (connectionError: string | null) => void;
  /** Back to the start: no app, no connection (the dashboard's "Add destination" starts over). */
  resetConnection: () => void;
};

const INITIAL: ConnectionFields = {
  query: '',
  isOpen: false,
  selectedAppDetails: null,
  selectedCountryCode: DEFAULT_COUNTRY,
  // App Store apps start on "All countries" (the largest storefronts): a single country misses most reviews.
  allCountries: true,
  userEmail: '',
  selectedPlatform: DEFAULT_PLATFORM,
  webhooks: {},
  connectionState: 'idle',
  connectionSource: 'home',
  showSignupBanner: false,
  destinationId: null,
  connectionError: null,
};

export const useConnectionStore = create<ConnectionState>()((set) => ({
  ...INITIAL,
  setQuery: (query) => set({ query }),
  setIsOpen: (isOpen) => set({ isOpen }),
  setSelectedAppDetails: (selectedAppDetails) => set({ selectedAppDetails, isOpen: false }),
  setSelectedCountryCode: (selectedCountryCode) => set({ selectedCountryCode }),
  setAllCountries: (allCountries) => set({ allCountries }),
  setUserEmail: (userEmail) => set({ userEmail }),
  setSelectedPlatform: (selectedPlatform) => set({ selectedPlatform }),
  setWebhook: (platform, url) => set((s) => ({ webhooks: { ...s.webhooks, [platform]: url } })),
  clearWebhooks: () => set({ webhooks: {} }),
  setConnectionState: (connectionState) => set({ connectionState }),
  setConnectionSource: (connectionSource) => set({ connectionSource }),
  setShowSignupBanner: (showSignupBanner) => set({ showSignupBanner }),
  toggleSignupBanner: () => set((s) => ({ showSignupBanner: !s.showSignupBanner })),
  setDestinationId: (destinationId) => set({ destinationId }),
  setConnectionError: (connectionError) => set({ connectionError }),
  resetConnection: () => set(INITIAL),
}));
