import { apiRoute } from '@/server/http/api';
import { listOrgAuditLog } from '@/server/org/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listOrgAuditLog });
