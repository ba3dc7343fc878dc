/**
 * Toast defaults (docs/PRODUCT.md, Page shell): 4000 ms for blank, error and custom toasts, 2000 ms for success, loading
 * toasts stay until replaced. At most 20 are kept: that is react-hot-toast's own limit (TOAST_LIMIT), which the
 * component test checks rather than assumes.
 */
import type hotToast from 'react-hot-toast';
import type { DefaultToastOptions } from 'react-hot-toast';

export const TOAST_LIMIT = 20;

export const TOAST_OPTIONS: DefaultToastOptions = {
  blank: { duration: 4000 },
  error: { duration: 4000 },
  custom: { duration: 4000 },
  success: { duration: 2000 },
  loading: { duration: Infinity },
};

type Toast = typeof hotToast;

/**
 * Raises a toast from code every page carries (the header): react-hot-toast is imported on first use, so it is not
 * part of every page's first load. The toast shows once the Toaster has mounted (asked for here; the shell mounts it
 * at once).
 */
export function withToast(raise: (toast: Toast) => void): void {
  wantShellOverlays();
  void import('react-hot-toast').then((m) => raise(m.default));
}

declare global {
  interface Window {
    /** Set once the shell's overlays were asked for (wantShellOverlays); an event of the same name announces it. */
    arbShellOverlays?: boolean;
  }
}

/**
 * Asks the shell to mount its overlays (toasts, the generic modals: components/layout/ShellOverlays). They show
 * nothing until raised, and most marketing visits raise none, so `_app` loads and mounts them only once something
 * asks: a toast through `withToast`, a modal opened through its store, or a page module that raises toasts directly
 * (`lib/hotToast`, which writes the same flag and event itself: importing this module from app pages made the bundler
 * split `_app`'s code into one more chunk). Whatever was raised before they mount is in their stores and shows when
 * they do.
 */
export function wantShellOverlays(): void {
  if (typeof window === 'undefined' || window.arbShellOverlays) return;
  window.arbShellOverlays = true;
  window.dispatchEvent(new Event('arbShellOverlays'));
}

export function shellOverlaysWanted(): boolean {
  return typeof window !== 'undefined' && window.arbShellOverlays === true;
}

export function subscribeShellOverlays(listener: () => void): () => void {
  window.addEventListener('arbShellOverlays', listener);
  return () => window.removeEventListener('arbShellOverlays', listener);
}
