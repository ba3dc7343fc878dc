import { apiRoute } from '@/server/http/api';
import { invitationExchange } from '@/server/auth/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: invitationExchange });
