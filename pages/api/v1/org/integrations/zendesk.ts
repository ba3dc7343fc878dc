import { apiRoute } from '@/server/http/api';
import { deleteZendeskEndpoint, getZendeskEndpoint, patchZendeskEndpoint, putZendeskEndpoint } from '@/server/zendesk/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: getZendeskEndpoint, PUT: putZendeskEndpoint, PATCH: patchZendeskEndpoint, DELETE: deleteZendeskEndpoint });
