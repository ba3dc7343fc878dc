import DestinationsPage from '@/components/dashboard/destinations/DestinationsPage';
import { dashboardPage } from '@/components/dashboard/dashboardPage';

export default dashboardPage({
  title: 'Destinations',
  description: "Where your organisation's App Store and Google Play reviews go: channels, inboxes, their filters and state.",
  path: '/dashboard/destinations',
  Content: DestinationsPage,
});
