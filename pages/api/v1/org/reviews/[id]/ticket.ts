import { apiRoute } from '@/server/http/api';
import { createTicketEndpoint } from '@/server/zendesk/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: createTicketEndpoint });
