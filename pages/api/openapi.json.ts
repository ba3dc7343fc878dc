import { apiRoute } from '@/server/http/api';
import { openApiDocument } from '@/server/http/openapi';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: openApiDocument });
