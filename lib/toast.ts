/**
 * Toast defaults (docs/PRODUCT.md, Page shell): 4000 ms for blank, error and custom toasts, 2000 ms for success, loading
 * toasts stay until replaced. At most 20 are kept: that is react-hot-toast's own limit (TOAST_LIMIT), which the
 * component test checks rather than assumes.
 */
import type { DefaultToastOptions } from 'react-hot-toast';

export const TOAST_LIMIT = 20;

export const TOAST_OPTIONS: DefaultToastOptions = {
  blank: { duration: 4000 },
  error: { duration: 4000 },
  custom: { duration: 4000 },
  success: { duration: 2000 },
  loading: { duration: Infinity },
};
