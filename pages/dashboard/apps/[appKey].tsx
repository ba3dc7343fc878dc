import QueryProvider from '@/components/common/QueryProvider';
import DashboardShell from '@/components/dashboard/DashboardShell';
import AppStatsPage from '@/components/dashboard/stats/AppStatsPage';
import Seo from '@/components/layout/Seo';

export default function DashboardAppStatsPage() {
  return (
    <>
      <Seo title="Ratings and trends" description="An app's average rating and review count over time, its ratings, versions and countries." path="/dashboard/apps" noindex />
      <QueryProvider>
        <DashboardShell title="Ratings and trends">
          <AppStatsPage />
        </DashboardShell>
      </QueryProvider>
    </>
  );
}
