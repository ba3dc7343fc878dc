import { apiRoute } from '@/server/http/api';
import { draftInfoEndpoint, draftReplyEndpoint } from '@/server/ai/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: draftInfoEndpoint, POST: draftReplyEndpoint });
