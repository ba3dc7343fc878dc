import { apiRoute } from '@/server/http/api';
import { addOrgAppEndpoint, listOrgApps } from '@/server/orgApps/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listOrgApps, POST: addOrgAppEndpoint });
