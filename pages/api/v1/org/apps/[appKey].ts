import { apiRoute } from '@/server/http/api';
import { removeOrgAppEndpoint } from '@/server/orgApps/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ DELETE: removeOrgAppEndpoint });
