/**
 * The app the visitor picked and the choices around it (docs/PRODUCT.md, Browser state). Selecting an app records an app_selected
 * event (GET v1/apps/event); the API module is imported on demand so pages without a selection never load axios.
 */
import { create } from 'zustand';
import { APP_STORE_NAMES, DEFAULT_COUNTRY, DEFAULT_PLATFORM, type AppStore, type Platform } from '@/lib/appStores';

export type SelectedApp = {
  id: string;
  store: AppStore;
  title: string;
  developer?: string | null;
  icon?: string | null;
  rating?: number | null;
  ratings_count?: number | null;
};

export type AppSelectionState = {
  email: string;
  query: string;
  selectedAppDetails: SelectedApp | null;
  selectedCountryCode: string;
  /** Whether the search results list is open. */
  isOpen: boolean;
  platform: Platform;
  continueButtonEnabled: boolean;
  discordWebhook: string;
  msteamsWebhook: string;
  mattermostWebhook: string;
  /** Display name of the selected app's store ("App Store", "Google Play"). */
  storeName: string;
  /** Which step dialog of the flow is open, if any. */
  modal: string | null;
  selectedButton: string | null;
  showSignupBanner: boolean;
  setEmail: (email: string) => void;
  setQuery: (query: string) => void;
  /** Stores the app and sends app_selected; null clears the selection. */
  setSelectedAppDetails: (app: SelectedApp | null) => void;
  setSelectedCountryCode: (code: string) => void;
  setIsOpen: (isOpen: boolean) => void;
  setPlatform: (platform: Platform) => void;
  setContinueButtonEnabled: (enabled: boolean) => void;
  setDiscordWebhook: (url: string) => void;
  setMsteamsWebhook: (url: string) => void;
  setMattermostWebhook: (url: string) => void;
  setModal: (modal: string | null) => void;
  setSelectedButton: (button: string | null) => void;
  setShowSignupBanner: (show: boolean) => void;
  resetSelection: () => void;
};

const INITIAL = {
  email: '',
  query: '',
  selectedAppDetails: null as SelectedApp | null,
  selectedCountryCode: DEFAULT_COUNTRY,
  isOpen: false,
  platform: DEFAULT_PLATFORM as Platform,
  continueButtonEnabled: false,
  discordWebhook: '',
  msteamsWebhook: '',
  mattermostWebhook: '',
  storeName: '',
  modal: null as string | null,
  selectedButton: null as string | null,
  showSignupBanner: false,
};

/** Fire-and-forget: the event is analytics, the selection must not wait for it. */
function recordAppSelected(app: SelectedApp): Promise<boolean> {
  return import('@/lib/api/apps').then((m) => m.sendAppSelectedEvent(app.id, app.store));
}

export const useAppSelectionStore = create<AppSelectionState>()((set) => ({
  ...INITIAL,
  setEmail: (email) => set({ email }),
  setQuery: (query) => set({ query }),
  setSelectedAppDetails: (app) => {
    set({ selectedAppDetails: app, storeName: app ? APP_STORE_NAMES[app.store] : '', isOpen: false });
    if (app) void recordAppSelected(app);
  },
  setSelectedCountryCode: (selectedCountryCode) => set({ selectedCountryCode }),
  setIsOpen: (isOpen) => set({ isOpen }),
  setPlatform: (platform) => set({ platform }),
  setContinueButtonEnabled: (continueButtonEnabled) => set({ continueButtonEnabled }),
  setDiscordWebhook: (discordWebhook) => set({ discordWebhook }),
  setMsteamsWebhook: (msteamsWebhook) => set({ msteamsWebhook }),
  setMattermostWebhook: (mattermostWebhook) => set({ mattermostWebhook }),
  setModal: (modal) => set({ modal }),
  setSelectedButton: (selectedButton) => set({ selectedButton }),
  setShowSignupBanner: (showSignupBanner) => set({ showSignupBanner }),
  resetSelection: () => set(INITIAL),
}));
