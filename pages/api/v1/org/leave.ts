import { apiRoute } from '@/server/http/api';
import { leaveOrg } from '@/server/org/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: leaveOrg });
