import { apiRoute } from '@/server/http/api';
import { createRuleEndpoint, listRulesEndpoint } from '@/server/rules/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ GET: listRulesEndpoint, POST: createRuleEndpoint });
