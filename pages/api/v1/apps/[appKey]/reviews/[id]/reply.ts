import { apiRoute } from '@/server/http/api';
import { publicReplyEndpoint } from '@/server/replies/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: publicReplyEndpoint });
