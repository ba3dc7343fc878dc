import { apiRoute } from '@/server/http/api';
import { rejectReplyEndpoint } from '@/server/replies/approvalEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: rejectReplyEndpoint });
