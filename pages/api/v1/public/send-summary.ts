import { apiRoute } from '@/server/http/api';
import { sendSummaryEndpoint } from '@/server/subscriptions/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: sendSummaryEndpoint });
