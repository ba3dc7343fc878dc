import ApiKeysPage from '@/components/dashboard/apiKeys/ApiKeysPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'API keys',
  description: 'API keys of your ARB organisation: create one for each integration, see when it was last used, revoke it.',
  path: '/dashboard/api-keys',
  Content: ApiKeysPage,
});
