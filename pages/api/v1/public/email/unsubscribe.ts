import { apiRoute } from '@/server/http/api';
import { describeUnsubscribeEndpoint, unsubscribeEndpoint } from '@/server/subscriptions/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: describeUnsubscribeEndpoint, POST: unsubscribeEndpoint });
