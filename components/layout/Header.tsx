/**
 * The site header (docs/PRODUCT.md, Header). Signed out: Login (not on /login; it carries the current path and query as
 * redirect_to, or passes on an existing redirect_to) and "Try it Free" (not on /try-free; it goes to / and focuses
 * the search box). Signed in: the user dropdown. The four primary sections appear only when enabled in site
 * configuration. Background: light blue on / and /try-free, black on /ask-arb, white elsewhere.
 * Everything here ships on every page, so it must stay light: no HTTP client, no data fetching.
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useCallback, useId, useRef, useState, type MouseEvent } from 'react';
import { useDismiss } from '@/components/common/useDismiss';
import { focusSearchBox, SEARCH_FOCUS_DELAY_MS } from '@/components/search/searchFocus';
import { loginHref } from '@/lib/redirect';
import { enabledSections, siteConfig, type MenuSection, type SiteConfig } from '@/lib/siteConfig';
import { selectIsSignedIn, useAuthStore } from '@/stores/auth';
import styles from './Header.module.css';
import MobileMenu from './MobileMenu';
import UserMenu from './UserMenu';

export type HeaderTone = 'blue' | 'dark' | 'light';

export function headerTone(pathname: string): HeaderTone {
  if (pathname === '/' || pathname === '/try-free') return 'blue';
  if (pathname === '/ask-arb') return 'dark';
  return 'light';
}

function SectionMenu({ section, open, onToggle, onClose }: { section: MenuSection; open: boolean; onToggle: () => void; onClose: () => void }) {
  const panelId = useId();
  return (
    <li className={styles.section}>
      <button type="button" className={styles.sectionButton} aria-expanded={open} aria-controls={panelId} onClick={onToggle}>
        {section.label}
        <span aria-hidden="true" className={styles.caret}>
          ▾
        </span>
      </button>
      <div id={panelId} className={styles.panel} hidden={!open}>
        {/* Rendered when opened: closed panels would only lengthen every page's HTML ahead of its content. */}
        {open ? (
          <ul className={styles.panelLinks}>
            {section.links.map((link) => (
              <li key={link.href}>
                <Link prefetch={false} href={link.href} className={styles.panelLink} onClick={onClose}>
                  <span className={styles.panelLabel}>{link.label}</span>
                  {link.description ? <span className={styles.panelDescription}>{link.description}</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

export default function Header({ config = siteConfig }: { config?: SiteConfig }) {
  const router = useRouter();
  // A statically generated page's HTML knows its path but not the query; the client's first render must match it
  // (no hydration mismatch), so the query joins the Login link once the router is ready.
  const currentPath = router.isReady ? router.asPath : router.asPath.split('?')[0];
  const signedIn = useAuthStore(selectIsSignedIn);
  const sections = enabledSections(config);
  const [openSection, setOpenSection] = useState<string | null>(null);
  const navRef = useRef<HTMLUListElement>(null);
  const closeSections = useCallback(() => setOpenSection(null), []);
  useDismiss(navRef, openSection !== null, closeSections);

  const pathname = router.pathname;
  const tone = headerTone(pathname);

  const onTryFree = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (pathname === '/') {
      focusSearchBox();
      return;
    }
    const arrived = router.push('/');
    // About 1 s after the click; if the home page is not there yet (a slow device or network), as soon as it is.
    window.setTimeout(() => {
      if (!focusSearchBox()) void arrived.then((ok) => ok && focusSearchBox());
    }, SEARCH_FOCUS_DELAY_MS);
  };

  return (
    <header className={styles.header} data-tone={tone}>
      <div className={styles.inner}>
        <Link prefetch={false} href="/" className={styles.brand}>
          <span className={styles.logo} aria-hidden="true">
            ★
          </span>
          ARB<span className="visually-hidden"> — home</span>
        </Link>
        {sections.length || config.menu.links.length ? (
          <nav aria-label="Main" className={styles.desktopNav}>
            <ul ref={navRef} className={styles.navList}>
              {sections.map((section) => (
                <SectionMenu
                  key={section.id}
                  section={section}
                  open={openSection === section.id}
                  onToggle={() => setOpenSection((current) => (current === section.id ? null : section.id))}
                  onClose={closeSections}
                />
              ))}
              {config.menu.links.map((link) => (
                <li key={link.href}>
                  <Link prefetch={false} href={link.href} className={styles.navLink}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className={styles.actions}>
          {signedIn ? (
            <UserMenu />
          ) : (
            <>
              {pathname !== '/login' ? (
                <Link prefetch={false} href={loginHref(currentPath, router.query)} className={styles.login}>
                  Login
                </Link>
              ) : null}
              {pathname !== '/try-free' ? (
                <Link prefetch={false} href="/" className={styles.tryFree} onClick={onTryFree}>
                  Try it Free
                </Link>
              ) : null}
            </>
          )}
          <MobileMenu sections={sections} links={config.menu.links} />
        </div>
      </div>
    </header>
  );
}
