import { apiRoute } from '@/server/http/api';
import { getReviewEndpoint, patchReviewEndpoint } from '@/server/workflow/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: getReviewEndpoint, PATCH: patchReviewEndpoint });
