import { apiRoute } from '@/server/http/api';
import { revokeOrgApiKey } from '@/server/apiKeys/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ DELETE: revokeOrgApiKey });
