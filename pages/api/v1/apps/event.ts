import { apiRoute } from '@/server/http/api';
import { appEventEndpoint } from '@/server/apps/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: appEventEndpoint });
