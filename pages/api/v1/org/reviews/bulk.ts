import { apiRoute } from '@/server/http/api';
import { bulkReviewsEndpoint } from '@/server/workflow/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: bulkReviewsEndpoint });
