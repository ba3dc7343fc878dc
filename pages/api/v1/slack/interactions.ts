import { apiRoute } from '@/server/http/api';
import { slackInteractionsEndpoint } from '@/server/slack/endpoints';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: slackInteractionsEndpoint });
