import RepliesPage from '@/components/dashboard/replies/RepliesPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Replies awaiting approval',
  description: 'Replies your rules drafted, waiting for a person: edit, approve or reject each before it goes to the store.',
  path: '/dashboard/replies',
  Content: RepliesPage,
});
