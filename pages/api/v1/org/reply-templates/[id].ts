import { apiRoute } from '@/server/http/api';
import { changeTemplateEndpoint, deleteTemplateEndpoint } from '@/server/replies/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ PATCH: changeTemplateEndpoint, DELETE: deleteTemplateEndpoint });
