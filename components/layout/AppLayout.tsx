/**
 * The signed-in app's frame (docs/DEVELOPING.md, "Page layouts"): the dashboard is an app, not a marketing page. A slim
 * app bar — the brand, linking to /dashboard, and the user menu — above the page, full width, without the marketing
 * header's sections, Login or "Try it Free", and without the footer. The dashboard's own navigation is the page's
 * (`DashboardShell`).
 *
 * The stored user is read after the first render (the server HTML and the first client render must agree), so until
 * then the user menu's place holds a skeleton: a signed-in reader never sees a signed-out bar, and a signed-out one
 * sees no menu (the page asks them to sign in). A page chooses this frame with `Page.Layout = AppLayout`
 * (`dashboardPage` does); only the pages that do carry its code.
 *
 * Like the marketing Layout, the page hydrates in a Suspense boundary of its own, with the default head tags `_app`
 * puts in front of it: both mount in the same commit, so next/head never applies the defaults alone.
 */
import Link from 'next/link';
import { Suspense, useEffect, type ReactNode } from 'react';
import { useSignedIn } from '@/components/dashboard/DashboardShell';
import { useAuthHydrated } from '@/stores/auth';
import styles from './AppLayout.module.css';
import UserMenu from './UserMenu';

function AppUser() {
  const hydrated = useAuthHydrated();
  const { signedIn } = useSignedIn();
  if (!hydrated) return <span className={styles.userSkeleton} aria-hidden="true" />;
  return signedIn ? <UserMenu /> : null;
}

export default function AppLayout({ children }: { children: ReactNode }) {
  // Arriving by a client-side navigation from the one dark page (/ask-arb) must not keep its black body.
  useEffect(() => {
    delete document.body.dataset.theme;
  }, []);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className={styles.bar}>
        <Link prefetch={false} href="/dashboard" className={styles.brand}>
          <span className={styles.logo} aria-hidden="true">
            ★
          </span>
          ARB<span className="visually-hidden"> — your dashboard</span>
        </Link>
        <div className={styles.actions}>
          <AppUser />
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense>{children}</Suspense>
      </main>
    </>
  );
}
