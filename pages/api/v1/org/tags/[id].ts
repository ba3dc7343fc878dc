import { apiRoute } from '@/server/http/api';
import { deleteTagEndpoint, updateTagEndpoint } from '@/server/workflow/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ PATCH: updateTagEndpoint, DELETE: deleteTagEndpoint });
