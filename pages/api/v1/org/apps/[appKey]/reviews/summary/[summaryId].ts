import { apiRoute } from '@/server/http/api';
import { getSummaryEndpoint } from '@/server/insights/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: getSummaryEndpoint });
