import { apiRoute } from '@/server/http/api';
import { listReplyPausesEndpoint } from '@/server/replies/approvalEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listReplyPausesEndpoint });
