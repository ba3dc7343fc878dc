/**
 * Puts every zustand store back to its initial state between tests (zustand's testing guide), so no test sees
 * another's user, selection or open modal. localStorage itself is cleared by componentSetup.ts.
 */
import { useAnimationStore } from '@/stores/animation';
import { useAuthStore } from '@/stores/auth';
import { useConnectionStore } from '@/stores/connection';
import { useModalStore, useSharedModalStore } from '@/stores/modal';

export function resetStores(): void {
  for (const store of [useAuthStore, useAnimationStore, useModalStore, useSharedModalStore, useConnectionStore]) {
    (store as { setState: (s: unknown, replace: true) => void; getInitialState: () => unknown }).setState(store.getInitialState(), true);
  }
  // Resetting the persisted auth store writes its empty state to storage; start tests with nothing stored.
  useAuthStore.persist.clearStorage();
}
