import { apiRoute } from '@/server/http/api';
import { listRepliesEndpoint } from '@/server/replies/approvalEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listRepliesEndpoint });
