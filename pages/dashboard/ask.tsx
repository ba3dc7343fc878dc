import OrgChat from '@/components/askArb/OrgChat';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Ask ARB',
  description: 'Ask questions about your apps’ reviews in plain language; answers cite the reviews they are based on.',
  path: '/dashboard/ask',
  Content: OrgChat,
});
