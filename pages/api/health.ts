import { apiRoute, endpoint } from '@/server/http/api';
import { getHealth } from '@/server/monitor/health';

export const config = { api: { bodyParser: false } };

export default apiRoute({
  GET: endpoint({ summary: 'Health: database, delivery queue depth and age, engine counters', tags: ['ops'], statuses: [503], handler: () => getHealth() }),
});
