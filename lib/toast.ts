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
 * part of every page's first load. The toast shows once the Toaster has mounted (the shell mounts it when idle).
 */
export function withToast(raise: (toast: Toast) => void): void {
  void import('react-hot-toast').then((m) => raise(m.default));
}
