import { apiRoute } from '@/server/http/api';
import { tokenRefresh } from '@/server/auth/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: tokenRefresh });
