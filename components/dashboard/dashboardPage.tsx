/**
 * A page of the signed-in dashboard: its title and description (never indexed), the query client, the app's layout
 * (components/layout/AppLayout.tsx, not the marketing header and footer) and the dashboard's frame (sign-in check,
 * navigation, heading) around the page's own content. Each file under pages/dashboard is one call.
 */
import type { ComponentType } from 'react';
import QueryProvider from '@/components/common/QueryProvider';
import AppLayout from '@/components/layout/AppLayout';
import Seo from '@/components/layout/Seo';
import DashboardShell from './DashboardShell';

export function dashboardPage(o: { title: string; description: string; path: string; Content: ComponentType }) {
  function DashboardPage() {
    return (
      <>
        <Seo title={o.title} description={o.description} path={o.path} noindex />
        <QueryProvider>
          <DashboardShell title={o.title}>
            <o.Content />
          </DashboardShell>
        </QueryProvider>
      </>
    );
  }
  DashboardPage.displayName = `DashboardPage(${o.title})`;
  // The app's frame instead of the marketing one (pages/_app.tsx).
  DashboardPage.Layout = AppLayout;
  return DashboardPage;
}
