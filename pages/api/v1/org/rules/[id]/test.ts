import { apiRoute } from '@/server/http/api';
import { testRuleEndpoint } from '@/server/rules/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: testRuleEndpoint });
