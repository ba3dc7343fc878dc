/**
 * react-hot-toast for code that raises toasts synchronously (app pages, never code every page carries: that uses
 * `withToast` from lib/toast). Loading it asks the shell to mount the Toaster, as a page that imports it may raise a
 * toast at any moment: lib/toast's `wantShellOverlays()`, written out here because importing lib/toast from app
 * pages made the bundler split `_app`'s code into one more chunk, one more request on every page.
 */
import toast from 'react-hot-toast';

if (typeof window !== 'undefined' && !window.arbShellOverlays) {
  window.arbShellOverlays = true;
  window.dispatchEvent(new Event('arbShellOverlays'));
}

export default toast;
