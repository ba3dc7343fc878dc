import { apiRoute } from '@/server/http/api';
import { crmExchange } from '@/server/auth/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: crmExchange });
