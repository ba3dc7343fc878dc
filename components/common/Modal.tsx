/**
 * The generic modal (docs/PRODUCT.md, Header): a title, a body and a Close button, driven by the modal store (defaults: size
 * xs, backdrop static, role alertdialog). Written by hand instead of pulling a UI kit into every page: it moves focus
 * into the dialog, keeps Tab inside it, closes on Escape, and gives focus back to where it was.
 * With backdrop 'static' a click outside does nothing (the user must answer); with `true` it cancels.
 */
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useModalStore, useSharedModalStore, type ModalOptions } from '@/stores/modal';
import styles from './Modal.module.css';

/** What the store's openModal takes (less onCancel), plus whether it shows and what closing it does. */
export type ModalDialogProps = Omit<ModalOptions, 'onCancel'> & {
  open: boolean;
  onClose: () => void;
};

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ModalDialog({ open, title, body, size = 'xs', backdrop = 'static', role = 'alertdialog', successLabel, onSuccess, onClose }: ModalDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const previous = document.activeElement as HTMLElement | null;
    const first = dialogRef.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialogRef.current)?.focus();
    return () => previous?.focus?.();
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const items = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const firstItem = items[0];
    const lastItem = items[items.length - 1];
    if (event.shiftKey && document.activeElement === firstItem) {
      event.preventDefault();
      lastItem.focus();
    } else if (!event.shiftKey && document.activeElement === lastItem) {
      event.preventDefault();
      firstItem.focus();
    }
  };

  return (
    <div
      className={styles.backdrop}
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && backdrop === true) onClose();
      }}
    >
      <div
        ref={dialogRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        tabIndex={-1}
        className={`${styles.dialog} ${styles[size]}`}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        <div id={bodyId} className={styles.body}>
          {body}
        </div>
        <div className={styles.actions}>
          {onSuccess ? (
            <button type="button" className={styles.primary} onClick={onSuccess}>
              {successLabel ?? 'OK'}
            </button>
          ) : null}
          <button type="button" className={styles.secondary} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

/** The modal of the modal store; mounted once by the app shell. */
export default function Modal() {
  const state = useModalStore();
  return (
    <ModalDialog
      open={state.open}
      title={state.title}
      body={state.body}
      size={state.size}
      backdrop={state.backdrop}
      role={state.role}
      successLabel={state.successLabel}
      onSuccess={state.onSuccess ? state.confirm : undefined}
      onClose={state.cancel}
    />
  );
}

/** The simpler shared modal (open, title, body); also mounted once by the app shell. */
export function SharedModal() {
  const { open, title, body, hideModal } = useSharedModalStore();
  return <ModalDialog open={open} title={title} body={body} onClose={hideModal} />;
}
