import { apiRoute } from '@/server/http/api';
import { approveReplyEndpoint } from '@/server/replies/approvalEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: approveReplyEndpoint });
