import { apiRoute } from '@/server/http/api';
import { createTagEndpoint, listTagsEndpoint } from '@/server/workflow/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listTagsEndpoint, POST: createTagEndpoint });
