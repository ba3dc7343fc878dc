import { apiRoute } from '@/server/http/api';
import { createOrgApiKey, listOrgApiKeys } from '@/server/apiKeys/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listOrgApiKeys, POST: createOrgApiKey });
