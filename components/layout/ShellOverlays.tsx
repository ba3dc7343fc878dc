/**
 * What the shell shows over any page once raised: toasts and the generic modals. Nothing here is visible until
 * something raises it, so `_app` loads this module (and react-hot-toast with it) only once something asks for it
 * (`wantShellOverlays` in lib/toast), not with the page; whatever was raised
 * before then is in the stores and shows when it mounts.
 */
import { Toaster } from 'react-hot-toast';
import Modal, { SharedModal } from '@/components/common/Modal';
import { TOAST_OPTIONS } from '@/lib/toast';

export default function ShellOverlays() {
  return (
    <>
      <Toaster position="top-center" toastOptions={TOAST_OPTIONS} />
      <Modal />
      <SharedModal />
    </>
  );
}
