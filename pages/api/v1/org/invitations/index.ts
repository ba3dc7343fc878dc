import { apiRoute } from '@/server/http/api';
import { createOrgInvitation, listOrgInvitations } from '@/server/org/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listOrgInvitations, POST: createOrgInvitation });
