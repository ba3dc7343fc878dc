import { apiRoute } from '@/server/http/api';
import { appDetailsEndpoint } from '@/server/apps/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: appDetailsEndpoint });
