/**
 * The page shell (docs/PRODUCT.md, Page shell): default SEO tags, the frame (header, main, footer; a page may choose
 * another, docs/DEVELOPING.md "Page layouts"), the route progress bar with
 * page views, toasts, the generic modals, and the browser-side start-up work (persisted user, attribution,
 * analytics). Only small modules here — every page downloads this file; the HTTP client, React Query and analytics
 * SDKs are loaded by the pages that need them. Toasts and modals show nothing until raised, so their code is loaded
 * and mounted only once something asks for them (lib/toast).
 */
import type { AppProps } from 'next/app';
import dynamic from 'next/dynamic';
import { useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import Layout from '@/components/layout/Layout';
import ProgressBar from '@/components/layout/ProgressBar';
import Seo from '@/components/layout/Seo';
import { shellOverlaysWanted, subscribeShellOverlays } from '@/lib/toast';
import { useAppShellEffects } from '@/lib/useAppShellEffects';
import '@/styles/globals.css';

const ShellOverlays = dynamic(() => import('@/components/layout/ShellOverlays'), { ssr: false });

/** The shell's start-up work in a component of its own: what it watches (the known e-mail) re-renders only it. */
function AppShellEffects() {
  useAppShellEffects();
  return null;
}

const notWantedOnServer = () => false;

/**
 * Toasts and modals, mounted as soon as something asks for them: a page that raises none never downloads them, and one
 * that does shows it at once (waiting for idle as well let a toast raised just before a navigation never show).
 */
function Overlays() {
  const wanted = useSyncExternalStore(subscribeShellOverlays, shellOverlaysWanted, notWantedOnServer);
  return wanted ? <ShellOverlays /> : null;
}

/** A page may choose its frame (`Page.Layout = AppLayout`: the dashboard); the marketing Layout otherwise. */
type PageWithLayout = AppProps['Component'] & { Layout?: ComponentType<{ children: ReactNode }> };

export default function App({ Component, pageProps }: AppProps) {
  const Frame = (Component as PageWithLayout).Layout ?? Layout;
  // The default head tags sit inside the frame's page boundary, beside the page's own <Seo>: both hydrate in one
  // commit, so next/head never applies the defaults alone (the title flashed the default for ~10–30 ms when they
  // hydrated with the root, ahead of the page).
  return (
    <>
      <AppShellEffects />
      <ProgressBar />
      <Frame>
        <Seo />
        <Component {...pageProps} />
      </Frame>
      <Overlays />
    </>
  );
}
