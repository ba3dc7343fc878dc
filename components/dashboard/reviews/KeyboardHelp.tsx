/**
 * The "?" overlay of the inbox: its keys in a dialog (the shared ModalDialog: labelled by its title, focus moved in and
 * kept inside, Escape or Close closes it and focus goes back to where it was).
 */
import { ModalDialog } from '@/components/common/Modal';
import { INBOX_KEYS } from './queue';
import own from './Reviews.module.css';

export default function KeyboardHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      role="dialog"
      backdrop
      size="sm"
      title="Keyboard shortcuts"
      body={
        <>
          <p className={own.keysNote}>In the inbox, when you are not typing in a field:</p>
          <dl className={own.keys}>
            {INBOX_KEYS.map((k) => (
              <div key={k.what}>
                <dt>
                  {k.keys.map((key) => (
                    <kbd key={key}>{key}</kbd>
                  ))}
                </dt>
                <dd>{k.what}</dd>
              </div>
            ))}
          </dl>
        </>
      }
    />
  );
}
