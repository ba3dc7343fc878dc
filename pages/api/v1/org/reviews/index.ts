import { apiRoute } from '@/server/http/api';
import { listOrgReviews } from '@/server/reviews/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listOrgReviews });
