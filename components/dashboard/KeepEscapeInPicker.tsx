/**
 * Escape in a drawer's dropdown closes the dropdown only (issue 31). rsuite's Drawer closes on any Escape that reaches
 * the document (its keydown listener there), and its pickers close on the same keydown: wrapped in this, an Escape
 * while a picker inside is open (its toggle says aria-expanded="true" until the picker re-renders) stops here, so the
 * picker closes and the drawer stays. React events bubble through portals, so the picker's popup counts as inside.
 */
import type { KeyboardEvent, ReactNode } from 'react';

export function keepEscapeInOpenPicker(e: KeyboardEvent<HTMLElement>) {
  if (e.key === 'Escape' && e.currentTarget.querySelector('[aria-expanded="true"]')) e.stopPropagation();
}

export default function KeepEscapeInPicker({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={className} onKeyDown={keepEscapeInOpenPicker}>
      {children}
    </div>
  );
}
