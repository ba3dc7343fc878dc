import { apiRoute } from '@/server/http/api';
import { overviewEndpoint } from '@/server/overview/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: overviewEndpoint });
