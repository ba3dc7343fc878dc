import { apiRoute } from '@/server/http/api';
import { publicAppsEndpoint } from '@/server/publicApi/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: publicAppsEndpoint });
