import { apiRoute } from '@/server/http/api';
import { acceptMyInvitation } from '@/server/org/inviteeEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: acceptMyInvitation });
