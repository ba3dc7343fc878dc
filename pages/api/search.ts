import { apiRoute } from '@/server/http/api';
import { searchAppsEndpoint } from '@/server/apps/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: searchAppsEndpoint });
