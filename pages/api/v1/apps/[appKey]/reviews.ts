import { apiRoute } from '@/server/http/api';
import { publicAppReviewsEndpoint } from '@/server/publicApi/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: publicAppReviewsEndpoint });
