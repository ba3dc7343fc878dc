import { apiRoute } from '@/server/http/api';
import { removeReplyEndpoint, replyToReviewEndpoint } from '@/server/replies/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: replyToReviewEndpoint, DELETE: removeReplyEndpoint });
