/**
 * "Try it Free" sends people to the home search box. The header and the search live in different trees, so they
 * meet on a fixed element id. Kept free of the search component itself so the header does not pull it in.
 */
import { MESSAGES } from '@/lib/messages';
import { withToast } from '@/lib/toast';

export const SEARCH_INPUT_ID = 'app-search';
/** docs/PRODUCT.md, Header: from another page, navigate first and focus about 1 s later. */
export const SEARCH_FOCUS_DELAY_MS = 1000;

export function focusSearchBox(): boolean {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (!(input instanceof HTMLInputElement)) return false;
  input.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  input.focus({ preventScroll: true });
  withToast((toast) => toast(MESSAGES.tryFreeToast, { id: 'try-free' }));
  return true;
}

/** Back to the search box without the "Try it Free" toast (e.g. after "Choose another app"). */
export function focusSearchBoxQuietly(): void {
  requestAnimationFrame(() => document.getElementById(SEARCH_INPUT_ID)?.focus());
}
