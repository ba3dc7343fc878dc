import { apiRoute } from '@/server/http/api';
import { exportOrgReviews } from '@/server/reviews/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: exportOrgReviews });
