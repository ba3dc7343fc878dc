/**
 * The signed-in user's dropdown (docs/PRODUCT.md, Header): labelled with the display name, else the name, else the e-mail; it
 * shows the e-mail, a Dashboard link and Logout. Menu-button pattern: arrow keys move between items, Escape and a
 * click outside close it and Escape returns focus to the button.
 *
 * Dashboard asks for a fresh token (GET v1/auth/token/refresh) and opens /dashboard?token=home__<token> in the top
 * window; if the refresh fails it still goes, without the token (docs/PRODUCT.md, Sign-in and the dashboard). The API module is imported on
 * click, so the header never carries the HTTP client.
 */
import Link from 'next/link';
import { useCallback, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useDismiss } from '@/components/common/useDismiss';
import { dashboardUrl } from '@/lib/dashboardLink';
import { MESSAGES } from '@/lib/messages';
import { topWindow } from '@/lib/navigation';
import { withToast } from '@/lib/toast';
import { selectUserLabel, useAuthStore } from '@/stores/auth';
import styles from './Header.module.css';

export async function openDashboard(authToken: string | undefined): Promise<void> {
  withToast((toast) => toast.loading(MESSAGES.redirectingToDashboard, { id: 'dashboard-redirect' }));
  let token: string | null = null;
  if (authToken) {
    // An access token that ran out while the tab was idle is renewed first (lib/session loads lib/api/auth with it).
    const { freshAccessToken } = await import('@/lib/session');
    const { refreshAuthToken } = await import('@/lib/api/auth');
    token = await refreshAuthToken((await freshAccessToken(authToken)) ?? authToken);
  }
  topWindow.navigate(dashboardUrl(token));
}

export default function UserMenu() {
  const label = useAuthStore(selectUserLabel);
  const email = useAuthStore((s) => s.authData.email ?? '');
  const authToken = useAuthStore((s) => s.authData.authToken);
  const logout = useAuthStore((s) => s.logout);
  const [open, setOpen] = useState(false);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const menuId = useId();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const list = items();
    if (list.length) list[(index + list.length) % list.length].focus();
  };

  const close = useCallback((reason: 'outside' | 'escape' | 'select') => {
    setOpen(false);
    if (reason === 'escape') buttonRef.current?.focus();
  }, []);
  useDismiss(wrapperRef, open, close);

  const openAndFocus = (index: number) => {
    setOpen(true);
    // The list renders on the next paint; focus once it exists.
    requestAnimationFrame(() => focusItem(index));
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAndFocus(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAndFocus(-1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const list = items();
    const current = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      focusItem(current + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      focusItem(current - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      focusItem(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      focusItem(-1);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const onDashboard = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    close('select');
    void openDashboard(authToken);
  };

  return (
    <div ref={wrapperRef} className={styles.userMenu}>
      <button
        ref={buttonRef}
        type="button"
        className={styles.userButton}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpen(false) : openAndFocus(0))}
        onKeyDown={onButtonKeyDown}
      >
        <span className={styles.userLabel}>{label}</span>
        <span aria-hidden="true" className={styles.caret}>
          ▾
        </span>
      </button>
      {open ? (
        <div className={styles.userPopup}>
          <p className={styles.userEmail}>
            <span className="visually-hidden">Signed in as </span>
            {email}
          </p>
          <ul ref={menuRef} id={menuId} role="menu" aria-label={label} className={styles.userItems} onKeyDown={onMenuKeyDown}>
            <li role="none">
              <Link prefetch={false} role="menuitem" href="/dashboard" tabIndex={-1} className={styles.userItem} onClick={onDashboard}>
                Dashboard
              </Link>
            </li>
            <li role="none">
              <button
                role="menuitem"
                type="button"
                tabIndex={-1}
                className={styles.userItem}
                onClick={() => {
                  close('select');
                  logout();
                }}
              >
                Logout
              </button>
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}
