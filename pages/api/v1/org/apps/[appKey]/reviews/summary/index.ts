import { apiRoute } from '@/server/http/api';
import { requestSummaryEndpoint } from '@/server/insights/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: requestSummaryEndpoint });
