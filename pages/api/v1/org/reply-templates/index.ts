import { apiRoute } from '@/server/http/api';
import { createTemplateEndpoint, listTemplatesEndpoint } from '@/server/replies/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listTemplatesEndpoint, POST: createTemplateEndpoint });
