import { apiRoute } from '@/server/http/api';
import { slackLinkEndpoint } from '@/server/slack/linkEndpoint';

export const config = { api: { bodyParser: false } };
export default apiRoute({ POST: slackLinkEndpoint });
