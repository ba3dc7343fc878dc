import { apiRoute } from '@/server/http/api';
import { liftReplyPauseEndpoint } from '@/server/replies/approvalEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ DELETE: liftReplyPauseEndpoint });
