import AppStatsPage from '@/components/dashboard/stats/AppStatsPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Ratings and trends',
  description: "An app's average rating and review count over time, its ratings, versions and countries.",
  path: '/dashboard/apps',
  Content: AppStatsPage,
});
