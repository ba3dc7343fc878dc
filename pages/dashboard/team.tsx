import QueryProvider from '@/components/common/QueryProvider';
import DashboardShell from '@/components/dashboard/DashboardShell';
import TeamPage from '@/components/dashboard/TeamPage';
import Seo from '@/components/layout/Seo';

export default function DashboardTeamPage() {
  return (
    <>
      <Seo title="Team" description="Your ARB organisation: its members, their roles, invitations and the audit log." path="/dashboard/team" noindex />
      <QueryProvider>
        <DashboardShell title="Team">
          <TeamPage />
        </DashboardShell>
      </QueryProvider>
    </>
  );
}
