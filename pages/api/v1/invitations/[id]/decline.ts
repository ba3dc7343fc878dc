import { apiRoute } from '@/server/http/api';
import { declineMyInvitation } from '@/server/org/inviteeEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: declineMyInvitation });
