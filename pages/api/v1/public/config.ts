import { apiRoute } from '@/server/http/api';
import { publicConfigEndpoint } from '@/server/connect/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: publicConfigEndpoint });
