import ReviewsPage from '@/components/dashboard/reviews/ReviewsPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Reviews',
  description: "Every review of your organisation's apps in one inbox: search, filter, export.",
  path: '/dashboard/reviews',
  Content: ReviewsPage,
});
