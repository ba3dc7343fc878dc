import { apiRoute } from '@/server/http/api';
import { listMyInvitations } from '@/server/org/inviteeEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listMyInvitations });
