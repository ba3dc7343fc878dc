import { apiRoute } from '@/server/http/api';
import { getBilling } from '@/server/billing/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: getBilling });
