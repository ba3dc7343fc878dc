import { apiRoute } from '@/server/http/api';
import { reviewsByEmailEndpoint } from '@/server/subscriptions/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: reviewsByEmailEndpoint });
