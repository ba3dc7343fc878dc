import { apiRoute } from '@/server/http/api';
import { translateReviewEndpoint } from '@/server/ai/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: translateReviewEndpoint });
