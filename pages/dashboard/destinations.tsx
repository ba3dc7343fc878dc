import QueryProvider from '@/components/common/QueryProvider';
import DashboardShell from '@/components/dashboard/DashboardShell';
import DestinationsPage from '@/components/dashboard/destinations/DestinationsPage';
import Seo from '@/components/layout/Seo';

export default function DashboardDestinationsPage() {
  return (
    <>
      <Seo title="Destinations" description="Where your organisation's App Store and Google Play reviews go: channels, inboxes, their filters and state." path="/dashboard/destinations" noindex />
      <QueryProvider>
        <DashboardShell title="Destinations">
          <DestinationsPage />
        </DashboardShell>
      </QueryProvider>
    </>
  );
}
