/**
 * Every page's frame: a skip link, the header, the page in <main id="main">, and the footer. /ask-arb is the one dark
 * page: dark footer, and the body turns black (the server sets it in _document; this keeps it right across
 * client-side navigation).
 *
 * The header, the page and the footer each sit in a Suspense boundary: React hydrates the root's own small part first,
 * then each of them in short slices it can interrupt (a click in a part not yet hydrated hydrates that part first),
 * instead of one long task that holds the main thread while the visitor already sees the page.
 */
import { useRouter } from 'next/router';
import { Suspense, useEffect, type ReactNode } from 'react';
import Footer from './Footer';
import Header from './Header';

export const DARK_PATHS = new Set(['/ask-arb']);

export function isDarkPage(pathname: string): boolean {
  return DARK_PATHS.has(pathname);
}

export default function Layout({ children }: { children: ReactNode }) {
  const { pathname } = useRouter();
  const dark = isDarkPage(pathname);
  useEffect(() => {
    if (dark) document.body.dataset.theme = 'dark';
    else delete document.body.dataset.theme;
  }, [dark]);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Suspense>
        <Header />
      </Suspense>
      <main id="main" tabIndex={-1}>
        <Suspense>{children}</Suspense>
      </main>
      <Suspense>
        <Footer dark={pathname === '/ask-arb'} />
      </Suspense>
    </>
  );
}
