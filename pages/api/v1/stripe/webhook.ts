import { apiRoute } from '@/server/http/api';
import { stripeWebhook } from '@/server/billing/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: stripeWebhook });
