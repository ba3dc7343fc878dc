import QueryProvider from '@/components/common/QueryProvider';
import DashboardShell from '@/components/dashboard/DashboardShell';
import AppsPage from '@/components/dashboard/apps/AppsPage';
import Seo from '@/components/layout/Seo';

export default function DashboardAppsPage() {
  return (
    <>
      <Seo title="Apps" description="The apps your ARB organisation follows: rating, reviews, this week's reviews and the last one." path="/dashboard/apps" noindex />
      <QueryProvider>
        <DashboardShell title="Apps">
          <AppsPage />
        </DashboardShell>
      </QueryProvider>
    </>
  );
}
