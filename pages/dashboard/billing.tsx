import BillingPage from '@/components/dashboard/billing/BillingPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Billing',
  description: 'Your ARB plan, its renewal, and how much of each limit your organisation uses.',
  path: '/dashboard/billing',
  Content: BillingPage,
});
