import { apiRoute } from '@/server/http/api';
import { confirmEmailEndpoint } from '@/server/subscriptions/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: confirmEmailEndpoint });
