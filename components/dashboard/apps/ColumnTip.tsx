/**
 * A column header's explanation: a small "?" button beside the header's words, whose tooltip opens on hover, on
 * keyboard focus and on a tap (Escape or a tap elsewhere closes it). The text is also the button's description
 * (aria-describedby), so a screen reader hears it without opening anything.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useDismiss } from '@/components/common/useDismiss';
import own from './Apps.module.css';

export function ColumnTip({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLSpanElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);
  return (
    <span ref={ref} className={own.tipWrap} data-open={open ? 'true' : undefined}>
      <button type="button" className={own.tipButton} aria-label={`About ${label}`} aria-describedby={id} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        ?
      </button>
      <span role="tooltip" id={id} className={own.tip}>
        {children}
      </span>
    </span>
  );
}
