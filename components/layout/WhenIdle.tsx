/**
 * Mounts its children once the browser is idle after hydration (lib/whenIdle). For parts of the shell that show
 * nothing until something happens — toasts, modals — so the page's first render and hydration skip them. They read
 * their stores when they mount, so whatever was raised before then is shown then.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { whenIdle } from '@/lib/whenIdle';

export default function WhenIdle({ children }: { children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  return idle ? children : null;
}
