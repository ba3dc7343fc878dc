import { apiRoute } from '@/server/http/api';
import { slackCallbackEndpoint } from '@/server/connect/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: slackCallbackEndpoint });
