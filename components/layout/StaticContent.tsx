/**
 * Content that never changes in the browser (marketing sections, the footer), hydrated for the price of one element.
 *
 * The server renders the children as usual. When React hydrates that HTML, this renders an empty
 * `dangerouslySetInnerHTML` instead of the children: React then leaves the element's server-rendered DOM as it is and
 * builds no component tree for it, so none of the children's rendering, diffing or effects run in the page's busiest
 * moment. A page mounted later in the browser (client-side navigation) renders the children normally.
 *
 * The server's links inside are plain <a>s then; one click handler on the element does what next/link does for them
 * (an in-app link is followed by the router, without reloading the page; modified clicks, other targets, downloads
 * and other origins are left to the browser, and so are links inside `[data-native-links]`, which were plain links
 * before), so a visitor can't tell the difference.
 */
import { useRouter } from 'next/router';
import { useState, useSyncExternalStore, type MouseEvent, type ReactNode } from 'react';

/** One object for every render: React rewrites innerHTML whenever this prop's object changes. */
const KEEP_SERVER_HTML = { __html: '' };

/**
 * `display: contents` (styles/globals.css): the wrapper takes no part in layout. Not a CSS module: a stylesheet shared
 * by _app and a page made the bundler merge the home page's stylesheet into every page's.
 */
const WRAPPER_CLASS = 'static-content';

const subscribeToNothing = () => () => {};

/** True on the server and while React hydrates its HTML; false in a render that starts in the browser. */
function useHydratingServerHtml(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
}

/** Where the router should take a plain click on an in-app link inside the element, or null to let the browser act. */
export function inAppLinkTarget(event: MouseEvent<HTMLElement>): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link) || link.closest('[data-native-links]')) return null;
  if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export default function StaticContent({ children }: { children: ReactNode }) {
  const router = useRouter();
  const hydrating = useHydratingServerHtml();
  // Decided once: after hydration React renders this again with the browser's answer, which must not bring the
  // children back (they would replace the server's DOM with an identical one).
  const [keepServerHtml] = useState(hydrating);
  if (typeof window === 'undefined' || !keepServerHtml) return <div className={WRAPPER_CLASS}>{children}</div>;
  const onClick = (event: MouseEvent<HTMLElement>) => {
    const target = inAppLinkTarget(event);
    if (target === null) return;
    event.preventDefault();
    void router.push(target);
  };
  return <div className={WRAPPER_CLASS} onClick={onClick} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />;
}
