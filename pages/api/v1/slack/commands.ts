import { apiRoute } from '@/server/http/api';
import { slackCommandsEndpoint } from '@/server/slack/askEndpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: slackCommandsEndpoint });
