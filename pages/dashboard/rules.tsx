import RulesPage from '@/components/dashboard/rules/RulesPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Rules',
  description: 'Rules that sort, tag, assign and answer new reviews for your team, and the tags they use.',
  path: '/dashboard/rules',
  Content: RulesPage,
});
