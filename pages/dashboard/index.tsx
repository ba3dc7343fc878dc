import DashboardHome from '@/components/auth/DashboardHome';
import QueryProvider from '@/components/common/QueryProvider';
import Seo from '@/components/layout/Seo';

export default function DashboardPage() {
  return (
    <>
      <Seo title="Dashboard" description="Your ARB dashboard: the apps you follow and where their App Store and Google Play reviews go." path="/dashboard" noindex />
      <QueryProvider>
        <DashboardHome />
      </QueryProvider>
    </>
  );
}
