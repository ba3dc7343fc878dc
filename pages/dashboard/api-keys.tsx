import QueryProvider from '@/components/common/QueryProvider';
import DashboardShell from '@/components/dashboard/DashboardShell';
import ApiKeysPage from '@/components/dashboard/apiKeys/ApiKeysPage';
import Seo from '@/components/layout/Seo';

export default function DashboardApiKeysPage() {
  return (
    <>
      <Seo title="API keys" description="API keys of your ARB organisation: create one for each integration, see when it was last used, revoke it." path="/dashboard/api-keys" noindex />
      <QueryProvider>
        <DashboardShell title="API keys">
          <ApiKeysPage />
        </DashboardShell>
      </QueryProvider>
    </>
  );
}
