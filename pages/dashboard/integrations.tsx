import ZendeskIntegration from '@/components/dashboard/integrations/ZendeskIntegration';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Integrations',
  description: 'Connect Zendesk: a ticket per review, and replies written in Zendesk sent to the store.',
  path: '/dashboard/integrations',
  Content: ZendeskIntegration,
});
