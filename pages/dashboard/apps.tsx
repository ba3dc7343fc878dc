import AppsPage from '@/components/dashboard/apps/AppsPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Apps',
  description: "The apps your ARB organisation follows: rating, reviews, this week's reviews and the last one.",
  path: '/dashboard/apps',
  Content: AppsPage,
});
