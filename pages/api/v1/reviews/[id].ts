import { apiRoute } from '@/server/http/api';
import { publicReviewEndpoint } from '@/server/publicApi/reviewEndpoint';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: publicReviewEndpoint });
