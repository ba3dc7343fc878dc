import { apiRoute } from '@/server/http/api';
import { listOrgMembers } from '@/server/org/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listOrgMembers });
