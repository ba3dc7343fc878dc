import { apiRoute } from '@/server/http/api';
import { deleteRuleEndpoint, updateRuleEndpoint } from '@/server/rules/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ PATCH: updateRuleEndpoint, DELETE: deleteRuleEndpoint });
