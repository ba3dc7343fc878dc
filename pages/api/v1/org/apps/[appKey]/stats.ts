import { apiRoute } from '@/server/http/api';
import { appStatsEndpoint } from '@/server/stats/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: appStatsEndpoint });
