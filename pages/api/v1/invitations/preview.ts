import { apiRoute } from '@/server/http/api';
import { previewInvitationLink } from '@/server/org/inviteeEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: previewInvitationLink });
