import TeamPage from '@/components/dashboard/TeamPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Team',
  description: 'Your ARB organisation: its members, their roles, invitations and the audit log.',
  path: '/dashboard/team',
  Content: TeamPage,
});
