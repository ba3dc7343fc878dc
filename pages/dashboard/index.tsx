import OverviewPage from '@/components/dashboard/overview/OverviewPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Overview',
  description: 'Your ARB overview: each app’s store rating and review average, what needs attention, and the first steps.',
  path: '/dashboard',
  Content: OverviewPage,
});
