/**
 * Modal state (docs/PRODUCT.md, Header: the generic modal). The modal store drives the generic modal (components/common/Modal): title, body,
 * size (xs), backdrop ('static': a click outside does not close it), role (alertdialog), open, and the callbacks run
 * when it is confirmed or cancelled. The simpler shared modal state holds just open, title and body.
 */
import type { ReactNode } from 'react';
import { create } from 'zustand';
import { wantShellOverlays } from '@/lib/toast';

export type ModalSize = 'xs' | 'sm' | 'md' | 'lg';
export type ModalBackdrop = 'static' | boolean;
export type ModalRole = 'alertdialog' | 'dialog';

export type ModalOptions = {
  title: ReactNode;
  body: ReactNode;
  size?: ModalSize;
  backdrop?: ModalBackdrop;
  role?: ModalRole;
  /** Label of the confirm button; the button is shown only when onSuccess is set. */
  successLabel?: string;
  onSuccess?: () => void;
  onCancel?: () => void;
};

export type ModalState = Required<Pick<ModalOptions, 'size' | 'backdrop' | 'role'>> &
  Pick<ModalOptions, 'onSuccess' | 'onCancel' | 'successLabel'> & {
    title: ReactNode;
    body: ReactNode;
    open: boolean;
    openModal: (options: ModalOptions) => void;
    /** Runs onSuccess, then closes. */
    confirm: () => void;
    /** Runs onCancel, then closes (Close button, Escape). */
    cancel: () => void;
  };

const DEFAULTS = { size: 'xs', backdrop: 'static', role: 'alertdialog' } as const;

export const useModalStore = create<ModalState>()((set, get) => ({
  title: '',
  body: '',
  open: false,
  ...DEFAULTS,
  onSuccess: undefined,
  onCancel: undefined,
  successLabel: undefined,
  openModal: (options) => {
    wantShellOverlays();
    set({
      ...DEFAULTS,
      successLabel: undefined,
      onSuccess: undefined,
      onCancel: undefined,
      ...options,
      open: true,
    });
  },
  confirm: () => {
    const { onSuccess } = get();
    set({ open: false });
    onSuccess?.();
  },
  cancel: () => {
    const { onCancel } = get();
    set({ open: false });
    onCancel?.();
  },
}));

export type SharedModalState = {
  open: boolean;
  title: ReactNode;
  body: ReactNode;
  showModal: (title: ReactNode, body: ReactNode) => void;
  hideModal: () => void;
};

export const useSharedModalStore = create<SharedModalState>()((set) => ({
  open: false,
  title: '',
  body: '',
  showModal: (title, body) => {
    wantShellOverlays();
    set({ open: true, title, body });
  },
  hideModal: () => set({ open: false }),
}));
