/**
 * The small-screen menu (docs/PRODUCT.md, Header): a collapsible list of the enabled sections' links behind one toggle button.
 * It closes when a link is chosen, on a click or tap outside, and on Escape. The list exists only while open.
 */
import Link from 'next/link';
import { useCallback, useId, useRef, useState } from 'react';
import { useDismiss } from '@/components/common/useDismiss';
import type { MenuLink, MenuSection } from '@/lib/siteConfig';
import styles from './MobileMenu.module.css';

export type MobileMenuProps = { sections: MenuSection[]; links: MenuLink[] };

export default function MobileMenu({ sections, links }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const close = useCallback((reason?: 'outside' | 'escape') => {
    setOpen(false);
    if (reason === 'escape') buttonRef.current?.focus();
  }, []);
  useDismiss(wrapperRef, open, close);

  return (
    <div ref={wrapperRef} className={styles.mobileMenu}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((v) => !v)}
      >
        <span aria-hidden="true" className={styles.icon}>
          {open ? '✕' : '☰'}
        </span>
        <span>Menu</span>
      </button>
      <nav id={listId} aria-label="Mobile" hidden={!open} className={styles.panel}>
        {/* The links are rendered on first use: closed, they would only lengthen every page's HTML before its content. */}
        {open ? (
          <ul className={styles.sections}>
            {sections.map((section) => (
              <li key={section.id}>
                <span className={styles.sectionTitle}>{section.label}</span>
                <ul className={styles.links}>
                  {section.links.map((link) => (
                    <li key={link.href}>
                      <Link prefetch={false} href={link.href} onClick={() => close()}>
                        {link.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
            {links.map((link) => (
              <li key={link.href}>
                <Link prefetch={false} href={link.href} className={styles.topLink} onClick={() => close()}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </nav>
    </div>
  );
}
