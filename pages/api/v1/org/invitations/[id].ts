import { apiRoute } from '@/server/http/api';
import { deleteOrgInvitation } from '@/server/org/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ DELETE: deleteOrgInvitation });
