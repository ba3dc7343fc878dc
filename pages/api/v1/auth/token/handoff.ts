import { apiRoute } from '@/server/http/api';
import { tokenHandoff } from '@/server/auth/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: tokenHandoff });
